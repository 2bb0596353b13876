/**
 * Heating, cooling, fans and humidity. The Ecobee is configured in °F: HA converts its values into
 * the home's °C, which gives the odd ranges and steps a °F device shows in a metric home.
 */

import type { HomeBuilder } from "../home-builder.ts";
import { ClimateFeature as C, HumidifierFeature } from "../services/climate.ts";
import { FanFeature as F } from "../services/fan.ts";
import { sensorAttrs } from "./attributes.ts";

export function addComfort(home: HomeBuilder): void {
  home.device({
    key: "ecobee",
    name: "Living Room Thermostat",
    manufacturer: "ecobee",
    model: "Smart Thermostat Premium",
    model_id: "EB-STATE6P-01",
    integration: "ecobee",
    area: "living_room",
    sw_version: "4.8.7.119",
    labels: ["voice_assistants"],
  });
  home.entity({
    entity_id: "climate.living_room_thermostat",
    expose: { conversation: true, "cloud.alexa": true, "cloud.google_assistant": true },
    device: "ecobee",
    name: null,
    state: "heat_cool",
    labels: ["voice_assistants"],
    attributes: {
      hvac_modes: ["heat_cool", "heat", "cool", "off"],
      min_temp: 7.2,
      max_temp: 33.3,
      fan_modes: ["auto", "on"],
      preset_modes: ["home", "away", "sleep", "temp"],
      current_temperature: 21.7,
      target_temp_high: 24.4,
      target_temp_low: 20.0,
      current_humidity: 44,
      fan_mode: "auto",
      hvac_action: "idle",
      preset_mode: "home",
      supported_features: C.TARGET_TEMPERATURE | C.TARGET_TEMPERATURE_RANGE | C.FAN_MODE | C.PRESET_MODE | C.TURN_OFF | C.TURN_ON,
    },
  });
  home.entity({
    entity_id: "binary_sensor.living_room_thermostat_occupancy",
    device: "ecobee",
    name: "Occupancy",
    state: "on",
    deviceClass: "occupancy",
    attributes: { device_class: "occupancy" },
  });

  home.device({
    key: "bedroom_trv",
    name: "Bedroom Radiator",
    manufacturer: "Aqara",
    model: "Radiator Thermostat E1",
    model_id: "lumi.airrtc.agl001",
    integration: "zha",
    area: "bedroom",
    via: "zigbee_coordinator",
    connection: "zigbee",
    labels: ["night_mode"],
  });
  home.entity({
    entity_id: "climate.bedroom_radiator",
    device: "bedroom_trv",
    name: null,
    state: "heat",
    attributes: {
      hvac_modes: ["heat", "off"],
      min_temp: 5,
      max_temp: 30,
      target_temp_step: 0.5,
      preset_modes: ["none", "away", "schedule"],
      current_temperature: 18.5,
      temperature: 20.5,
      hvac_action: "heating",
      preset_mode: "none",
      supported_features: C.TARGET_TEMPERATURE | C.PRESET_MODE | C.TURN_OFF | C.TURN_ON,
    },
  });
  home.entity({
    entity_id: "number.bedroom_radiator_temperature_offset",
    device: "bedroom_trv",
    name: "Temperature offset",
    category: "config",
    state: "0.0",
    attributes: { min: -5, max: 5, step: 0.5, mode: "box", unit_of_measurement: "°C", device_class: "temperature" },
  });
  home.entity({
    entity_id: "sensor.bedroom_radiator_battery",
    device: "bedroom_trv",
    name: "Battery",
    category: "diagnostic",
    state: "82",
    deviceClass: "battery",
    attributes: sensorAttrs("battery", "%"),
  });

  home.device({
    key: "office_ac",
    name: "Office Air Conditioner",
    manufacturer: "Daikin",
    model: "FTXM25R",
    integration: "daikin",
    area: "office",
    sw_version: "1.14.88",
    connection: "mac",
  });
  home.entity({
    entity_id: "climate.office_air_conditioner",
    device: "office_ac",
    name: null,
    state: "off",
    attributes: {
      hvac_modes: ["off", "cool", "dry", "fan_only"],
      min_temp: 18,
      max_temp: 32,
      target_temp_step: 1,
      fan_modes: ["auto", "silence", "1", "2", "3", "4", "5"],
      swing_modes: ["off", "vertical", "horizontal", "3d"],
      current_temperature: 24.5,
      temperature: 23,
      hvac_action: "off",
      fan_mode: "auto",
      swing_mode: "off",
      supported_features: C.TARGET_TEMPERATURE | C.FAN_MODE | C.SWING_MODE | C.TURN_OFF | C.TURN_ON,
    },
  });

  home.device({
    key: "heat_pump",
    name: "Dining Heat Pump",
    manufacturer: "Mitsubishi Electric",
    model: "MSZ-LN35VG",
    integration: "melcloud",
    area: "dining_room",
    sw_version: "33.00",
  });
  home.entity({
    entity_id: "climate.dining_heat_pump",
    device: "heat_pump",
    name: null,
    state: "auto",
    attributes: {
      hvac_modes: ["off", "heat", "cool", "auto", "dry", "fan_only"],
      min_temp: 10,
      max_temp: 31,
      target_temp_step: 0.5,
      fan_modes: ["auto", "1", "2", "3", "4", "5"],
      current_temperature: 20.0,
      temperature: 21.0,
      fan_mode: "auto",
      hvac_action: "heating",
      supported_features: C.TARGET_TEMPERATURE | C.FAN_MODE | C.TURN_OFF | C.TURN_ON,
    },
  });

  home.device({
    key: "ceiling_fan",
    name: "Bedroom Ceiling Fan",
    manufacturer: "Hunter Fan",
    model: "Signal 54",
    integration: "bond",
    area: "bedroom",
    sw_version: "v3.12.4",
  });
  home.entity({
    entity_id: "fan.bedroom_ceiling_fan",
    device: "ceiling_fan",
    name: null,
    state: "off",
    labels: ["night_mode"],
    attributes: {
      direction: "forward",
      percentage: 0,
      percentage_step: 100 / 6,
      supported_features: F.SET_SPEED | F.DIRECTION | F.TURN_OFF | F.TURN_ON,
    },
  });

  home.device({
    key: "purifier",
    name: "Living Room Air Purifier",
    manufacturer: "Xiaomi",
    model: "Smart Air Purifier 4",
    model_id: "zhimi.airp.mb5",
    integration: "xiaomi_miio",
    area: "living_room",
    sw_version: "2.1.8",
    connection: "mac",
  });
  home.entity({
    entity_id: "fan.living_room_air_purifier",
    device: "purifier",
    name: null,
    state: "on",
    attributes: {
      preset_modes: ["Auto", "Sleep", "Favorite", "Fan"],
      percentage: 40,
      percentage_step: 20,
      preset_mode: "Auto",
      supported_features: F.SET_SPEED | F.PRESET_MODE | F.TURN_OFF | F.TURN_ON,
    },
  });
  home.entity({
    entity_id: "sensor.living_room_air_purifier_pm2_5",
    device: "purifier",
    name: "PM2.5",
    state: "9",
    deviceClass: "pm25",
    attributes: sensorAttrs("pm25", "µg/m³"),
  });
  home.entity({
    entity_id: "sensor.living_room_air_purifier_filter_life_remaining",
    device: "purifier",
    name: "Filter life remaining",
    category: "diagnostic",
    state: "73",
    attributes: { state_class: "measurement", unit_of_measurement: "%", icon: "mdi:air-filter" },
  });

  home.device({
    key: "desk_fan",
    name: "Office Desk Fan",
    manufacturer: "Dyson",
    model: "Pure Cool Tower TP07",
    integration: "dyson_local",
    area: "office",
  });
  home.entity({
    entity_id: "fan.office_desk_fan",
    device: "desk_fan",
    name: null,
    state: "on",
    attributes: {
      oscillating: true,
      percentage: 30,
      percentage_step: 10,
      supported_features: F.SET_SPEED | F.OSCILLATE | F.TURN_OFF | F.TURN_ON,
    },
  });

  home.device({
    key: "humidifier",
    name: "Bedroom Humidifier",
    manufacturer: "Levoit",
    model: "OasisMist 450S",
    model_id: "LUH-O451S-WEU",
    integration: "vesync",
    area: "bedroom",
  });
  home.entity({
    entity_id: "humidifier.bedroom_humidifier",
    device: "humidifier",
    name: null,
    state: "on",
    deviceClass: "humidifier",
    attributes: {
      min_humidity: 30,
      max_humidity: 80,
      available_modes: ["auto", "sleep", "manual"],
      action: "humidifying",
      current_humidity: 38,
      humidity: 45,
      mode: "auto",
      device_class: "humidifier",
      supported_features: HumidifierFeature.MODES,
    },
  });

  home.device({
    key: "dehumidifier",
    name: "Laundry Dehumidifier",
    manufacturer: "Midea",
    model: "MAD22S1QWT",
    integration: "midea_dehumidifier_lan",
    area: "laundry",
  });
  home.entity({
    entity_id: "humidifier.laundry_dehumidifier",
    device: "dehumidifier",
    name: null,
    state: "off",
    deviceClass: "dehumidifier",
    attributes: {
      min_humidity: 35,
      max_humidity: 85,
      available_modes: ["Set", "Dry", "Smart", "Continuous"],
      action: "off",
      current_humidity: 67,
      humidity: 55,
      mode: "Smart",
      device_class: "dehumidifier",
      supported_features: HumidifierFeature.MODES,
    },
  });
}
