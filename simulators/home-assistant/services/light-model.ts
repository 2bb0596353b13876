/**
 * A simulated light's device state and the attributes HA's `LightEntity` derives from it (capability attributes,
 * then `state_attributes`): when off, `color_mode`, `brightness`, `color_temp_kelvin` and the colour attributes are
 * present but null; when on, the colours not in the current mode are computed from it.
 */
import { pyRound } from "../core/json.ts";
import { type Hs, hsToRgb, hsToXy, kelvinToHs, type Rgb, rgbToHs, rgbToXy, type Xy, xyToHs, xyToRgb } from "./color.ts";

/** `LightEntityFeature`. */
export const LightFeature = { EFFECT: 4, FLASH: 8, TRANSITION: 32 } as const;

export type ColorMode = "onoff" | "brightness" | "color_temp" | "hs" | "xy" | "rgb" | "rgbw" | "rgbww" | "white";

const BRIGHTNESS_MODES: readonly string[] = ["brightness", "color_temp", "hs", "xy", "rgb", "rgbw", "rgbww", "white"];
const COLOR_MODES: readonly string[] = ["hs", "xy", "rgb", "rgbw", "rgbww"];

export const brightnessSupported = (modes: readonly string[]) => modes.some((mode) => BRIGHTNESS_MODES.includes(mode));
export const colorSupported = (modes: readonly string[]) => modes.some((mode) => COLOR_MODES.includes(mode));
export const colorTempSupported = (modes: readonly string[]) => modes.includes("color_temp");

export interface LightDevice {
  on: boolean;
  colorMode: ColorMode;
  brightness: number;
  kelvin: number;
  hs: Hs;
  xy: Xy;
  rgb: Rgb;
  effect: string | null;
}

/** The keys the light model owns; everything else in a light's attributes (friendly_name, icon…) is kept as is. */
const MANAGED = new Set([
  "min_color_temp_kelvin",
  "max_color_temp_kelvin",
  "effect_list",
  "supported_color_modes",
  "effect",
  "color_mode",
  "brightness",
  "color_temp_kelvin",
  "hs_color",
  "rgb_color",
  "xy_color",
]);

export function supportedModes(attributes: Readonly<Record<string, unknown>>): ColorMode[] {
  const modes = attributes.supported_color_modes;
  return Array.isArray(modes) && modes.length > 0 ? (modes as ColorMode[]) : ["onoff"];
}

export function kelvinRange(attributes: Readonly<Record<string, unknown>>): [number, number] {
  const min = typeof attributes.min_color_temp_kelvin === "number" ? attributes.min_color_temp_kelvin : 2000;
  const max = typeof attributes.max_color_temp_kelvin === "number" ? attributes.max_color_temp_kelvin : 6535;
  return [min, max];
}

/** The mode a light with these modes reports when nothing picked one: white if it can, else its first mode. */
export function defaultColorMode(modes: readonly ColorMode[]): ColorMode {
  if (modes.includes("color_temp")) return "color_temp";
  return modes[0] ?? "onoff";
}

/** HA's `_light_internal_convert_color`: all three colour representations from the current mode. */
function convertColor(device: LightDevice): { hs_color: Hs; rgb_color: Rgb; xy_color: Xy } | undefined {
  switch (device.colorMode) {
    case "hs": {
      const [h, s] = device.hs;
      return { hs_color: [pyRound(h, 3), pyRound(s, 3)], rgb_color: hsToRgb(h, s), xy_color: hsToXy(h, s) };
    }
    case "xy": {
      const [x, y] = device.xy;
      return { hs_color: xyToHs(x, y), rgb_color: xyToRgb(x, y), xy_color: [pyRound(x, 6), pyRound(y, 6)] };
    }
    case "rgb": {
      const [r, g, b] = device.rgb;
      return { hs_color: rgbToHs(r, g, b), rgb_color: [r, g, b], xy_color: rgbToXy(r, g, b) };
    }
    case "color_temp": {
      const [h, s] = kelvinToHs(device.kelvin);
      return { hs_color: [h, s], rgb_color: hsToRgb(h, s), xy_color: hsToXy(h, s) };
    }
    default:
      return undefined;
  }
}

/** The attributes HA's light entity writes for `device`, keeping the entity's other attributes from `base`. */
export function lightAttributes(base: Readonly<Record<string, unknown>>, device: LightDevice): Record<string, unknown> {
  const modes = supportedModes(base);
  const features = typeof base.supported_features === "number" ? base.supported_features : 0;
  const effects = (features & LightFeature.EFFECT) !== 0;
  const on = device.on;
  const attributes: Record<string, unknown> = {};
  if (colorTempSupported(modes)) {
    const [min, max] = kelvinRange(base);
    attributes.min_color_temp_kelvin = min;
    attributes.max_color_temp_kelvin = max;
  }
  if (effects) attributes.effect_list = base.effect_list ?? [];
  attributes.supported_color_modes = [...modes].sort();
  if (effects) attributes.effect = on ? device.effect : null;
  attributes.color_mode = on ? device.colorMode : null;
  if (brightnessSupported(modes)) {
    attributes.brightness = on && BRIGHTNESS_MODES.includes(device.colorMode) ? device.brightness : null;
  }
  if (colorTempSupported(modes)) attributes.color_temp_kelvin = on && device.colorMode === "color_temp" ? device.kelvin : null;
  if (colorSupported(modes) || colorTempSupported(modes)) {
    attributes.hs_color = null;
    attributes.rgb_color = null;
    attributes.xy_color = null;
    if (on) Object.assign(attributes, convertColor(device));
  }
  for (const [key, value] of Object.entries(base)) if (!MANAGED.has(key)) attributes[key] = value;
  return attributes;
}

/** A light's device state for building demo homes: on/off with optional brightness and one colour. */
export function lightDevice(
  modes: readonly ColorMode[],
  options: { on: boolean; brightness?: number; kelvin?: number; hs?: Hs; xy?: Xy; rgb?: Rgb; effect?: string | null },
): LightDevice {
  let colorMode = defaultColorMode(modes);
  if (options.hs && modes.includes("hs")) colorMode = "hs";
  else if (options.xy && modes.includes("xy")) colorMode = "xy";
  else if (options.rgb && modes.includes("rgb")) colorMode = "rgb";
  else if (options.kelvin && modes.includes("color_temp")) colorMode = "color_temp";
  const hs = options.hs ?? [35, 60];
  return {
    on: options.on,
    colorMode,
    brightness: options.brightness ?? 255,
    kelvin: options.kelvin ?? 2700,
    hs,
    xy: options.xy ?? hsToXy(hs[0], hs[1]),
    rgb: options.rgb ?? hsToRgb(hs[0], hs[1]),
    effect: options.effect ?? null,
  };
}
