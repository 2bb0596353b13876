/** Attribute builders for demo and generated homes, laid out as HA's entity base classes write them. */
import { type ColorMode, LightFeature, lightAttributes, lightDevice } from "../services/light-model.ts";

export { LightFeature };

export function lightAttrs(
  modes: readonly ColorMode[],
  state: {
    on: boolean;
    brightness?: number;
    kelvin?: number;
    hs?: [number, number];
    xy?: [number, number];
    rgb?: [number, number, number];
    effect?: string;
  },
  extra: { features?: number; minKelvin?: number; maxKelvin?: number; effects?: string[] } = {},
): Record<string, unknown> {
  const base: Record<string, unknown> = { supported_color_modes: [...modes] };
  if (modes.includes("color_temp")) {
    base.min_color_temp_kelvin = extra.minKelvin ?? 2202;
    base.max_color_temp_kelvin = extra.maxKelvin ?? 6535;
  }
  if (extra.effects) base.effect_list = extra.effects;
  base.supported_features = extra.features ?? 0;
  return lightAttributes(base, lightDevice(modes, state));
}

/** A light whose device does not answer: HA writes only capability attributes for an unavailable entity. */
export function unavailableLightAttrs(modes: readonly ColorMode[], features = 0): Record<string, unknown> {
  const attributes: Record<string, unknown> = {};
  if (modes.includes("color_temp")) {
    attributes.min_color_temp_kelvin = 2000;
    attributes.max_color_temp_kelvin = 6535;
  }
  attributes.supported_color_modes = [...modes].sort();
  attributes.supported_features = features;
  return attributes;
}

/** A sensor: `state_class` (capability), unit, device class. */
export function sensorAttrs(
  deviceClass: string | null,
  unit: string | null,
  stateClass: string | null = "measurement",
): Record<string, unknown> {
  const attributes: Record<string, unknown> = {};
  if (stateClass) attributes.state_class = stateClass;
  if (unit) attributes.unit_of_measurement = unit;
  if (deviceClass) attributes.device_class = deviceClass;
  return attributes;
}

export function enumSensorAttrs(options: string[]): Record<string, unknown> {
  return { options, device_class: "enum" };
}

export function binaryAttrs(deviceClass: string): Record<string, unknown> {
  return { device_class: deviceClass };
}

/** A cover: position and tilt only when it reports them, as `CoverEntity.state_attributes` does. */
export function coverAttrs(deviceClass: string, features: number, position?: number, tilt?: number): Record<string, unknown> {
  const attributes: Record<string, unknown> = {};
  if (position !== undefined) attributes.current_position = position;
  if (tilt !== undefined) attributes.current_tilt_position = tilt;
  attributes.device_class = deviceClass;
  attributes.supported_features = features;
  return attributes;
}
