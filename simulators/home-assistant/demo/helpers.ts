/**
 * What lives in HA itself rather than in devices: helpers, scripts, scenes, automations (one from YAML without an
 * id, so not in the registry), a template sensor without unique_id (a state only), people, zones, sun and weather.
 */

import { isoFromEpoch } from "../core/time.ts";
import type { HomeBuilder } from "../home-builder.ts";
import { WeatherFeature } from "../services/weather.ts";
import { sensorAttrs } from "./attributes.ts";

export function addHelpers(home: HomeBuilder, now: number): void {
  const ago = (minutes: number) => isoFromEpoch(now - minutes * 60);
  const later = (minutes: number) => isoFromEpoch(now + minutes * 60);

  home.entity({
    entity_id: "input_boolean.guest_mode",
    uniqueId: "guest_mode",
    name: "Guest mode",
    state: "off",
    icon: "mdi:account-multiple",
    attributes: { editable: true },
  });
  home.entity({
    entity_id: "input_boolean.vacation_mode",
    uniqueId: "vacation_mode",
    name: "Vacation mode",
    state: "off",
    labels: ["security"],
    attributes: { editable: true },
  });
  home.entity({
    entity_id: "input_select.house_mode",
    expose: { conversation: true },
    uniqueId: "house_mode",
    name: "House mode",
    state: "Home",
    labels: ["voice_assistants"],
    attributes: { options: ["Home", "Away", "Night", "Vacation"], editable: true },
  });
  home.entity({
    entity_id: "input_number.night_light_brightness",
    uniqueId: "night_light_brightness",
    name: "Night light brightness",
    state: "20.0",
    labels: ["night_mode"],
    attributes: {
      initial: null,
      editable: true,
      min: 0,
      max: 100,
      step: 5,
      mode: "slider",
      unit_of_measurement: "%",
    },
  });

  const script = (objectId: string, name: string, icon: string, lastRun: number | null, labels: string[] = []) =>
    home.entity({
      entity_id: `script.${objectId}`,
      uniqueId: objectId,
      name,
      state: "off",
      icon,
      labels,
      attributes: { last_triggered: lastRun === null ? null : ago(lastRun), mode: "single", current: 0 },
    });
  script("goodnight", "Goodnight", "mdi:weather-night", 620, ["night_mode", "voice_assistants"]);
  script("leave_home", "Leave home", "mdi:exit-run", 1500);
  script("morning_coffee", "Morning coffee", "mdi:coffee", null);

  const scene = (objectId: string, id: string, name: string, entities: string[], lastOn: number | null) =>
    home.entity({
      entity_id: `scene.${objectId}`,
      uniqueId: id,
      name,
      state: lastOn === null ? "unknown" : ago(lastOn),
      attributes: { entity_id: entities, id },
    });
  scene(
    "movie_night",
    "1717171717171",
    "Movie night",
    ["light.living_room_ceiling", "light.floor_lamp", "cover.living_room_blinds"],
    2880,
  );
  scene("good_morning", "1717171717172", "Good morning", ["light.bedside_lamp", "cover.bedroom_shade"], 600);

  const automation = (objectId: string, id: string | null, name: string, state: string, lastRun: number | null) =>
    home.entity({
      entity_id: `automation.${objectId}`,
      uniqueId: id,
      name,
      state,
      attributes: {
        last_triggered: lastRun === null ? null : ago(lastRun),
        mode: "single",
        current: 0,
        ...(id ? { id } : {}),
      },
    });
  automation("hallway_motion_light", "1717171717201", "Hallway motion light", "on", 7);
  automation("goodnight_routine", "1717171717202", "Goodnight routine", "on", 620);
  automation("vacation_lights", "1717171717203", "Vacation lights", "off", null);
  automation("porch_light_at_sunset", null, "Porch light at sunset", "on", 900);

  home.entity({
    entity_id: "sensor.outdoor_feels_like",
    expose: { conversation: true },
    uniqueId: null,
    name: "Outdoor feels like",
    state: "6.8",
    attributes: sensorAttrs("temperature", "°C"),
  });
  home.entity({
    entity_id: "sensor.house_power_balance",
    uniqueId: "house_power_balance",
    platform: "template",
    name: "House power balance",
    state: "-168.5",
    attributes: sensorAttrs("power", "W"),
  });
  home.entity({
    entity_id: "button.restart_router",
    uniqueId: "restart_router",
    platform: "template",
    name: "Restart router",
    state: ago(43200),
    deviceClass: "restart",
    attributes: { device_class: "restart" },
  });
  home.entity({
    entity_id: "event.hallway_switch_button",
    uniqueId: "hallway_switch_button",
    platform: "hue",
    name: "Hallway switch button 1",
    state: ago(30),
    deviceClass: "button",
    attributes: {
      event_types: ["initial_press", "repeat", "short_release", "long_press", "long_release"],
      event_type: "short_release",
      device_class: "button",
    },
  });

  home.entity({
    entity_id: "person.alex",
    uniqueId: "alex",
    platform: "person",
    name: "Alex",
    state: "home",
    attributes: {
      editable: true,
      id: "alex",
      device_trackers: ["device_tracker.alex_phone"],
      latitude: 52.3731,
      longitude: 4.8922,
      gps_accuracy: 14,
      source: "device_tracker.alex_phone",
      user_id: "3c8a1d4e9b0f4f6aa1e2d3c4b5a69788",
    },
  });
  home.entity({
    entity_id: "device_tracker.alex_phone",
    uniqueId: "alex_phone",
    platform: "mobile_app",
    name: "Alex's phone",
    state: "home",
    attributes: {
      source_type: "gps",
      battery_level: 71,
      latitude: 52.3731,
      longitude: 4.8922,
      gps_accuracy: 14,
      altitude: 3,
      course: 0,
      speed: 0,
      vertical_accuracy: 3,
    },
  });
  home.entity({
    entity_id: "zone.home",
    uniqueId: null,
    name: "Home",
    state: "1",
    icon: "mdi:home",
    attributes: { latitude: 52.3731, longitude: 4.8922, radius: 100, passive: false, persons: ["person.alex"], editable: true },
  });

  home.device({
    key: "sun",
    name: "Sun",
    manufacturer: "Home Assistant",
    model: "Sun",
    integration: "sun",
    entry_type: "service",
  });
  home.entity({
    entity_id: "sun.sun",
    uniqueId: "sun",
    platform: "sun",
    hasEntityName: false,
    name: "Sun",
    state: "above_horizon",
    attributes: {
      next_dawn: later(1200),
      next_dusk: later(300),
      next_midnight: later(700),
      next_noon: later(60),
      next_rising: later(1240),
      next_setting: later(260),
      elevation: 18.2,
      azimuth: 201.7,
      rising: false,
    },
  });
  home.entity({
    entity_id: "sensor.sun_next_setting",
    device: "sun",
    name: "Next setting",
    state: later(260),
    deviceClass: "timestamp",
    attributes: { device_class: "timestamp" },
  });

  home.device({
    key: "met",
    name: "Forecast Home",
    manufacturer: "Met.no",
    model: "Forecast",
    integration: "met",
    entry_type: "service",
  });
  home.entity({
    entity_id: "weather.forecast_home",
    device: "met",
    name: null,
    state: "partlycloudy",
    attributes: {
      temperature: 9.4,
      apparent_temperature: 6.8,
      dew_point: 4.1,
      temperature_unit: "°C",
      humidity: 70,
      cloud_coverage: 48,
      uv_index: 1.2,
      pressure: 1013.4,
      pressure_unit: "hPa",
      wind_bearing: 224.1,
      wind_gust_speed: 38.2,
      wind_speed: 21.6,
      wind_speed_unit: "km/h",
      visibility_unit: "km",
      precipitation_unit: "mm",
      attribution: "Weather forecast from met.no, delivered by the Norwegian Meteorological Institute.",
      supported_features: WeatherFeature.FORECAST_DAILY | WeatherFeature.FORECAST_HOURLY,
    },
  });
}
