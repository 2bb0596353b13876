/**
 * `light.turn_on` / `turn_off` / `toggle` after HA's light component: the service schema (Clamp for brightness,
 * Range for brightness_pct), `preprocess_turn_on_alternatives`, brightness steps, colour emulation and conversion
 * into a supported colour mode, colour temperature clamped to the light's range, brightness 0 meaning off, and
 * `filter_turn_on_params` dropping what the light cannot do.
 */
import { pyRound } from "../core/json.ts";
import type { State } from "../core/state-machine.ts";
import { exclusive, type Fields, v } from "../protocol/schema.ts";
import { hsToRgb, hsToXy, kelvinToHs, rgbToHs, rgbToXy, xyToHs, xyToKelvin, xyToRgb } from "./color.ts";
import {
  brightnessSupported,
  type ColorMode,
  colorSupported,
  defaultColorMode,
  kelvinRange,
  type LightDevice,
  LightFeature,
  lightAttributes,
  lightDevice,
  supportedModes,
} from "./light-model.ts";
import { type EntityCall, entityService, featuresOf, type ServiceRuntime, type ServiceSpec } from "./types.ts";

const COLOR_GROUP = "Color descriptors";

const TURN_ON_FIELDS: Fields = {
  transition: v.float({ min: 0, max: 6553, clamp: true }),
  brightness: exclusive("brightness", v.int({ min: 0, max: 255, clamp: true })),
  brightness_pct: exclusive("brightness", v.float({ min: 0, max: 100 })),
  brightness_step: exclusive("brightness", v.int({ min: -255, max: 255, clamp: true })),
  brightness_step_pct: exclusive("brightness", v.float({ min: -100, max: 100, clamp: true })),
  color_temp_kelvin: exclusive(COLOR_GROUP, v.int({ min: 1 })),
  hs_color: exclusive(COLOR_GROUP, v.tuple([v.float({ min: 0, max: 360 }), v.float({ min: 0, max: 100 })], { color_hs: {} })),
  rgb_color: exclusive(
    COLOR_GROUP,
    v.tuple(
      [0, 1, 2].map(() => v.int({ min: 0, max: 255 })),
      { color_rgb: {} },
    ),
  ),
  xy_color: exclusive(COLOR_GROUP, v.tuple([v.float({ min: 0, max: 1 }), v.float({ min: 0, max: 1 })], { object: {} })),
  effect: v.string(),
  flash: v.oneOf(["short", "long"]),
};

const TURN_OFF_FIELDS: Fields = { transition: TURN_ON_FIELDS.transition!, flash: TURN_ON_FIELDS.flash! };

function asNumber(value: unknown, fallback: number): number {
  return typeof value === "number" ? value : fallback;
}

/** The light's device state: what it shows when on, else what it remembers from when it was last on. */
function readDevice(state: State, rt: ServiceRuntime): LightDevice {
  const memory = rt.memory(state.entityId);
  const modes = supportedModes(state.attributes);
  const remembered = memory.light as LightDevice | undefined;
  const fallback = remembered ?? lightDevice(modes, { on: false });
  if (state.state !== "on") return { ...fallback, on: false };
  const a = state.attributes;
  const mode =
    typeof a.color_mode === "string" && modes.includes(a.color_mode as ColorMode)
      ? (a.color_mode as ColorMode)
      : fallback.colorMode;
  return {
    on: true,
    colorMode: mode,
    brightness: asNumber(a.brightness, fallback.brightness),
    kelvin: asNumber(a.color_temp_kelvin, fallback.kelvin),
    hs: (Array.isArray(a.hs_color) ? a.hs_color : fallback.hs) as LightDevice["hs"],
    xy: (Array.isArray(a.xy_color) ? a.xy_color : fallback.xy) as LightDevice["xy"],
    rgb: (Array.isArray(a.rgb_color) ? a.rgb_color : fallback.rgb) as LightDevice["rgb"],
    effect: typeof a.effect === "string" ? a.effect : fallback.effect,
  };
}

function writeDevice(call: EntityCall, rt: ServiceRuntime, device: LightDevice): void {
  rt.memory(call.entityId).light = { ...device, on: false };
  rt.write(call.entityId, device.on ? "on" : "off", lightAttributes(call.state.attributes, device), call.context);
}

function turnOff(call: EntityCall, rt: ServiceRuntime): void {
  writeDevice(call, rt, { ...readDevice(call.state, rt), on: false });
}

