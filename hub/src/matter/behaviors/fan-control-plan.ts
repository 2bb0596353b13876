/**
 * What a FanControl attribute write means in HA (pure; fan-control-server.ts runs it). Fans map speeds to
 * `fan.set_percentage` snapped to `percentage_step` (complaint #20), Auto to the fan's auto preset, rocking to
 * `fan.oscillate`, wind to the sleep/natural presets and airflow to `fan.set_direction`. A humidifier is shown as a
 * fan whose percentage is its target humidity within `min_humidity..max_humidity` (HA has no Matter humidifier).
 */
import { FanControl } from "@matter/main/clusters/fan-control";
import type { HassEntity } from "../../home-assistant/types.ts";
import type { FanCapabilities } from "../model/capabilities.ts";
import { percentageForFanMode, snapPercentage, speedToPercentage } from "../model/convert/fan.ts";
import { numberAttr } from "../model/ha-state.ts";

/** One HA call. */
export interface HaCall {
  action: string;
  data?: Record<string, unknown>;
}

/** The FanControl fields a controller may write. */
export interface FanWrite {
  fanMode?: FanControl.FanMode;
  percentSetting?: number | null;
  speedSetting?: number | null;
  rockSetting?: { rockLeftRight?: boolean; rockUpDown?: boolean; rockRound?: boolean };
  windSetting?: { sleepWind?: boolean; naturalWind?: boolean };
  airflowDirection?: FanControl.AirflowDirection;
}

/** Thrown for a write the entity cannot carry out (becomes CONSTRAINT_ERROR). */
export class FanWriteError extends Error {}

/** The speed part of a write as a percentage (0 = off), or a preset/turn_on call; undefined when not written. */
function speedCall(domain: string, write: FanWrite, caps: FanCapabilities, entity: HassEntity | undefined): HaCall | undefined {
  const Mode = FanControl.FanMode;
  let percentage: number | undefined;
  if (write.percentSetting !== undefined && write.percentSetting !== null) percentage = write.percentSetting;
  else if (write.speedSetting !== undefined && write.speedSetting !== null)
    percentage = speedToPercentage(write.speedSetting, caps.speeds);
  else if (write.fanMode !== undefined) {
    if (write.fanMode === Mode.Auto || write.fanMode === Mode.Smart) {
      if (!caps.autoPreset) throw new FanWriteError("no automatic mode");
      return domain === "humidifier"
        ? { action: "humidifier.set_mode", data: { mode: caps.autoPreset } }
        : { action: "fan.set_preset_mode", data: { preset_mode: caps.autoPreset } };
    }
    if (write.fanMode === Mode.On) return { action: `${domain}.turn_on` };
    percentage = percentageForFanMode(write.fanMode, caps.speeds);
  }
  if (percentage === undefined) return undefined;
  if (percentage <= 0) return { action: `${domain}.turn_off` };
  if (domain === "humidifier") {
    const min = numberAttr(entity, "min_humidity") ?? 0;
    const max = numberAttr(entity, "max_humidity") ?? 100;
    return { action: "humidifier.set_humidity", data: { humidity: Math.round(min + ((max - min) * percentage) / 100) } };
  }
  if (caps.speeds === 0) return { action: "fan.turn_on" };
  return { action: "fan.set_percentage", data: { percentage: snapPercentage(percentage, caps.speeds) } };
}

/** The HA calls for a FanControl write, in order: speed/mode first, then oscillation, wind, direction. */
export function fanWritePlan(domain: string, write: FanWrite, caps: FanCapabilities, entity: HassEntity | undefined): HaCall[] {
  const calls: HaCall[] = [];
  const speed = speedCall(domain, write, caps, entity);
  if (speed) calls.push(speed);
  if (write.rockSetting !== undefined) {
    const oscillating = Object.values(write.rockSetting).some(Boolean);
    calls.push({ action: "fan.oscillate", data: { oscillating } });
  }
  if (write.windSetting !== undefined) {
    const preset = write.windSetting.sleepWind
      ? caps.sleepPreset
      : write.windSetting.naturalWind
        ? caps.naturalPreset
        : undefined;
    if (preset) calls.push({ action: "fan.set_preset_mode", data: { preset_mode: preset } });
    else if (!speed) {
      // Wind off: leave the preset by setting the current speed again (HA clears preset_mode on set_percentage).
      const percentage = numberAttr(entity, "percentage") ?? 100;
      calls.push({ action: "fan.set_percentage", data: { percentage: snapPercentage(percentage, caps.speeds) } });
    }
  }
  if (write.airflowDirection !== undefined) {
    const direction = write.airflowDirection === FanControl.AirflowDirection.Reverse ? "reverse" : "forward";
    calls.push({ action: "fan.set_direction", data: { direction } });
  }
  return calls;
}

/** The speed after a Step command (Matter 1.3 §4.4.7.1), 0 meaning off. */
export function stepSpeed(current: number, speeds: number, request: FanControl.StepRequest): number {
  const up = request.direction === FanControl.StepDirection.Increase;
  const lowest = request.lowestOff ? 0 : 1;
  let next = current + (up ? 1 : -1);
  if (next > speeds) next = request.wrap ? lowest : speeds;
  if (next < lowest) next = request.wrap ? speeds : lowest;
  return next;
}
