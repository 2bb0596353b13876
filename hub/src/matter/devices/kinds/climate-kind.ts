/**
 * Thermostat (0x0301) for HA climate entities. Features from `hvac_modes` (Heating, Cooling, AutoMode only with
 * `heat_cool`; see convert/thermostat.ts for why HA `auto` is not Matter Auto). Temperatures are in HA's unit
 * system and become hundredths of °C; setpoint limits come from `min_temp`/`max_temp` and setpoints are clamped
 * into them so an odd HA value can never fail the update. ThermostatUserInterfaceConfiguration tells controllers
 * to display the HA unit (°F users see °F).
 */
import { ThermostatUserInterfaceConfigurationServer } from "@matter/main/behaviors/thermostat-user-interface-configuration";
import { Thermostat } from "@matter/main/clusters/thermostat";
import { ThermostatUserInterfaceConfiguration } from "@matter/main/clusters/thermostat-user-interface-configuration";
import { ThermostatDevice } from "@matter/main/devices/thermostat";
import { HaThermostatServer } from "../../behaviors/thermostat-server.ts";
import { type ClimateCapabilities, climateCapabilities } from "../../model/capabilities.ts";
import { isFahrenheit, toCentiCelsius } from "../../model/convert/temperature.ts";
import { controlSequenceFor, runningStateFor, systemModeFromHa } from "../../model/convert/thermostat.ts";
import { numberAttr, stringAttr } from "../../model/ha-state.ts";
import type { DeviceKind, KindContext, StatePatch } from "./kind.ts";

/** HA's climate defaults when an entity reports no limits (7 °C / 35 °C). */
const DEFAULT_MIN = 700;
const DEFAULT_MAX = 3500;

/** Matter requires Heating or Cooling; an entity reporting neither yet (no state) is built as heating. */
function features(caps: ClimateCapabilities) {
  const list: Thermostat.Feature[] = [];
  if (caps.heating || !caps.cooling) list.push(Thermostat.Feature.Heating);
  if (caps.cooling) list.push(Thermostat.Feature.Cooling);
  if (caps.autoMode) list.push(Thermostat.Feature.AutoMode);
  return list;
}

/** The capabilities the endpoint is built with (see {@link features}). */
function capabilitiesOf(context: KindContext): ClimateCapabilities {
  const caps = climateCapabilities(context.snapshot.state);
  return caps.heating || caps.cooling ? caps : { ...caps, heating: true };
}

function limits(context: KindContext) {
  const unit = context.unitSystem.temperature;
  const minTemp = numberAttr(context.snapshot.state, "min_temp");
  const maxTemp = numberAttr(context.snapshot.state, "max_temp");
  let min = minTemp !== undefined ? toCentiCelsius(minTemp, unit) : DEFAULT_MIN;
  let max = maxTemp !== undefined ? toCentiCelsius(maxTemp, unit) : DEFAULT_MAX;
  if (min > max) [min, max] = [max, min];
  return { min, max };
}

function limitValues(context: KindContext, caps: ClimateCapabilities): Record<string, unknown> {
  const { min, max } = limits(context);
  const values: Record<string, unknown> = {};
  if (caps.heating)
    Object.assign(values, {
      absMinHeatSetpointLimit: min,
      absMaxHeatSetpointLimit: max,
      minHeatSetpointLimit: min,
      maxHeatSetpointLimit: max,
    });
  if (caps.cooling)
    Object.assign(values, {
      absMinCoolSetpointLimit: min,
      absMaxCoolSetpointLimit: max,
      minCoolSetpointLimit: min,
      maxCoolSetpointLimit: max,
    });
  return values;
}

function project(context: KindContext): StatePatch {
  const entity = context.snapshot.state;
  const unit = context.unitSystem.temperature;
  const caps = capabilitiesOf(context);
  const { min, max } = limits(context);
  const temperature = (name: string) => {
    const value = numberAttr(entity, name);
    return value === undefined ? undefined : Math.min(max, Math.max(min, toCentiCelsius(value, unit)));
  };
  const current = numberAttr(entity, "current_temperature");
  const single = temperature("temperature");
  const action = stringAttr(entity, "hvac_action");
  const values: Record<string, unknown> = {
    ...limitValues(context, caps),
    localTemperature: current === undefined ? null : toCentiCelsius(current, unit),
    systemMode: entity ? systemModeFromHa(entity.state, caps, action) : undefined,
    thermostatRunningState: runningStateFor(action),
  };
  // A single-setpoint device shows its one target as both setpoints; a range device its low and high.
  if (caps.heating) values.occupiedHeatingSetpoint = temperature("target_temp_low") ?? single;
  if (caps.cooling) values.occupiedCoolingSetpoint = temperature("target_temp_high") ?? single;
  return { thermostat: values };
}

/** Thermostat (0x0301). */
export const thermostat: DeviceKind = {
  endpointType: (context) =>
    ThermostatDevice.with(
      HaThermostatServer.with(...features(capabilitiesOf(context))),
      ThermostatUserInterfaceConfigurationServer,
    ),
  fixed: (context) => {
    const caps = capabilitiesOf(context);
    const { min, max } = limits(context);
    const middle = Math.round((min + max) / 2);
    const thermostatValues: Record<string, unknown> = {
      controlSequenceOfOperation: controlSequenceFor(caps),
      systemMode: Thermostat.SystemMode.Off,
      localTemperature: null,
    };
    if (caps.autoMode) thermostatValues.minSetpointDeadBand = 0;
    if (caps.heating) thermostatValues.occupiedHeatingSetpoint = middle;
    if (caps.cooling) thermostatValues.occupiedCoolingSetpoint = middle;
    const Display = ThermostatUserInterfaceConfiguration.TemperatureDisplayMode;
    return {
      thermostat: thermostatValues,
      thermostatUserInterfaceConfiguration: {
        temperatureDisplayMode: isFahrenheit(context.unitSystem.temperature) ? Display.Fahrenheit : Display.Celsius,
        keypadLockout: ThermostatUserInterfaceConfiguration.KeypadLockout.NoLockout,
      },
    };
  },
  project,
  signature: (context) => JSON.stringify(features(capabilitiesOf(context))),
};
