/**
 * Temperatures. Matter carries every temperature as int16 hundredths of a degree Celsius (Core spec §7.18.2.11
 * "temperature", e.g. 2150 = 21.50 °C). HA reports climate temperatures in the instance's unit system and sensor
 * temperatures in the sensor's `unit_of_measurement` (°C, °F or K).
 */

/** Smallest and largest Matter temperature (int16; -27315 is absolute zero). */
export const MIN_CENTI_CELSIUS = -27315;
export const MAX_CENTI_CELSIUS = 32767;

/** True for HA's Fahrenheit unit strings. */
export function isFahrenheit(unit: string | undefined): boolean {
  return unit === "°F" || unit === "F" || unit === "℉";
}

/** True for a unit this module can convert (°C, °F, K and their plain spellings). */
export function isTemperatureUnit(unit: string | undefined): boolean {
  return unit === undefined || isFahrenheit(unit) || unit === "°C" || unit === "C" || unit === "℃" || unit === "K";
}

/** A temperature in `unit` (°C when absent) → Matter hundredths of °C, clamped to int16. */
export function toCentiCelsius(value: number, unit: string | undefined): number {
  let celsius = value;
  if (isFahrenheit(unit)) celsius = ((value - 32) * 5) / 9;
  else if (unit === "K") celsius = value - 273.15;
  return Math.min(MAX_CENTI_CELSIUS, Math.max(MIN_CENTI_CELSIUS, Math.round(celsius * 100)));
}

/**
 * Matter hundredths of °C → a temperature in `unit`, rounded to `step` (HA's `target_temp_step`; 0.1 when absent)
 * so that e.g. 2111 (a controller's 70 °F) becomes 70.0 °F again instead of 69.998.
 */
export function fromCentiCelsius(centiCelsius: number, unit: string | undefined, step = 0.1): number {
  const celsius = centiCelsius / 100;
  let value = celsius;
  if (isFahrenheit(unit)) value = (celsius * 9) / 5 + 32;
  else if (unit === "K") value = celsius + 273.15;
  const grid = step > 0 ? step : 0.1;
  const snapped = Math.round(value / grid) * grid;
  // Remove binary noise (0.1 steps) without changing the value beyond the grid.
  return Math.round(snapped * 1000) / 1000;
}
