/**
 * Home Assistant `supported_features` bits per domain (HA core `*EntityFeature` IntFlags). Only the bits the device
 * layer reads are listed.
 */

/** `homeassistant.components.light.LightEntityFeature` plus the legacy bits older integrations still report. */
export const LightFeature = {
  /** Legacy SUPPORT_BRIGHTNESS, only read when `supported_color_modes` is missing. */
  LEGACY_BRIGHTNESS: 1,
  /** Legacy SUPPORT_COLOR_TEMP. */
  LEGACY_COLOR_TEMP: 2,
  /** Legacy SUPPORT_COLOR. */
  LEGACY_COLOR: 16,
  TRANSITION: 32,
} as const;

/** `homeassistant.components.cover.CoverEntityFeature`. */
export const CoverFeature = {
  OPEN: 1,
  CLOSE: 2,
  SET_POSITION: 4,
  STOP: 8,
  OPEN_TILT: 16,
  CLOSE_TILT: 32,
  STOP_TILT: 64,
  SET_TILT_POSITION: 128,
} as const;

/** `homeassistant.components.climate.ClimateEntityFeature`. */
export const ClimateFeature = {
  TARGET_TEMPERATURE: 1,
  TARGET_TEMPERATURE_RANGE: 2,
} as const;

/** `homeassistant.components.fan.FanEntityFeature`. */
export const FanFeature = {
  SET_SPEED: 1,
  OSCILLATE: 2,
  DIRECTION: 4,
  PRESET_MODE: 8,
} as const;

/** `homeassistant.components.media_player.MediaPlayerEntityFeature`. */
export const MediaPlayerFeature = {
  VOLUME_SET: 4,
  VOLUME_MUTE: 8,
  TURN_ON: 128,
  TURN_OFF: 256,
} as const;

/** `homeassistant.components.vacuum.VacuumEntityFeature`. */
export const VacuumFeature = {
  PAUSE: 4,
  STOP: 8,
  RETURN_HOME: 16,
  START: 8192,
} as const;

/** `homeassistant.components.valve.ValveEntityFeature`. */
export const ValveFeature = {
  OPEN: 1,
  CLOSE: 2,
  SET_POSITION: 4,
  STOP: 8,
} as const;

/** `homeassistant.components.humidifier.HumidifierEntityFeature`. */
export const HumidifierFeature = {
  MODES: 1,
} as const;

/** `homeassistant.components.water_heater.WaterHeaterEntityFeature`. */
export const WaterHeaterFeature = {
  TARGET_TEMPERATURE: 1,
  OPERATION_MODE: 2,
  AWAY_MODE: 4,
  ON_OFF: 8,
} as const;
