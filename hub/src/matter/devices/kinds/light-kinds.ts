/**
 * Lights and plugs: On/Off, Dimmable, Color Temperature and Extended Color Light, On/Off and Dimmable Plug-in Unit.
 * The same kinds carry switches, scripts, buttons and scenes as plugs (the OnOff behavior knows each domain's HA
 * services). Colour attributes follow HA's `color_mode`; values are only reported while the light is on, because
 * HA drops brightness and colour attributes of an off light and the last known values must stay.
 */
import { ColorControl } from "@matter/main/clusters/color-control";
import { LevelControl } from "@matter/main/clusters/level-control";
import { OnOff } from "@matter/main/clusters/on-off";
import { ColorTemperatureLightDevice } from "@matter/main/devices/color-temperature-light";
import { DimmableLightDevice } from "@matter/main/devices/dimmable-light";
import { DimmablePlugInUnitDevice } from "@matter/main/devices/dimmable-plug-in-unit";
import { ExtendedColorLightDevice } from "@matter/main/devices/extended-color-light";
import { OnOffLightDevice } from "@matter/main/devices/on-off-light";
import { OnOffPlugInUnitDevice } from "@matter/main/devices/on-off-plug-in-unit";
import type { HassEntity } from "../../../home-assistant/types.ts";
import { HaColorControlServer } from "../../behaviors/color-control-server.ts";
import { HaLevelControlServer } from "../../behaviors/level-control-server.ts";
import { HaOnOffServer } from "../../behaviors/on-off-server.ts";
import { lightCapabilities, speakerCapabilities } from "../../model/capabilities.ts";
import {
  brightnessToLevel,
  colorTempRange,
  hueToMatter,
  kelvinToMireds,
  saturationToMatter,
  xyToMatter,
} from "../../model/convert/light.ts";
import { booleanAttr, hasValue, numberAttr, stringAttr, tupleAttr } from "../../model/ha-state.ts";
import type { DeviceKind, KindContext, StatePatch } from "./kind.ts";

/** Domains whose plug is momentary: HA has no on/off state to mirror. */
const MOMENTARY = new Set(["button", "input_button", "scene", "automation"]);

/** OnOff for any domain: undefined keeps the current value (momentary plugs, unknown states). */
export function onOffValue(domain: string, state: HassEntity | undefined): boolean | undefined {
  if (!hasValue(state) || MOMENTARY.has(domain)) return undefined;
  if (domain === "media_player") {
    if (state.state === "off" || state.state === "standby") return false;
    // Speaker: OnOff is "sound on" (not muted) when HA can mute, else power.
    return speakerCapabilities(state).mute ? booleanAttr(state, "is_volume_muted") !== true : true;
  }
  return state.state === "on";
}

const LightingOnOff = HaOnOffServer.with(OnOff.Feature.Lighting);
const LightingLevel = HaLevelControlServer.with(LevelControl.Feature.OnOff, LevelControl.Feature.Lighting);
const LIGHT_LEVEL_FIXED = { minLevel: 1, maxLevel: 254, onLevel: null, remainingTime: 0 };

function onOffPatch(context: KindContext): StatePatch {
  return { onOff: { onOff: onOffValue(context.snapshot.domain, context.snapshot.state) } };
}

function isOn(context: KindContext): boolean {
  return context.snapshot.state?.state === "on";
}

function levelPatch(context: KindContext): StatePatch {
  const brightness = numberAttr(context.snapshot.state, "brightness");
  const on = isOn(context) && brightness !== undefined && brightness > 0;
  return { levelControl: { currentLevel: on ? brightnessToLevel(brightness) : undefined } };
}

function colorFeatures(full: boolean) {
  return full
    ? [ColorControl.Feature.HueSaturation, ColorControl.Feature.Xy, ColorControl.Feature.ColorTemperature]
    : [ColorControl.Feature.ColorTemperature];
}

function colorRange(state: HassEntity | undefined) {
  return colorTempRange(numberAttr(state, "min_color_temp_kelvin"), numberAttr(state, "max_color_temp_kelvin"));
}

/** Until HA reports a colour (an off light has none), a white at the middle of the range. */
function colorFixed(context: KindContext, full: boolean): StatePatch {
  const range = colorRange(context.snapshot.state);
  const mode = ColorControl.ColorMode.ColorTemperatureMireds;
  return {
    colorControl: {
      colorMode: mode,
      enhancedColorMode: mode,
      ...(full ? { currentHue: 0, currentSaturation: 0, currentX: xyToMatter(0.3127), currentY: xyToMatter(0.329) } : {}),
      colorTempPhysicalMinMireds: range.minMireds,
      colorTempPhysicalMaxMireds: range.maxMireds,
      coupleColorTempToLevelMinMireds: range.minMireds,
      colorTemperatureMireds: Math.round((range.minMireds + range.maxMireds) / 2),
      remainingTime: 0,
    },
  };
}

