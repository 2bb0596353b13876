/**
 * Light value conversions between Home Assistant and Matter (Matter 1.3 Application Cluster spec §1.6 Level
 * Control, §3.2 Color Control). Pure functions; every result is clamped into the range the Matter attribute allows
 * so a state update can never fail a constraint check.
 */

/** Matter lighting levels: 1..254 (0 and 255 are reserved for lights, §1.6.6.2). */
export const MIN_LIGHT_LEVEL = 1;
export const MAX_LEVEL = 254;
/** Matter hue and saturation run 0..254. */
export const MAX_HUE_SATURATION = 254;
/** Matter xy coordinates are value * 65536, at most 65279 (0xFEFF). */
export const MAX_XY = 65279;
/** HA's fallbacks when a light reports no colour temperature range (HA light DEFAULT_MIN/MAX_KELVIN). */
export const DEFAULT_MIN_KELVIN = 2000;
export const DEFAULT_MAX_KELVIN = 6535;

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/**
 * HA brightness 0..255 → Matter level 1..254. Scaled, not offset, so that 255 reads as 254 (full) and 1 as 1;
 * levelToBrightness is its exact inverse on every Matter level, so a level a controller set reads back unchanged.
 */
export function brightnessToLevel(brightness: number, minLevel = MIN_LIGHT_LEVEL): number {
  return clamp(Math.round((brightness * MAX_LEVEL) / 255), minLevel, MAX_LEVEL);
}

/** Matter level → HA brightness 1..255 (a light that is on never gets brightness 0, which HA treats as off). */
export function levelToBrightness(level: number): number {
  return clamp(Math.round((level * 255) / MAX_LEVEL), 1, 255);
}

/** Speaker volume 0..1 (HA `volume_level`) → Matter level 0..254. */
export function volumeToLevel(volume: number): number {
  return clamp(Math.round(volume * MAX_LEVEL), 0, MAX_LEVEL);
}

/** Matter level → HA `volume_level` 0..1, rounded to 2 decimals (what HA UIs show). */
export function levelToVolume(level: number): number {
  return Math.round((clamp(level, 0, MAX_LEVEL) / MAX_LEVEL) * 100) / 100;
}

/** The colour temperature range of a light in both units; mireds are 1e6 / kelvin, so min mireds = max kelvin. */
export interface ColorTempRange {
  minKelvin: number;
  maxKelvin: number;
  minMireds: number;
  maxMireds: number;
}

/** Range from HA's `min/max_color_temp_kelvin`, defaulted and put in order (some integrations swap them). */
export function colorTempRange(minKelvin: number | undefined, maxKelvin: number | undefined): ColorTempRange {
  let low = minKelvin !== undefined && minKelvin > 0 ? minKelvin : DEFAULT_MIN_KELVIN;
  let high = maxKelvin !== undefined && maxKelvin > 0 ? maxKelvin : DEFAULT_MAX_KELVIN;
  if (low > high) [low, high] = [high, low];
  return {
    minKelvin: low,
    maxKelvin: high,
    minMireds: clamp(Math.floor(1_000_000 / high), 1, 65279),
    maxMireds: clamp(Math.ceil(1_000_000 / low), 1, 65279),
  };
}

/** HA kelvin → Matter mireds, clamped to the light's physical range. */
export function kelvinToMireds(kelvin: number, range: ColorTempRange): number {
  return clamp(Math.round(1_000_000 / kelvin), range.minMireds, range.maxMireds);
}

/** Matter mireds → HA kelvin, clamped to what the light accepts (HA rejects out-of-range values). */
export function miredsToKelvin(mireds: number, range: ColorTempRange): number {
  return clamp(Math.round(1_000_000 / Math.max(1, mireds)), range.minKelvin, range.maxKelvin);
}

/** HA hue 0..360° → Matter hue 0..254. */
export function hueToMatter(hue: number): number {
  const wrapped = ((hue % 360) + 360) % 360;
  return clamp(Math.round((wrapped * MAX_HUE_SATURATION) / 360), 0, MAX_HUE_SATURATION);
}

/** Matter hue 0..254 → HA hue in degrees, one decimal. */
export function hueFromMatter(hue: number): number {
  return Math.round(((clamp(hue, 0, MAX_HUE_SATURATION) * 360) / MAX_HUE_SATURATION) * 10) / 10;
}

/** HA saturation 0..100 % → Matter saturation 0..254. */
export function saturationToMatter(saturation: number): number {
  return clamp(Math.round((saturation * MAX_HUE_SATURATION) / 100), 0, MAX_HUE_SATURATION);
}

/** Matter saturation 0..254 → HA saturation in %, one decimal. */
export function saturationFromMatter(saturation: number): number {
  return Math.round(((clamp(saturation, 0, MAX_HUE_SATURATION) * 100) / MAX_HUE_SATURATION) * 10) / 10;
}

/** HA CIE xy coordinate 0..1 → Matter 0..65279. */
export function xyToMatter(coordinate: number): number {
  return clamp(Math.round(coordinate * 65536), 0, MAX_XY);
}

/** Matter xy coordinate → HA 0..1 with 4 decimals. */
export function xyFromMatter(coordinate: number): number {
  return Math.round((clamp(coordinate, 0, MAX_XY) / 65536) * 10_000) / 10_000;
}
