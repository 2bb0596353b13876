/**
 * Continuous Matter moves (LevelControl Move, ColorControl MoveColorTemperature) become one HA call to the end
 * value with a `transition`; HA has no "move until stop". A Stop then sends the value the move has reached, which
 * ends the HA transition there. This module holds that estimate.
 */

/** A move in progress. */
export interface Motion {
  from: number;
  to: number;
  /** Matter units per second (the command's Rate). */
  ratePerSecond: number;
  /** `Date.now()` when the move was sent. */
  startedAt: number;
}

/** Where a motion is after `elapsedMs`, never past its end. */
export function valueAfter(motion: Motion, elapsedMs: number): number {
  const travelled = (motion.ratePerSecond * Math.max(0, elapsedMs)) / 1000;
  const direction = Math.sign(motion.to - motion.from);
  const value = motion.from + direction * travelled;
  return Math.round(direction > 0 ? Math.min(value, motion.to) : Math.max(value, motion.to));
}

/** HA `transition` (seconds, one decimal) for a Matter TransitionTime in tenths of a second; none for 0/null. */
export function transitionData(tenths: number | null | undefined): { transition?: number } {
  return tenths ? { transition: Math.round(tenths) / 10 } : {};
}
