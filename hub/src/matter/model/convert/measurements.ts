/**
 * Sensor measurement conversions into the units of the Matter measurement clusters (Application Cluster spec
 * §2.1-2.6). Each returns `undefined` for a unit it does not know, so a sensor in an unexpected unit is reported as
 * unsupported (domain table) instead of showing a wrong number.
 */

/** Matter RelativeHumidityMeasurement: hundredths of a percent, 0..10000. */
export function humidityToMatter(percent: number): number {
  return Math.min(10_000, Math.max(0, Math.round(percent * 100)));
}

/** Pressure units HA uses (UnitOfPressure) → kPa. */
const KPA_PER_UNIT: Record<string, number> = {
  Pa: 0.001,
  hPa: 0.1,
  mbar: 0.1,
  kPa: 1,
  cbar: 1,
  bar: 100,
  mmHg: 0.133322387415,
  inHg: 3.386389,
  psi: 6.894757,
  "inH₂O": 0.249089,
};

/** True when {@link pressureToMatter} understands `unit`. */
export function isPressureUnit(unit: string | undefined): boolean {
  return unit !== undefined && unit in KPA_PER_UNIT;
}

/** Matter PressureMeasurement MeasuredValue: int16 in 0.1 kPa (1013.25 hPa → 1013). */
export function pressureToMatter(value: number, unit: string | undefined): number | undefined {
  const factor = unit === undefined ? undefined : KPA_PER_UNIT[unit];
  if (factor === undefined) return undefined;
  return Math.min(32767, Math.max(-32767, Math.round(value * factor * 10)));
}

/** Volume flow units HA uses (UnitOfVolumeFlowRate) → m³/h. */
const M3H_PER_UNIT: Record<string, number> = {
  "m³/h": 1,
  "m³/min": 60,
  "m³/s": 3600,
  "ft³/min": 1.69901082,
  "L/h": 0.001,
  "L/min": 0.06,
  "L/s": 3.6,
  "gal/h": 0.003785411784,
  "gal/min": 0.22712470704,
  "gal/d": 0.000157725491,
  "mL/s": 0.0036,
};

/** True when {@link flowToMatter} understands `unit`. */
export function isFlowUnit(unit: string | undefined): boolean {
  return unit !== undefined && unit in M3H_PER_UNIT;
}

/** Matter FlowMeasurement MeasuredValue: uint16 in 0.1 m³/h. */
export function flowToMatter(value: number, unit: string | undefined): number | undefined {
  const factor = unit === undefined ? undefined : M3H_PER_UNIT[unit];
  if (factor === undefined) return undefined;
  return Math.min(65_534, Math.max(0, Math.round(value * factor * 10)));
}

/**
 * Matter IlluminanceMeasurement MeasuredValue = 10000 × log10(lux) + 1 (§2.2.5.1), 1..65534; 0 means "too dark to
 * measure", which is what 0 lux (or a negative glitch) becomes.
 */
export function luxToMatter(lux: number): number {
  if (!(lux > 0)) return 0;
  return Math.min(0xfffe, Math.max(1, Math.round(10_000 * Math.log10(lux) + 1)));
}

/** Inverse of {@link luxToMatter}, for tests and diagnostics. */
export function matterToLux(value: number): number {
  return value <= 0 ? 0 : 10 ** ((value - 1) / 10_000);
}
