/**
 * What an entity can do, read from its HA state once per decision. The domain table picks the device type from
 * these and the endpoint factories pick the Matter cluster features from the same values, so both always agree.
 * A capability change (e.g. a light gaining colour) means the endpoint must be rebuilt: Matter features are fixed
 * for the life of an endpoint.
 */
import type { HassEntity } from "../../home-assistant/types.ts";
import { CoverFeature, FanFeature, LightFeature, MediaPlayerFeature, ValveFeature } from "./ha-features.ts";
import { numberAttr, stringListAttr, supports, tupleAttr } from "./ha-state.ts";

const COLOR_MODES = new Set(["hs", "xy", "rgb", "rgbw", "rgbww"]);

/** What an HA light can show: brightness, colour temperature, colour. */
export interface LightCapabilities {
  brightness: boolean;
  colorTemp: boolean;
  color: boolean;
}

/** Light capabilities from `supported_color_modes` (HA ≥ 2021.4), else from the legacy feature bits. */
export function lightCapabilities(state: HassEntity | undefined): LightCapabilities {
  const modes = stringListAttr(state, "supported_color_modes");
  if (modes.length > 0) {
    const color = modes.some((mode) => COLOR_MODES.has(mode));
    const colorTemp = modes.includes("color_temp");
    const brightness = color || colorTemp || modes.some((mode) => mode !== "onoff" && mode !== "unknown");
    return { brightness, colorTemp, color };
  }
  const color = supports(state, LightFeature.LEGACY_COLOR) || tupleAttr(state, "hs_color", 2) !== undefined;
  const colorTemp = supports(state, LightFeature.LEGACY_COLOR_TEMP);
  const brightness =
    color || colorTemp || supports(state, LightFeature.LEGACY_BRIGHTNESS) || numberAttr(state, "brightness") !== undefined;
  return { brightness, colorTemp, color };
}

/** Which axes a cover moves and whether it takes positions / can stop. */
export interface CoverCapabilities {
  lift: boolean;
  tilt: boolean;
  liftPosition: boolean;
  tiltPosition: boolean;
  stop: boolean;
  stopTilt: boolean;
}

/** Cover capabilities; a cover reporting nothing is treated as an open/close lift cover. */
export function coverCapabilities(state: HassEntity | undefined): CoverCapabilities {
  const tiltPosition = supports(state, CoverFeature.SET_TILT_POSITION);
  const tilt =
    tiltPosition ||
    supports(state, CoverFeature.OPEN_TILT) ||
    supports(state, CoverFeature.CLOSE_TILT) ||
    numberAttr(state, "current_tilt_position") !== undefined;
  const liftPosition = supports(state, CoverFeature.SET_POSITION);
  const liftControl = liftPosition || supports(state, CoverFeature.OPEN) || supports(state, CoverFeature.CLOSE);
  return {
    lift: liftControl || !tilt,
    tilt,
    liftPosition,
    tiltPosition,
    stop: supports(state, CoverFeature.STOP),
    stopTilt: supports(state, CoverFeature.STOP_TILT),
  };
}

/** The HVAC modes of a climate entity and the Matter thermostat features they allow. */
export interface ClimateCapabilities {
  modes: string[];
  heating: boolean;
  cooling: boolean;
  /** Matter AutoMode = HA `heat_cool` (two setpoints); HA `auto` is something else (see thermostat-mapping.ts). */
  autoMode: boolean;
}

/** Climate capabilities from `hvac_modes`; `auto`-only devices are treated as heating (single setpoint). */
export function climateCapabilities(state: HassEntity | undefined): ClimateCapabilities {
  const modes = stringListAttr(state, "hvac_modes");
  const heatCool = modes.includes("heat_cool");
  let heating = heatCool || modes.includes("heat");
  const cooling = heatCool || modes.includes("cool");
  if (!heating && !cooling && modes.includes("auto")) heating = true;
  return { modes, heating, cooling, autoMode: heatCool };
}

/** Speeds, oscillation, direction and the presets that stand for Matter Auto/Wind. */
export interface FanCapabilities {
  /** Number of discrete speeds (Matter SpeedMax); 0 for an on/off fan. */
  speeds: number;
  oscillate: boolean;
  direction: boolean;
  /** The HA preset that means "automatic", if the fan has one. */
  autoPreset: string | undefined;
  sleepPreset: string | undefined;
  naturalPreset: string | undefined;
}

const AUTO_PRESETS = ["auto", "smart", "automatic"];
const SLEEP_PRESETS = ["sleep", "night"];
const NATURAL_PRESETS = ["nature", "natural", "breeze"];

function findPreset(presets: string[], names: string[]): string | undefined {
  return presets.find((preset) => names.includes(preset.toLowerCase()));
}

/** Fan capabilities; speeds come from `percentage_step` (HA: 100 / step speeds). */
export function fanCapabilities(state: HassEntity | undefined): FanCapabilities {
  const presets = supports(state, FanFeature.PRESET_MODE) ? stringListAttr(state, "preset_modes") : [];
  let speeds = 0;
  if (supports(state, FanFeature.SET_SPEED)) {
    const step = numberAttr(state, "percentage_step");
    speeds = step !== undefined && step > 0 ? Math.min(100, Math.max(1, Math.round(100 / step))) : 100;
  }
  return {
    speeds,
    oscillate: supports(state, FanFeature.OSCILLATE),
    direction: supports(state, FanFeature.DIRECTION),
    autoPreset: findPreset(presets, AUTO_PRESETS),
    sleepPreset: findPreset(presets, SLEEP_PRESETS),
    naturalPreset: findPreset(presets, NATURAL_PRESETS),
  };
}

/** The media player controls a Matter Speaker can carry. */
export interface SpeakerCapabilities {
  volume: boolean;
  mute: boolean;
  power: boolean;
}

/** Media player controls a Matter Speaker can carry. */
export function speakerCapabilities(state: HassEntity | undefined): SpeakerCapabilities {
  return {
    volume: supports(state, MediaPlayerFeature.VOLUME_SET),
    mute: supports(state, MediaPlayerFeature.VOLUME_MUTE),
    power: supports(state, MediaPlayerFeature.TURN_ON) && supports(state, MediaPlayerFeature.TURN_OFF),
  };
}

/** Whether a valve reports and accepts a position (Matter ValveConfigurationAndControl Level feature). */
export function valveHasPosition(state: HassEntity | undefined): boolean {
  return supports(state, ValveFeature.SET_POSITION) || numberAttr(state, "current_position") !== undefined;
}

/**
 * A humidifier seen as a fan (the Matter Fan device it is exposed as): its percentage is the target humidity, so it
 * has 100 steps, and its automatic mode (from `available_modes`) is the fan's Auto.
 */
export function humidifierCapabilities(state: HassEntity | undefined): FanCapabilities {
  return {
    speeds: 100,
    oscillate: false,
    direction: false,
    autoPreset: findPreset(stringListAttr(state, "available_modes"), AUTO_PRESETS),
    sleepPreset: undefined,
    naturalPreset: undefined,
  };
}

/** `select`/`input_select` options (Matter ModeSelect modes are their indexes). */
export function selectOptions(state: HassEntity | undefined): string[] {
  return stringListAttr(state, "options");
}
