/**
 * Fan speed conversions (Application Cluster spec §4.4 Fan Control). HA fans expose a percentage whose valid
 * values are multiples of `percentage_step` (= 100 / speed count); Matter has PercentSetting plus, with MultiSpeed,
 * SpeedSetting 1..SpeedMax. The formulas follow HA's own `percentage_to_ranged_value` (ceil) and
 * `ranged_value_to_percentage` (floor), so a speed read back from HA lands on the same Matter speed (complaint #20:
 * speed loops between controller and device).
 */
import { FanControl } from "@matter/main/clusters/fan-control";

/** HA percentage → speed 0..speeds (0 only for 0 %). */
export function percentageToSpeed(percentage: number, speeds: number): number {
  if (speeds <= 0 || percentage <= 0) return 0;
  return Math.min(speeds, Math.max(1, Math.ceil((Math.min(100, percentage) * speeds) / 100 - 1e-9)));
}

/** Speed 0..speeds → HA percentage. */
export function speedToPercentage(speed: number, speeds: number): number {
  if (speeds <= 0 || speed <= 0) return 0;
  return Math.floor((Math.min(speed, speeds) * 100) / speeds);
}

/** A percentage snapped to one the fan accepts (what HA would report back after setting it). */
export function snapPercentage(percentage: number, speeds: number): number {
  if (speeds <= 0) return percentage > 0 ? 100 : 0;
  return speedToPercentage(percentageToSpeed(percentage, speeds), speeds);
}

/** The FanModeSequence for a fan with `speeds` speeds, with Auto when the fan has an automatic preset. */
export function fanModeSequenceFor(speeds: number, auto: boolean): FanControl.FanModeSequence {
  const Sequence = FanControl.FanModeSequence;
  if (speeds <= 1) return auto ? Sequence.OffHighAuto : Sequence.OffHigh;
  if (speeds === 2) return auto ? Sequence.OffLowHighAuto : Sequence.OffLowHigh;
  return auto ? Sequence.OffLowMedHighAuto : Sequence.OffLowMedHigh;
}

/** The FanMode reported for a running fan at `percentage` (thirds; two-speed fans split at 50 %). */
export function fanModeForPercentage(percentage: number, speeds: number): FanControl.FanMode {
  const Mode = FanControl.FanMode;
  if (percentage <= 0) return Mode.Off;
  if (speeds <= 1) return Mode.High;
  if (speeds === 2) return percentage <= 50 ? Mode.Low : Mode.High;
  if (percentage <= 34) return Mode.Low;
  if (percentage <= 67) return Mode.Medium;
  return Mode.High;
}

/** The HA percentage a written FanMode Low/Medium/High means, snapped to the fan's speeds. */
export function percentageForFanMode(mode: FanControl.FanMode, speeds: number): number | undefined {
  const Mode = FanControl.FanMode;
  if (mode === Mode.Low) return snapPercentage(speeds === 2 ? 50 : 33, speeds);
  if (mode === Mode.Medium) return snapPercentage(66, speeds);
  if (mode === Mode.High) return 100;
  if (mode === Mode.Off) return 0;
  return undefined;
}
