/**
 * One representative entity for every domain and device class a demo home contains, with the mapping the table
 * must choose. Used by the domain-table test (decision only) and the bring-up test (real endpoints).
 */
import type { DeviceTypeKey, EntitySnapshot } from "../../../src/matter/model/contract.ts";
import { snapshot } from "./ha-fixtures.ts";

/** An entity and the mapping expected for it. */
export interface DemoFixture {
  entity: EntitySnapshot;
  /** The expected key, or `unsupported` with a word the reason must contain. */
  expected: { key: DeviceTypeKey; deviceType: number; features?: Record<string, string[]> } | { unsupported: string };
}

/** A fixture entity with its expected mapping. */
export const fixture = (
  entityId: string,
  state: string,
  attributes: Record<string, unknown>,
  expected: DemoFixture["expected"],
): DemoFixture => ({ entity: snapshot(entityId, state, attributes), expected });

const ct = { min_color_temp_kelvin: 2200, max_color_temp_kelvin: 6500 };

/** Lights, plugs, covers, locks, climate, fans. */
export const CONTROL_FIXTURES: DemoFixture[] = [
  // Lights by colour mode
  fixture(
    "light.living_room",
    "on",
    {
      supported_color_modes: ["color_temp", "hs"],
      color_mode: "hs",
      brightness: 180,
      hs_color: [30, 60],
      xy_color: [0.5, 0.4],
      color_temp_kelvin: 2900,
      ...ct,
    },
    { key: "extended_color_light", deviceType: 0x10d, features: { colorControl: ["hueSaturation", "xy", "colorTemperature"] } },
  ),
  fixture(
    "light.desk_strip",
    "on",
    {
      supported_color_modes: ["rgbww"],
      color_mode: "rgbww",
      brightness: 255,
      hs_color: [240, 100],
      xy_color: [0.14, 0.08],
      ...ct,
    },
    { key: "extended_color_light", deviceType: 0x10d },
  ),
  fixture("light.hue_go", "off", { supported_color_modes: ["xy"], ...ct }, { key: "extended_color_light", deviceType: 0x10d }),
  fixture(
    "light.kitchen",
    "on",
    { supported_color_modes: ["color_temp"], color_mode: "color_temp", brightness: 100, color_temp_kelvin: 4000, ...ct },
    { key: "color_temperature_light", deviceType: 0x10c, features: { colorControl: ["colorTemperature"] } },
  ),
  fixture("light.hallway", "off", { supported_color_modes: ["brightness"] }, { key: "dimmable_light", deviceType: 0x101 }),
  fixture(
    "light.porch",
    "on",
    { supported_color_modes: ["onoff"], color_mode: "onoff" },
    { key: "on_off_light", deviceType: 0x100 },
  ),
  fixture("light.legacy_dimmer", "on", { supported_features: 1, brightness: 50 }, { key: "dimmable_light", deviceType: 0x101 }),
  // Switch-like and momentary
  fixture("switch.coffee_maker", "off", { device_class: "outlet" }, { key: "on_off_plugin_unit", deviceType: 0x10a }),
  fixture("input_boolean.guest_mode", "on", {}, { key: "on_off_plugin_unit", deviceType: 0x10a }),
  fixture("siren.hallway_siren", "off", {}, { key: "on_off_plugin_unit", deviceType: 0x10a }),
  fixture("script.good_night", "off", {}, { key: "on_off_plugin_unit", deviceType: 0x10a }),
  fixture(
    "button.restart_router",
    "2026-11-21T08:00:00+00:00",
    { device_class: "restart" },
    { key: "on_off_plugin_unit", deviceType: 0x10a },
  ),
  fixture("input_button.ring_bell", "unknown", {}, { key: "on_off_plugin_unit", deviceType: 0x10a }),
  fixture("scene.movie_night", "2026-11-21T20:00:00+00:00", {}, { key: "on_off_plugin_unit", deviceType: 0x10a }),
  fixture("automation.morning_lights", "on", {}, { key: "on_off_plugin_unit", deviceType: 0x10a }),
  // Covers
  fixture(
    "cover.living_room_blinds",
    "open",
    { supported_features: 255, current_position: 70, current_tilt_position: 40, device_class: "blind" },
    {
      key: "window_covering",
      deviceType: 0x202,
      features: { windowCovering: ["lift", "tilt", "positionAwareLift", "positionAwareTilt"] },
    },
  ),
  fixture(
    "cover.bedroom_curtain",
    "closed",
    { supported_features: 15, current_position: 0, device_class: "curtain" },
    { key: "window_covering", deviceType: 0x202, features: { windowCovering: ["lift", "positionAwareLift"] } },
  ),
  fixture(
    "cover.garage_door",
    "closed",
    { supported_features: 3, device_class: "garage" },
    { key: "window_covering", deviceType: 0x202 },
  ),
  fixture(
    "cover.pergola_louvres",
    "open",
    { supported_features: 240, current_tilt_position: 100 },
    { key: "window_covering", deviceType: 0x202, features: { windowCovering: ["tilt", "positionAwareTilt"] } },
  ),
  // Locks
  fixture("lock.front_door", "locked", { supported_features: 0 }, { key: "door_lock", deviceType: 0x0a }),
  fixture("lock.back_door", "unlocked", { supported_features: 1 }, { key: "door_lock", deviceType: 0x0a }),
  // Climate
  fixture(
    "climate.living_room",
    "heat_cool",
    {
      hvac_modes: ["off", "heat", "cool", "heat_cool"],
      current_temperature: 21.5,
      target_temp_low: 20,
      target_temp_high: 24,
      min_temp: 7,
      max_temp: 35,
      hvac_action: "idle",
      supported_features: 2 + 1,
    },
    { key: "thermostat", deviceType: 0x301, features: { thermostat: ["heating", "cooling", "autoMode"] } },
  ),
  fixture(
    "climate.bedroom_trv",
    "auto",
    {
      hvac_modes: ["off", "heat", "auto"],
      current_temperature: 19,
      temperature: 20.5,
      min_temp: 5,
      max_temp: 30,
      hvac_action: "heating",
      supported_features: 1,
    },
    { key: "thermostat", deviceType: 0x301, features: { thermostat: ["heating"] } },
  ),
  fixture(
    "climate.office_ac",
    "cool",
    {
      hvac_modes: ["off", "cool", "dry", "fan_only"],
      current_temperature: 26,
      temperature: 23,
      min_temp: 16,
      max_temp: 30,
      supported_features: 1,
    },
    { key: "thermostat", deviceType: 0x301, features: { thermostat: ["cooling"] } },
  ),
  fixture("climate.dehumidifier", "dry", { hvac_modes: ["off", "dry", "fan_only"] }, { unsupported: "mode" }),
  // Fans and humidifiers
  fixture(
    "fan.ceiling",
    "on",
    {
      supported_features: 1 + 2 + 4 + 8,
      percentage: 50,
      percentage_step: 25,
      preset_modes: ["auto", "sleep", "nature"],
      preset_mode: null,
      oscillating: true,
      direction: "forward",
    },
    {
      key: "fan",
      deviceType: 0x2b,
      features: { fanControl: ["multiSpeed", "auto", "rocking", "wind", "step", "airflowDirection"] },
    },
  ),
  fixture("fan.bathroom_extractor", "off", { supported_features: 48 }, { key: "fan", deviceType: 0x2b }),
  fixture(
    "humidifier.bedroom",
    "on",
    {
      humidity: 45,
      min_humidity: 30,
      max_humidity: 80,
      current_humidity: 38,
      available_modes: ["normal", "auto"],
      mode: "normal",
      supported_features: 1,
    },
    { key: "humidifier", deviceType: 0x2b },
  ),
];
