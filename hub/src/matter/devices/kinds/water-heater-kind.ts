/**
 * Water Heater (0x050F) for HA `water_heater` entities: Thermostat with Heating only (LocalTemperature from
 * `current_temperature`, OccupiedHeatingSetpoint from `temperature`, setpoint limits from `min_temp`/`max_temp` in
 * HA's unit system, SystemMode Heat or Off), WaterHeaterMode (one mode per HA operation mode, plus the Off/On the
 * hub may add: model/convert/water-heater.ts) and WaterHeaterManagement (heat sources, estimated heat demand,
 * BoostState from HA's mode). Why 0x050F and not a plain thermostat: docs/decisions.md "Water heater".
 */
import { Thermostat } from "@matter/main/clusters/thermostat";
import { WaterHeaterManagement } from "@matter/main/clusters/water-heater-management";
import { WaterHeaterDevice, WaterHeaterRequirements } from "@matter/main/devices/water-heater";
import type { HassEntity } from "../../../home-assistant/types.ts";
import { HaWaterHeaterManagementServer } from "../../behaviors/water-heater-management-server.ts";
import { HaWaterHeaterModeServer } from "../../behaviors/water-heater-mode-server.ts";
import { HaWaterHeaterThermostatServer } from "../../behaviors/water-heater-thermostat-server.ts";
import { toCentiCelsius } from "../../model/convert/temperature.ts";
import {
  boostOperation,
  currentHeaterMode,
  heatDemand,
  heaterModes,
  heaterTypes,
  isManualMode,
  isOffMode,
  supportedModes,
} from "../../model/convert/water-heater.ts";
import { hasValue, numberAttr } from "../../model/ha-state.ts";
import type { DeviceKind, KindContext, StatePatch } from "./kind.ts";

/** HA's water heater defaults when an entity reports no limits (110 °F / 140 °F, water_heater/__init__.py). */
const DEFAULT_MIN = 4333;
const DEFAULT_MAX = 6000;

const Boost = WaterHeaterManagement.BoostState;

function limits(context: KindContext) {
  const unit = context.unitSystem.temperature;
  const minTemp = numberAttr(context.snapshot.state, "min_temp");
  const maxTemp = numberAttr(context.snapshot.state, "max_temp");
  let min = minTemp !== undefined ? toCentiCelsius(minTemp, unit) : DEFAULT_MIN;
  let max = maxTemp !== undefined ? toCentiCelsius(maxTemp, unit) : DEFAULT_MAX;
  if (min > max) [min, max] = [max, min];
  return {
    absMinHeatSetpointLimit: min,
    absMaxHeatSetpointLimit: max,
    minHeatSetpointLimit: min,
    maxHeatSetpointLimit: max,
  };
}

/** Whether HA has the heater in its boost mode (`high_demand`, else `performance`). */
function boosting(state: HassEntity | undefined): boolean {
  const boost = boostOperation(state);
  return boost !== undefined && currentHeaterMode(state, heaterModes(state))?.operation === boost;
}

function project(context: KindContext): StatePatch {
  const entity = context.snapshot.state;
  const unit = context.unitSystem.temperature;
  const bounds = limits(context);
  const modes = heaterModes(entity);
  const mode = currentHeaterMode(entity, modes);
  const current = numberAttr(entity, "current_temperature");
  const target = numberAttr(entity, "temperature");
  const clamp = (value: number) => Math.min(bounds.maxHeatSetpointLimit, Math.max(bounds.minHeatSetpointLimit, value));
  const known = hasValue(entity);
  return {
    thermostat: {
      ...bounds,
      localTemperature: current === undefined ? null : toCentiCelsius(current, unit),
      occupiedHeatingSetpoint: target === undefined ? undefined : clamp(toCentiCelsius(target, unit)),
      systemMode: known ? (isOffMode(mode) ? Thermostat.SystemMode.Off : Thermostat.SystemMode.Heat) : undefined,
    },
    waterHeaterMode: { supportedModes: supportedModes(modes), currentMode: mode?.mode },
    waterHeaterManagement: {
      heaterTypes: heaterTypes(entity),
      heatDemand: known ? heatDemand(entity, mode, current, target) : undefined,
      boostState: known ? (boosting(entity) ? Boost.Active : Boost.Inactive) : undefined,
    },
  };
}

/** Water Heater (0x050F). */
export const waterHeater: DeviceKind = {
  endpointType: () =>
    WaterHeaterDevice.with(
      HaWaterHeaterThermostatServer,
      HaWaterHeaterModeServer,
      HaWaterHeaterManagementServer,
      WaterHeaterRequirements.IdentifyServer,
    ),
  fixed: (context) => {
    const bounds = limits(context);
    const modes = heaterModes(context.snapshot.state);
    // Until HA says otherwise the heater is taken to be heating: that is what a water heater normally does.
    const manual = modes.find(isManualMode) ?? modes[0];
    return {
      thermostat: {
        ...bounds,
        controlSequenceOfOperation: Thermostat.ControlSequenceOfOperation.HeatingOnly,
        systemMode: Thermostat.SystemMode.Heat,
        localTemperature: null,
        occupiedHeatingSetpoint: Math.round((bounds.minHeatSetpointLimit + bounds.maxHeatSetpointLimit) / 2),
      },
      waterHeaterMode: { supportedModes: supportedModes(modes), currentMode: manual?.mode ?? 0 },
      waterHeaterManagement: {
        heaterTypes: heaterTypes(context.snapshot.state),
        heatDemand: {},
        boostState: Boost.Inactive,
      },
    };
  },
  project,
  signature: () => "water_heater",
  async afterUpdate(endpoint, previous, next) {
    // BoostEnded (Matter 1.4 §9.5.9.2) whenever the boost stops, through CancelBoost or a mode change in HA.
    if (!hasValue(next.state) || !boosting(previous.state) || boosting(next.state)) return;
    await endpoint.act("ha-event", (agent) => agent.get(HaWaterHeaterManagementServer).emitBoostEnded());
  },
};