/** Colour attributes from `color_mode` and the colour attributes HA reports for it (only while on). */
function colorPatch(context: KindContext, full: boolean): StatePatch {
  const state = context.snapshot.state;
  if (!isOn(context)) return {};
  const mode = stringAttr(state, "color_mode");
  const values: Record<string, unknown> = {};
  const kelvin = numberAttr(state, "color_temp_kelvin");
  if (kelvin !== undefined && kelvin > 0) values.colorTemperatureMireds = kelvinToMireds(kelvin, colorRange(state));
  if (full) {
    const hs = tupleAttr(state, "hs_color", 2);
    if (hs) [values.currentHue, values.currentSaturation] = [hueToMatter(hs[0] ?? 0), saturationToMatter(hs[1] ?? 0)];
    const xy = tupleAttr(state, "xy_color", 2);
    if (xy) [values.currentX, values.currentY] = [xyToMatter(xy[0] ?? 0), xyToMatter(xy[1] ?? 0)];
  }
  let colorMode: ColorControl.ColorMode | undefined;
  if (mode === "color_temp") colorMode = ColorControl.ColorMode.ColorTemperatureMireds;
  else if (full && mode === "xy") colorMode = ColorControl.ColorMode.CurrentXAndCurrentY;
  else if (full && mode !== undefined && ["hs", "rgb", "rgbw", "rgbww"].includes(mode))
    colorMode = ColorControl.ColorMode.CurrentHueAndCurrentSaturation;
  if (colorMode !== undefined) {
    values.colorMode = colorMode;
    values.enhancedColorMode = colorMode;
  }
  return { colorControl: values };
}

const lightSignature = (context: KindContext) => JSON.stringify(lightCapabilities(context.snapshot.state));

/** On/Off Light (0x0100). */
export const onOffLight: DeviceKind = {
  endpointType: () => OnOffLightDevice.with(LightingOnOff),
  project: onOffPatch,
  signature: () => "on_off",
};

/** On/Off Plug-in Unit (0x010A): switches, input booleans, scripts, momentary buttons/scenes/automations. */
export const onOffPlugInUnit: DeviceKind = {
  endpointType: () => OnOffPlugInUnitDevice.with(LightingOnOff),
  fixed: () => ({ onOff: { onOff: false } }),
  project: onOffPatch,
  signature: () => "on_off",
};

/** Dimmable Light (0x0101). */
export const dimmableLight: DeviceKind = {
  endpointType: () => DimmableLightDevice.with(LightingOnOff, LightingLevel),
  fixed: () => ({ levelControl: { ...LIGHT_LEVEL_FIXED, currentLevel: 254 } }),
  project: (context) => ({ ...onOffPatch(context), ...levelPatch(context) }),
  signature: lightSignature,
};

/** Dimmable Plug-in Unit (0x010B): a dimmable light the user wants shown as a plug. */
export const dimmablePlugInUnit: DeviceKind = {
  ...dimmableLight,
  endpointType: () => DimmablePlugInUnitDevice.with(LightingOnOff, LightingLevel),
};

/**
 * Color Temperature Light (0x010C, Matter Device Library §4.3; matter.js `ColorTemperatureLightDevice`). The
 * plugin specification lists 0x0102, which is Zigbee HA's Color Dimmable Light and not a Matter device type
 * (docs/decisions.md).
 */
export const colorTemperatureLight: DeviceKind = {
  endpointType: () =>
    ColorTemperatureLightDevice.with(LightingOnOff, LightingLevel, HaColorControlServer.with(...colorFeatures(false))),
  fixed: (context) => ({ levelControl: { ...LIGHT_LEVEL_FIXED, currentLevel: 254 }, ...colorFixed(context, false) }),
  project: (context) => ({ ...onOffPatch(context), ...levelPatch(context), ...colorPatch(context, false) }),
  signature: lightSignature,
};

/** Extended Color Light (0x010D): HS + XY + CT, whatever subset HA supports (HA converts the rest). */
export const extendedColorLight: DeviceKind = {
  endpointType: () =>
    ExtendedColorLightDevice.with(LightingOnOff, LightingLevel, HaColorControlServer.with(...colorFeatures(true))),
  fixed: (context) => ({ levelControl: { ...LIGHT_LEVEL_FIXED, currentLevel: 254 }, ...colorFixed(context, true) }),
  project: (context) => ({ ...onOffPatch(context), ...levelPatch(context), ...colorPatch(context, true) }),
  signature: lightSignature,
};
