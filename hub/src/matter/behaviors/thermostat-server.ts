/**
 * Thermostat → `climate.set_hvac_mode` / `climate.set_temperature`. Built on the bare ThermostatBehavior instead
 * of matter.js's ThermostatServer: that server simulates a thermostat (deadband shifting, running mode from the
 * local temperature, setpoint clamping on every change), which would fight the state HA reports. HA is the
 * thermostat here; we translate. Mode rules: model/convert/thermostat.ts.
 *
 * Controllers change thermostats by writing SystemMode and the occupied setpoints (Matter 1.3 §4.3.9); a write of
 * several of them in one request becomes one `climate.set_temperature` carrying `hvac_mode` too.
 */
import { ThermostatBehavior } from "@matter/main/behaviors/thermostat";
import { Thermostat } from "@matter/main/clusters/thermostat";
import { climateCapabilities } from "../model/capabilities.ts";
import { fromCentiCelsius } from "../model/convert/temperature.ts";
import { haModeForSystemMode, setTemperatureData } from "../model/convert/thermostat.ts";
import { ClimateFeature } from "../model/ha-features.ts";
import { numberAttr, supports } from "../model/ha-state.ts";
import { constraintError, entityOf, lockForWrite } from "./ha-entity-behavior.ts";
import { forwardWrites, markOrigin, type WrittenValues } from "./write-forwarder.ts";

const Base = ThermostatBehavior.with(Thermostat.Feature.Heating, Thermostat.Feature.Cooling, Thermostat.Feature.AutoMode);

interface Write {
  systemMode?: Thermostat.SystemMode | undefined;
  heating?: number | undefined;
  cooling?: number | undefined;
}

/** Thermostat whose mode and setpoint changes are HA climate calls. */
export class HaThermostatServer extends Base {
  override initialize() {
    forwardWrites(this, ["systemMode", "occupiedHeatingSetpoint", "occupiedCoolingSetpoint"], function (written) {
      return this.forwardWrite(written);
    });
  }

  /** A controller's attribute write, already in state; refusing throws and rolls the write back. */
  async forwardWrite(written: WrittenValues) {
    await this.#send({
      systemMode: written.systemMode as Thermostat.SystemMode | undefined,
      heating: written.occupiedHeatingSetpoint as number | undefined,
      cooling: written.occupiedCoolingSetpoint as number | undefined,
    });
  }

  /** SetpointRaiseLower (mandatory command): Amount is in 0.1 °C steps. */
  override async setpointRaiseLower({ mode, amount }: Thermostat.SetpointRaiseLowerRequest) {
    const Mode = Thermostat.SetpointRaiseLowerMode;
    markOrigin(this.context.transaction, "command");
    await lockForWrite(this);
    const write: Write = {};
    if (mode !== Mode.Cool && this.features.heating) {
      write.heating = this.#clamp(this.state.occupiedHeatingSetpoint + amount * 10, "Heat");
      this.state.occupiedHeatingSetpoint = write.heating;
    }
    if (mode !== Mode.Heat && this.features.cooling) {
      write.cooling = this.#clamp(this.state.occupiedCoolingSetpoint + amount * 10, "Cool");
      this.state.occupiedCoolingSetpoint = write.cooling;
    }
    if (write.heating === undefined && write.cooling === undefined) {
      return constraintError(`setpoint mode ${Mode[mode]} is not supported by this thermostat`);
    }
    await this.#send(write);
  }

  #clamp(value: number, scope: "Heat" | "Cool"): number {
    const min = scope === "Heat" ? this.state.minHeatSetpointLimit : this.state.minCoolSetpointLimit;
    const max = scope === "Heat" ? this.state.maxHeatSetpointLimit : this.state.maxCoolSetpointLimit;
    return Math.min(max ?? value, Math.max(min ?? value, value));
  }

  async #send(write: Write) {
    const ha = entityOf(this);
    const caps = climateCapabilities(ha.entity);
    let hvacMode: string | undefined;
    if (write.systemMode !== undefined) {
      hvacMode = haModeForSystemMode(write.systemMode, caps.modes);
      if (hvacMode === undefined) {
        return constraintError(`${ha.entityId} has no mode for ${Thermostat.SystemMode[write.systemMode]}`);
      }
    }
    if (write.heating === undefined && write.cooling === undefined) {
      return ha.call("climate.set_hvac_mode", { hvac_mode: hvacMode });
    }
    const mode = write.systemMode ?? this.state.systemMode;
    const rangeOnly =
      supports(ha.entity, ClimateFeature.TARGET_TEMPERATURE_RANGE) && !supports(ha.entity, ClimateFeature.TARGET_TEMPERATURE);
    const range = mode === Thermostat.SystemMode.Auto || rangeOnly;
    const cooling = mode === Thermostat.SystemMode.Cool || mode === Thermostat.SystemMode.Precooling;
    const step = numberAttr(ha.entity, "target_temp_step");
    const unit = ha.binding.unitSystem.temperature;
    const current = {
      heating: this.state.occupiedHeatingSetpoint ?? this.state.occupiedCoolingSetpoint,
      cooling: this.state.occupiedCoolingSetpoint ?? this.state.occupiedHeatingSetpoint,
    };
    const toHa = (value: number) => fromCentiCelsius(value, unit, step);
    const data = setTemperatureData({ ...write, hvacMode }, current, range, cooling, toHa);
    await ha.call("climate.set_temperature", data);
  }
}
