/**
 * WaterHeaterMode → `water_heater.set_operation_mode`, or `turn_off` / `turn_on` for the modes the hub adds
 * (model/convert/water-heater.ts). matter.js's server checks SupportedModes at initialize (an Off and a Manual mode,
 * each carrying only that tag); the kind seeds them in the endpoint options.
 */
import { WaterHeaterModeServer } from "@matter/main/behaviors/water-heater-mode";
import { ModeBase } from "@matter/main/clusters/mode-base";
import { heaterModes } from "../model/convert/water-heater.ts";
import { entityOf } from "./ha-entity-behavior.ts";
import { planForMode, sendCalls } from "./water-heater-calls.ts";

const Status = ModeBase.ModeChangeStatus;

/** WaterHeaterMode whose mode changes are HA water_heater calls. */
export class HaWaterHeaterModeServer extends WaterHeaterModeServer {
  override async changeToMode({ newMode }: ModeBase.ChangeToModeRequest): Promise<ModeBase.ChangeToModeResponse> {
    const ha = entityOf(this);
    const target = heaterModes(ha.entity).find((mode) => mode.mode === newMode);
    if (!target) return { status: Status.UnsupportedMode, statusText: `no mode ${newMode}` };
    const plan = planForMode(ha.entity, target, ha.entityId);
    if ("refused" in plan) return { status: Status.GenericFailure, statusText: plan.refused.slice(0, 64) };
    await sendCalls(ha, this, plan.calls, () => {
      this.state.currentMode = newMode;
    });
    return { status: Status.Success, statusText: "" };
  }
}
