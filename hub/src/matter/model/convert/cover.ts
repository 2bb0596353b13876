/**
 * Cover position conversion. Matter WindowCovering (Application Cluster spec §5.3.5) counts *closure*:
 * CurrentPositionLiftPercent100ths 0 = fully open, 10000 = fully closed. Home Assistant counts *openness*:
 * `current_position` 100 = open, 0 = closed. Getting this backwards is research complaint #8 (covers moving the
 * wrong way, mostly with Alexa), so both directions live here and nowhere else.
 */

/** Matter value for a fully open covering. */
export const MATTER_OPEN = 0;
/** Matter value for a fully closed covering. */
export const MATTER_CLOSED = 10_000;

/** HA position (0 closed … 100 open) → Matter percent100ths (0 open … 10000 closed). */
export function haPositionToMatter(position: number): number {
  const open = Math.min(100, Math.max(0, position));
  return Math.round((100 - open) * 100);
}

/** Matter percent100ths (0 open … 10000 closed) → HA position (0 closed … 100 open), whole percent. */
export function matterToHaPosition(percent100ths: number): number {
  const closed = Math.min(MATTER_CLOSED, Math.max(MATTER_OPEN, percent100ths));
  return 100 - Math.round(closed / 100);
}

/**
 * Position of a cover that reports no `current_position` (open/closed only), from its state. `opening`/`closing`
 * and `unknown` give `undefined`: the caller keeps the last known position instead of guessing.
 */
export function positionFromCoverState(state: string): number | undefined {
  if (state === "open") return MATTER_OPEN;
  if (state === "closed") return MATTER_CLOSED;
  return undefined;
}
