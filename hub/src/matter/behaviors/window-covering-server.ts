/**
 * WindowCovering → `cover.*`. Every command is one HA call awaited in the command (matter.js's default runs the
 * movement as a detached worker, so a refusal could not fail the command). Positions go through
 * convert/cover.ts, the only place that inverts Matter's closure percentage into HA's openness (complaint #8).
 * Operational status and positions come from HA (`disableOperationalModeHandling`); commands only set the target
 * and the moving direction optimistically.
 */
import { WindowCoveringBaseServer } from "@matter/main/behaviors/window-covering";
import { WindowCovering } from "@matter/main/clusters/window-covering";
import { type CoverCapabilities, coverCapabilities } from "../model/capabilities.ts";
import { MATTER_CLOSED, MATTER_OPEN, matterToHaPosition } from "../model/convert/cover.ts";
import { entityOf, lockForWrite, unsupportedCommand } from "./ha-entity-behavior.ts";

type Axis = "lift" | "tilt";

/** Position attributes present depending on the PositionAware features. */
interface PositionState {
  targetPositionLiftPercent100ths: number | null;
  currentPositionLiftPercent100ths: number | null;
  targetPositionTiltPercent100ths: number | null;
  currentPositionTiltPercent100ths: number | null;
}

/** The HA call that moves `axis` towards `target` (Matter percent100ths); pure, exported for tests. */
export function coverMovePlan(
  axis: Axis,
  target: number,
  caps: CoverCapabilities,
): { action: string; data?: Record<string, unknown> } {
  if (axis === "lift") {
    if (caps.liftPosition && target !== MATTER_OPEN && target !== MATTER_CLOSED) {
      return { action: "cover.set_cover_position", data: { position: matterToHaPosition(target) } };
    }
    // Open/close-only covers (and the ends of the range) use the dedicated services; nearest end otherwise.
    return { action: target <= MATTER_CLOSED / 2 ? "cover.open_cover" : "cover.close_cover" };
  }
  if (caps.tiltPosition && target !== MATTER_OPEN && target !== MATTER_CLOSED) {
    return { action: "cover.set_cover_tilt_position", data: { tilt_position: matterToHaPosition(target) } };
  }
  return { action: target <= MATTER_CLOSED / 2 ? "cover.open_cover_tilt" : "cover.close_cover_tilt" };
}

/** WindowCovering whose commands are HA cover calls. */
export class HaWindowCoveringServer extends WindowCoveringBaseServer {
  override initialize() {
    this.internal.disableOperationalModeHandling = true;
    return super.initialize();
  }

  override async upOrOpen() {
    await this.#move(this.#primaryAxis(), MATTER_OPEN);
  }

  override async downOrClose() {
    await this.#move(this.#primaryAxis(), MATTER_CLOSED);
  }

  override async goToLiftPercentage({ liftPercent100thsValue }: WindowCovering.GoToLiftPercentageRequest) {
    await this.#move("lift", liftPercent100thsValue);
  }

  override async goToTiltPercentage({ tiltPercent100thsValue }: WindowCovering.GoToTiltPercentageRequest) {
    await this.#move("tilt", tiltPercent100thsValue);
  }

  override async stopMotion() {
    const ha = entityOf(this);
    const caps = coverCapabilities(ha.entity);
    const action = this.features.lift && caps.stop ? "cover.stop_cover" : caps.stopTilt ? "cover.stop_cover_tilt" : undefined;
    if (action === undefined) return unsupportedCommand(`${ha.entityId} cannot stop`);
    await lockForWrite(this);
    const state = this.#positions;
    if (this.features.positionAwareLift) state.targetPositionLiftPercent100ths = state.currentPositionLiftPercent100ths;
    if (this.features.positionAwareTilt) state.targetPositionTiltPercent100ths = state.currentPositionTiltPercent100ths;
    const stopped = WindowCovering.MovementStatus.Stopped;
    this.state.operationalStatus = { global: stopped, lift: stopped, tilt: stopped };
    await ha.call(action);
  }

  /** Up/Down move the lift; only a tilt-only covering tilts (one motor command, not two). */
  #primaryAxis(): Axis {
    return this.features.lift ? "lift" : "tilt";
  }

  get #positions(): PositionState {
    return this.state as unknown as PositionState;
  }

  async #move(axis: Axis, target: number) {
    const ha = entityOf(this);
    if (axis === "tilt" && !this.features.tilt) return unsupportedCommand(`${ha.entityId} has no tilt`);
    if (axis === "lift" && !this.features.lift) return unsupportedCommand(`${ha.entityId} has no lift`);
    const plan = coverMovePlan(axis, target, coverCapabilities(ha.entity));
    await lockForWrite(this);
    const state = this.#positions;
    const current = axis === "lift" ? state.currentPositionLiftPercent100ths : state.currentPositionTiltPercent100ths;
    const aware = axis === "lift" ? this.features.positionAwareLift : this.features.positionAwareTilt;
    if (aware) {
      if (axis === "lift") state.targetPositionLiftPercent100ths = target;
      else state.targetPositionTiltPercent100ths = target;
    }
    if (current !== target) {
      const closing = current === null ? target > MATTER_CLOSED / 2 : target > current;
      const moving = closing ? WindowCovering.MovementStatus.Closing : WindowCovering.MovementStatus.Opening;
      this.state.operationalStatus = { ...this.state.operationalStatus, global: moving, [axis]: moving };
    }
    await ha.call(plan.action, plan.data);
  }
}
