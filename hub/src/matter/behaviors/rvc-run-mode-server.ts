/**
 * RvcRunMode → `vacuum.start` / `vacuum.stop`. Two modes (Matter 1.3 §7.2: at least one Idle and one Cleaning
 * mode): Cleaning starts the robot, Idle stops it where it is (HA `vacuum.stop`), or sends it home when the robot
 * cannot stop (Apple Home's "off" for a vacuum is a change to Idle). Rooms, mop and suction modes are out of scope
 * (research complaint #10; they need per-integration mapping).
 */
import { RvcRunModeServer } from "@matter/main/behaviors/rvc-run-mode";
import { ModeBase } from "@matter/main/clusters/mode-base";
import { RvcRunMode } from "@matter/main/clusters/rvc-run-mode";
import { VacuumFeature } from "../model/ha-features.ts";
import { supports } from "../model/ha-state.ts";
import { entityOf, lockForWrite } from "./ha-entity-behavior.ts";

/** Mode numbers of the two run modes. */
export const RUN_MODE_IDLE = 0;
export const RUN_MODE_CLEANING = 1;

/** The fixed SupportedModes list. */
export const RUN_MODES: RvcRunMode.ModeOption[] = [
  { label: "Idle", mode: RUN_MODE_IDLE, modeTags: [{ value: RvcRunMode.ModeTag.Idle }] },
  { label: "Cleaning", mode: RUN_MODE_CLEANING, modeTags: [{ value: RvcRunMode.ModeTag.Cleaning }] },
];

/** RvcRunMode whose mode changes are HA vacuum calls. */
export class HaRvcRunModeServer extends RvcRunModeServer {
  override async changeToMode({ newMode }: ModeBase.ChangeToModeRequest): Promise<ModeBase.ChangeToModeResponse> {
    if (newMode !== RUN_MODE_IDLE && newMode !== RUN_MODE_CLEANING) {
      return { status: ModeBase.ModeChangeStatus.UnsupportedMode, statusText: `no mode ${newMode}` };
    }
    const ha = entityOf(this);
    await lockForWrite(this);
    this.state.currentMode = newMode;
    if (newMode === RUN_MODE_CLEANING) {
      await ha.call("vacuum.start");
    } else {
      await ha.call(supports(ha.entity, VacuumFeature.STOP) ? "vacuum.stop" : "vacuum.return_to_base");
    }
    return { status: ModeBase.ModeChangeStatus.Success, statusText: "" };
  }
}
