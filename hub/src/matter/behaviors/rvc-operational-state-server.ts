/**
 * RvcOperationalState → `vacuum.pause` / `vacuum.start` / `vacuum.return_to_base`. Pause, Resume and GoHome are
 * implemented, so matter.js advertises them; starting and stopping go through RvcRunMode (the RVC cluster forbids
 * Start/Stop here, Matter 1.3 §7.4). A robot without PAUSE is stopped instead, as RX does.
 */
import { RvcOperationalStateServer } from "@matter/main/behaviors/rvc-operational-state";
import { RvcOperationalState } from "@matter/main/clusters/rvc-operational-state";
import { VacuumFeature } from "../model/ha-features.ts";
import { supports } from "../model/ha-state.ts";
import { entityOf, lockForWrite } from "./ha-entity-behavior.ts";

const OK: RvcOperationalState.OperationalCommandResponse = {
  commandResponseState: { errorStateId: RvcOperationalState.ErrorState.NoError },
};

/** RvcOperationalState whose commands are HA vacuum calls. */
export class HaRvcOperationalStateServer extends RvcOperationalStateServer {
  override async pause() {
    const ha = entityOf(this);
    const action = supports(ha.entity, VacuumFeature.PAUSE) ? "vacuum.pause" : "vacuum.stop";
    return this.#run(action, RvcOperationalState.OperationalState.Paused);
  }

  override async resume() {
    return this.#run("vacuum.start", RvcOperationalState.OperationalState.Running);
  }

  override async goHome() {
    return this.#run("vacuum.return_to_base", RvcOperationalState.OperationalState.SeekingCharger);
  }

  async #run(action: string, next: RvcOperationalState.OperationalState) {
    const ha = entityOf(this);
    await lockForWrite(this);
    this.state.operationalState = next;
    await ha.call(action);
    return OK;
  }
}
