/**
 * Battery and electrical readings of HA sensors in the units of Matter's Power Source (half-percent) and Electrical
 * Power/Energy Measurement clusters (mW, mV, mA, mWh). Every function returns `undefined` for a value Matter must not
 * show: no number (`unknown`, text), a unit it does not know, or a reading outside what the attribute means (a
 * negative power or energy, a battery above 100 %). The caller reports that as null ("no valid measurement") or
 * leaves the attribute as it is; docs/decisions.md "Composed devices" says which.
 */

/** Multipliers from HA's units (UnitOfPower, UnitOfEnergy, UnitOfElectricPotential, UnitOfElectricCurrent). */
const MILLI_PER_UNIT: Record<"power" | "energy" | "voltage" | "current", Record<string, number>> = {
  power: { mW: 1, W: 1_000, kW: 1_000_000, MW: 1_000_000_000 },
  energy: { Wh: 1_000, kWh: 1_000_000, MWh: 1_000_000_000 },
  voltage: { mV: 1, V: 1_000, kV: 1_000_000 },
  current: { mA: 1, A: 1_000 },
};

export type ElectricalQuantity = keyof typeof MILLI_PER_UNIT;

/** True when {@link toMilli} understands `unit` for this quantity. */
export function isElectricalUnit(quantity: ElectricalQuantity, unit: string | undefined): boolean {
  return unit !== undefined && unit in MILLI_PER_UNIT[quantity];
}

/**
 * A reading in Matter's milli-units (mW, mWh, mV, mA), rounded to an integer; undefined for an unknown unit, a
 * non-finite value, or a negative one. Matter's ActivePower is signed (negative = power delivered), but an HA power
 * sensor's sign has no agreed meaning across integrations (a solar inverter reports production as positive, a grid
 * meter as negative), so a negative reading is "no valid measurement" rather than a guess.
 */
export function toMilli(quantity: ElectricalQuantity, value: number | undefined, unit: string | undefined): number | undefined {
  if (value === undefined || !Number.isFinite(value) || value < 0) return undefined;
  const factor = unit === undefined ? undefined : MILLI_PER_UNIT[quantity][unit];
  if (factor === undefined) return undefined;
  const milli = Math.round(value * factor);
  return Number.isSafeInteger(milli) ? milli : undefined;
}

/** Power Source BatPercentRemaining: half-percent units 0..200; undefined outside 0..100 % or without a number. */
export function batteryToMatter(percent: number | undefined): number | undefined {
  if (percent === undefined || !Number.isFinite(percent) || percent < 0 || percent > 100) return undefined;
  return Math.round(percent * 2);
}

/** Charge levels as HAMH and the Apple/Google apps read them: ≤ 10 % critical, ≤ 20 % warning. */
export function chargeLevelOf(percent: number | undefined, low: boolean | undefined): "ok" | "warning" | "critical" {
  if (percent !== undefined && percent <= 10) return "critical";
  if ((percent !== undefined && percent <= 20) || low === true) return "warning";
  return "ok";
}
