/**
 * WaterHeaterManagement: Boost → HA's `high_demand` (else `performance`) operation mode, CancelBoost → back to the
 * mode the heater had before. matter.js leaves the whole cluster to us (its server is empty). BoostState follows HA:
 * Active while HA is in that mode, whoever chose it (the kind projects it; HA's own Matter integration shows
 * `high_demand` from BoostState). Limits, in docs/decisions.md "Water heater": HA has no timed mode, so Duration is
 * not enforced (the boost lasts until CancelBoost or a mode change); OneShot and EmergencyBoost are not
 * distinguished; TemporarySetpoint becomes the target temperature until CancelBoost.
 */
import { WaterHeaterManagementServer } from "@matter/main/behaviors/water-heater-management";
import { WaterHeaterManagement } from "@matter/main/clusters/water-heater-management";
import { fromCentiCelsius } from "../model/convert/temperature.ts";
import { boostOperation, currentHeaterMode, type HeaterMode, heaterModes, isOffMode } from "../model/convert/water-heater.ts";
import { WaterHeaterFeature } from "../model/ha-features.ts";
import { numberAttr, supports } from "../model/ha-state.ts";
import { constraintError, entityOf, unsupportedCommand } from "./ha-entity-behavior.ts";
import { type HeaterCall, planForMode, sendCalls } from "./water-heater-calls.ts";
import { HaWaterHeaterThermostatServer, heatLimits } from "./water-heater-thermostat-server.ts";

const Boost = WaterHeaterManagement.BoostState;

/** WaterHeaterManagement whose Boost and CancelBoost are HA operation mode changes. */
export class HaWaterHeaterManagementServer extends WaterHeaterManagementServer {
  declare internal: HaWaterHeaterManagementServer.Internal;

  override async boost({ boostInfo }: WaterHeaterManagement.BoostRequest) {
    const ha = entityOf(this);
    const operation = boostOperation(ha.entity);
    if (operation === undefined) {
      return unsupportedCommand(`${ha.entityId} has no high_demand or performance mode to boost with`);
    }
    const modes = heaterModes(ha.entity);
    const current = currentHeaterMode(ha.entity, modes);
    const target = modes.find((mode) => mode.operation === operation) as HeaterMode;
    const calls: HeaterCall[] = [];
    if (current?.operation !== operation) {
      const plan = planForMode(ha.entity, target, ha.entityId);
      if ("refused" in plan) return unsupportedCommand(plan.refused);
      calls.push(...plan.calls);
    }
    const setpoint = boostInfo.temporarySetpoint;
    if (setpoint !== undefined) calls.push(this.#temperatureCall(setpoint));
    // A second Boost during a boost keeps what the first one interrupted.
    const starts = current?.operation !== operation;
    const before = starts ? current : this.internal.before;
    const previous = starts ? undefined : this.internal.setpointBefore;
    const setpointBefore = setpoint === undefined ? previous : (previous ?? numberAttr(ha.entity, "temperature"));
    await sendCalls(ha, this, calls, () => {
      this.state.boostState = Boost.Active;
    });
    this.internal.before = before;
    this.internal.setpointBefore = setpointBefore;
    this.events.boostStarted.emit({ boostInfo }, this.context);
  }

  /** Back to the mode before the boost (else the first HA mode that is neither the boost nor off); no-op without one. */
  override async cancelBoost() {
    const ha = entityOf(this);
    const operation = boostOperation(ha.entity);
    const modes = heaterModes(ha.entity);
    // Active: HA is in the boost mode, or a Boost was just accepted and HA's new state has not arrived yet.
    const active = this.state.boostState === Boost.Active || currentHeaterMode(ha.entity, modes)?.operation === operation;
    if (operation === undefined || !active) return;
    const before = this.internal.before;
    const back =
      modes.find((mode) => before !== undefined && mode.operation === before.operation && mode.power === before.power) ??
      modes.find((mode) => mode.operation !== undefined && mode.operation !== operation && !isOffMode(mode));
    const calls: HeaterCall[] = [];
    if (back) {
      const plan = planForMode(ha.entity, back, ha.entityId);
      if ("calls" in plan) calls.push(...plan.calls);
    }
    const setpoint = this.internal.setpointBefore;
    if (setpoint !== undefined) calls.push({ action: "water_heater.set_temperature", data: { temperature: setpoint } });
    this.internal.before = undefined;
    this.internal.setpointBefore = undefined;
    await sendCalls(ha, this, calls, () => {
      this.state.boostState = Boost.Inactive;
    });
  }

  /** BoostEnded, when HA has left the boost mode (after CancelBoost, or changed in HA). */
  emitBoostEnded() {
    this.events.boostEnded.emit(undefined, this.context);
  }

  #temperatureCall(setpoint: number): HeaterCall {
    const ha = entityOf(this);
    if (!supports(ha.entity, WaterHeaterFeature.TARGET_TEMPERATURE)) {
      return constraintError(`${ha.entityId} has no target temperature for TemporarySetpoint`);
    }
    const { min, max } = heatLimits(this.endpoint.stateOf(HaWaterHeaterThermostatServer));
    if (setpoint < min || setpoint > max) return constraintError(`TemporarySetpoint ${setpoint} is outside ${min}..${max}`);
    const step = numberAttr(ha.entity, "target_temp_step");
    return {
      action: "water_heater.set_temperature",
      data: { temperature: fromCentiCelsius(setpoint, ha.binding.unitSystem.temperature, step) },
    };
  }
}

export namespace HaWaterHeaterManagementServer {
  export class Internal {
    /** The mode a Boost interrupted, for CancelBoost. */
    before: HeaterMode | undefined;
    /** HA's target temperature before a Boost's TemporarySetpoint, in HA's unit. */
    setpointBefore: number | undefined;
  }
}
