/**
 * Which `water_heater.*` calls a Matter mode change becomes (docs/decisions.md "Water heater"), shared by the
 * Water Heater's Thermostat (SystemMode), WaterHeaterMode (ChangeToMode) and WaterHeaterManagement (Boost).
 * A change HA cannot make is refused before anything is sent.
 */
import type { Behavior } from "@matter/main";
import type { HassEntity } from "../../home-assistant/types.ts";
import { type HeaterMode, heaterModes, isManualMode, isOffMode } from "../model/convert/water-heater.ts";
import { WaterHeaterFeature } from "../model/ha-features.ts";
import { supports } from "../model/ha-state.ts";
import { sendThenCommit } from "./command-merge.ts";
import type { HaEntityBehavior } from "./ha-entity-behavior.ts";

/** One HA action on the entity. */
export interface HeaterCall {
  action: "water_heater.set_operation_mode" | "water_heater.turn_on" | "water_heater.turn_off" | "water_heater.set_temperature";
  data?: Record<string, unknown>;
}

/** The calls, or why HA cannot make the change. */
export type HeaterPlan = { calls: HeaterCall[] } | { refused: string };

const canSwitch = (state: HassEntity | undefined) => supports(state, WaterHeaterFeature.ON_OFF);

/** Whether the heater is off by power (`turn_off`) rather than by an HA `off` operation mode. */
function poweredOff(state: HassEntity | undefined, modes: readonly HeaterMode[]): boolean {
  return state?.state === "off" && !modes.some((mode) => mode.operation !== undefined && isOffMode(mode));
}

/** The calls that put the heater into `target`. */
export function planForMode(state: HassEntity | undefined, target: HeaterMode, entityId: string): HeaterPlan {
  if (target.power !== undefined) {
    if (!canSwitch(state)) return { refused: `${entityId} cannot be switched ${target.power} (no ON_OFF feature in HA)` };
    return { calls: [{ action: target.power === "off" ? "water_heater.turn_off" : "water_heater.turn_on" }] };
  }
  const calls: HeaterCall[] = [];
  // Switched off by power, an HA mode alone may not switch it back on.
  if (!isOffMode(target) && poweredOff(state, heaterModes(state)) && canSwitch(state)) {
    calls.push({ action: "water_heater.turn_on" });
  }
  calls.push({ action: "water_heater.set_operation_mode", data: { operation_mode: target.operation } });
  return { calls };
}

/**
 * SystemMode Off / Heat: `turn_off` / `turn_on` when HA offers them (ON_OFF), else the HA `off` mode, and back
 * from it the first Manual mode; refused when the entity has neither.
 */
export function planForSystemMode(state: HassEntity | undefined, on: boolean, entityId: string): HeaterPlan {
  if (canSwitch(state)) return { calls: [{ action: on ? "water_heater.turn_on" : "water_heater.turn_off" }] };
  const fromHa = heaterModes(state).filter((mode) => mode.operation !== undefined);
  const target = on ? fromHa.find(isManualMode) : fromHa.find(isOffMode);
  if (target) return planForMode(state, target, entityId);
  return {
    refused: `${entityId} cannot be switched ${on ? "on" : "off"}: no ON_OFF feature and no ${on ? "heating" : "off"} mode`,
  };
}

/** Sends the calls one after the other; the first is registered at once, as HaEntityBehavior.call asks. */
export async function callAll(ha: HaEntityBehavior, calls: readonly HeaterCall[]): Promise<void> {
  for (const call of calls) await ha.call(call.action, call.data);
}

/**
 * Sends the calls, then commits `write` under the lock of `behavior` (command-merge.ts `sendThenCommit`); HA
 * refusing any of them fails the command and rolls `write` back.
 */
export async function sendCalls(
  ha: HaEntityBehavior,
  behavior: Behavior,
  calls: readonly HeaterCall[],
  write: () => unknown,
): Promise<void> {
  await sendThenCommit(calls.length > 0 ? callAll(ha, calls) : undefined, [behavior], write);
}
