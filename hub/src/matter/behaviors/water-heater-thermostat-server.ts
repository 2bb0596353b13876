/**
 * The Water Heater's Thermostat (Heating only) → `water_heater.set_temperature` / `turn_on` / `turn_off`. Like the
 * climate thermostat (thermostat-server.ts) it is the bare ThermostatBehavior: HA is the thermostat, we translate.
 * Controllers write OccupiedHeatingSetpoint and SystemMode (HA's own Matter integration writes SystemMode Heat or
 * Off with every operation mode it picks), or send SetpointRaiseLower.
 */
import { ThermostatBehavior } from "@matter/main/behaviors/thermostat";
import { Thermostat } from "@matter/main/clusters/thermostat";
import { fromCentiCelsius } from "../model/convert/temperature.ts";
import { WaterHeaterFeature } from "../model/ha-features.ts";
import { numberAttr, supports } from "../model/ha-state.ts";
import { constraintError, entityOf, lockForWrite } from "./ha-entity-behavior.ts";
import { callAll, type HeaterCall, planForSystemMode } from "./water-heater-calls.ts";
import { forwardWrites, markOrigin, type WrittenValues } from "./write-forwarder.ts";

const Mode = Thermostat.SystemMode;

/** The heating setpoint limits in force (the kind always sets them; the fallbacks are Matter's defaults). */
export function heatLimits(state: {
  minHeatSetpointLimit?: number;
  maxHeatSetpointLimit?: number;
  absMinHeatSetpointLimit?: number;
  absMaxHeatSetpointLimit?: number;
}): { min: number; max: number } {
  return {
    min: state.minHeatSetpointLimit ?? state.absMinHeatSetpointLimit ?? 700,
    max: state.maxHeatSetpointLimit ?? state.absMaxHeatSetpointLimit ?? 3000,
  };
}

/** Heating-only Thermostat whose writes are HA water_heater calls. */
export class HaWaterHeaterThermostatServer extends ThermostatBehavior.with(Thermostat.Feature.Heating) {
  override initialize() {
    forwardWrites(this, ["systemMode", "occupiedHeatingSetpoint"], function (written) {
      return this.forwardWrite(written);
    });
  }

  /** A controller's attribute write, already in state; refusing throws and rolls the write back. */
  async forwardWrite(written: WrittenValues) {
    const systemMode = written.systemMode as Thermostat.SystemMode | undefined;
    await callAll(entityOf(this), this.#calls(systemMode, written.occupiedHeatingSetpoint as number | undefined));
  }

  /** SetpointRaiseLower (mandatory command): Amount is in 0.1 °C steps; only the heating setpoint exists. */
  override async setpointRaiseLower({ mode, amount }: Thermostat.SetpointRaiseLowerRequest) {
    if (mode === Thermostat.SetpointRaiseLowerMode.Cool) {
      return constraintError("a water heater has no cooling setpoint");
    }
    markOrigin(this.context.transaction, "command");
    await lockForWrite(this);
    const { min, max } = heatLimits(this.state);
    const value = Math.min(max, Math.max(min, this.state.occupiedHeatingSetpoint + amount * 10));
    const calls = this.#calls(undefined, value);
    this.state.occupiedHeatingSetpoint = value;
    await callAll(entityOf(this), calls);
  }

  #calls(systemMode: Thermostat.SystemMode | undefined, heating: number | undefined): HeaterCall[] {
    const ha = entityOf(this);
    const calls: HeaterCall[] = [];
    if (systemMode !== undefined) {
      if (systemMode !== Mode.Off && systemMode !== Mode.Heat) {
        return constraintError(`a water heater is Off or Heat, not ${Mode[systemMode] ?? systemMode}`);
      }
      const plan = planForSystemMode(ha.entity, systemMode === Mode.Heat, ha.entityId);
      if ("refused" in plan) return constraintError(plan.refused);
      calls.push(...plan.calls);
    }
    if (heating !== undefined) {
      if (!supports(ha.entity, WaterHeaterFeature.TARGET_TEMPERATURE)) {
        return constraintError(`${ha.entityId} has no target temperature (no TARGET_TEMPERATURE feature in HA)`);
      }
      // Matter bounds the setpoint by Min/MaxHeatSetpointLimit (HA's min_temp/max_temp); matter.js does not check.
      const { min, max } = heatLimits(this.state);
      if (heating < min || heating > max) return constraintError(`setpoint ${heating} is outside ${min}..${max}`);
      const step = numberAttr(ha.entity, "target_temp_step");
      const temperature = fromCentiCelsius(heating, ha.binding.unitSystem.temperature, step);
      calls.push({ action: "water_heater.set_temperature", data: { temperature } });
    }
    return calls;
  }
}
