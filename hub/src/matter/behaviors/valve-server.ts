/**
 * ValveConfigurationAndControl → `valve.open_valve` / `valve.close_valve` / `valve.set_valve_position`. With the
 * Level feature (HA valves that report a position) Open may carry TargetLevel (0..100 %, same direction as HA's
 * position: 100 = fully open, Matter 1.3 §4.6.7.1); Open without a level opens fully. OpenDuration (auto-close) is
 * not offered: HA has no timed open, and faking it with a timer here would close the valve after a hub restart
 * too late or never.
 */
import { ValveConfigurationAndControlServer } from "@matter/main/behaviors/valve-configuration-and-control";
import { ValveConfigurationAndControl } from "@matter/main/clusters/valve-configuration-and-control";
import { numberAttr } from "../model/ha-state.ts";
import { constraintError, entityOf, lockForWrite } from "./ha-entity-behavior.ts";

const Base = ValveConfigurationAndControlServer.with(ValveConfigurationAndControl.Feature.Level);

/** Valve whose open/close commands are HA valve calls. */
export class HaValveServer extends Base {
  override async open({ openDuration, targetLevel }: ValveConfigurationAndControl.OpenRequest) {
    const ha = entityOf(this);
    if (openDuration !== undefined && openDuration !== null) {
      return constraintError(`${ha.entityId} cannot close itself after a duration`);
    }
    await lockForWrite(this);
    const Valve = ValveConfigurationAndControl.ValveState;
    if (this.features.level && targetLevel !== undefined && targetLevel < 100) {
      if (targetLevel === 0) return this.#close();
      this.state.targetState = Valve.Open;
      this.state.targetLevel = targetLevel;
      this.#moving(numberAttr(ha.entity, "current_position") !== targetLevel);
      return ha.call("valve.set_valve_position", { position: targetLevel });
    }
    this.state.targetState = Valve.Open;
    if (this.features.level) this.state.targetLevel = 100;
    this.#moving(ha.entity?.state !== "open");
    await ha.call("valve.open_valve");
  }

  override async close() {
    await lockForWrite(this);
    await this.#close();
  }

  async #close() {
    const ha = entityOf(this);
    this.state.targetState = ValveConfigurationAndControl.ValveState.Closed;
    if (this.features.level) this.state.targetLevel = 0;
    this.#moving(ha.entity?.state !== "closed");
    await ha.call("valve.close_valve");
  }

  /**
   * Shows the valve travelling while HA moves it. Not when HA already reports the target: HA then changes no state,
   * so no update would ever end "Transitioning".
   */
  #moving(moves: boolean) {
    if (moves) this.state.currentState = ValveConfigurationAndControl.ValveState.Transitioning;
  }
}