/** HA's colour emulation and conversion into a mode the light supports (async_handle_light_on_service). */
function convertColors(params: Record<string, unknown>, modes: readonly ColorMode[]): void {
  if (params.color_temp_kelvin !== undefined && !modes.includes("color_temp")) {
    const kelvin = params.color_temp_kelvin as number;
    delete params.color_temp_kelvin;
    if (colorSupported(modes)) params.hs_color = kelvinToHs(kelvin);
  }
  const hs = params.hs_color as [number, number] | undefined;
  const rgb = params.rgb_color as [number, number, number] | undefined;
  const xy = params.xy_color as [number, number] | undefined;
  if (hs && !modes.includes("hs")) {
    delete params.hs_color;
    if (modes.includes("rgb")) params.rgb_color = hsToRgb(...hs);
    else if (modes.includes("xy")) params.xy_color = hsToXy(...hs);
    else if (modes.includes("color_temp")) params.color_temp_kelvin = xyToKelvin(...hsToXy(...hs));
  } else if (rgb && !modes.includes("rgb")) {
    delete params.rgb_color;
    if (modes.includes("hs")) params.hs_color = rgbToHs(...rgb);
    else if (modes.includes("xy")) params.xy_color = rgbToXy(...rgb);
    else if (modes.includes("color_temp")) params.color_temp_kelvin = xyToKelvin(...rgbToXy(...rgb));
  } else if (xy && !modes.includes("xy")) {
    delete params.xy_color;
    if (modes.includes("hs")) params.hs_color = xyToHs(...xy);
    else if (modes.includes("rgb")) params.rgb_color = xyToRgb(...xy);
    else if (modes.includes("color_temp")) params.color_temp_kelvin = xyToKelvin(...xy);
  }
}

function turnOn(call: EntityCall, rt: ServiceRuntime): void {
  const attributes = call.state.attributes;
  const modes = supportedModes(attributes);
  const features = featuresOf(call.state);
  const params: Record<string, unknown> = { ...call.data };
  const current = readDevice(call.state, rt);

  if (params.brightness_pct !== undefined) {
    params.brightness = pyRound(((params.brightness_pct as number) * 255) / 100);
    delete params.brightness_pct;
  }
  if (params.brightness_step !== undefined || params.brightness_step_pct !== undefined) {
    let brightness = current.on ? current.brightness : 0;
    if (params.brightness_step !== undefined) brightness += params.brightness_step as number;
    else brightness = pyRound(((pyRound((brightness / 255) * 100) + (params.brightness_step_pct as number)) / 100) * 255);
    params.brightness = Math.max(0, Math.min(255, brightness));
    delete params.brightness_step;
    delete params.brightness_step_pct;
  }
  convertColors(params, modes);
  if (typeof params.color_temp_kelvin === "number") {
    const [min, max] = kelvinRange(attributes);
    params.color_temp_kelvin = Math.max(min, Math.min(max, params.color_temp_kelvin));
  }
  if (params.brightness === 0) {
    turnOff(call, rt);
    return;
  }
  // filter_turn_on_params
  if (!(features & LightFeature.EFFECT)) delete params.effect;
  if (!brightnessSupported(modes)) delete params.brightness;
  if (!modes.includes("color_temp")) delete params.color_temp_kelvin;
  if (!modes.includes("hs")) delete params.hs_color;
  if (!modes.includes("xy")) delete params.xy_color;
  if (!modes.includes("rgb")) delete params.rgb_color;

  const device: LightDevice = { ...current, on: true };
  if (typeof params.brightness === "number") device.brightness = params.brightness;
  if (typeof params.color_temp_kelvin === "number") {
    device.colorMode = "color_temp";
    device.kelvin = params.color_temp_kelvin;
  } else if (params.hs_color) {
    device.colorMode = "hs";
    device.hs = params.hs_color as LightDevice["hs"];
  } else if (params.xy_color) {
    device.colorMode = "xy";
    device.xy = params.xy_color as LightDevice["xy"];
  } else if (params.rgb_color) {
    device.colorMode = "rgb";
    device.rgb = params.rgb_color as LightDevice["rgb"];
  }
  if (!modes.includes(device.colorMode)) device.colorMode = defaultColorMode(modes);
  if (typeof params.effect === "string") device.effect = params.effect;
  writeDevice(call, rt, device);
}

export function lightServices(): ServiceSpec[] {
  return [
    entityService("light", "turn_on", TURN_ON_FIELDS, turnOn),
    entityService("light", "turn_off", TURN_OFF_FIELDS, turnOff),
    entityService("light", "toggle", TURN_ON_FIELDS, (call, rt) =>
      call.state.state === "on" ? turnOff(call, rt) : turnOn(call, rt),
    ),
  ];
}
