/**
 * Demo fixtures for sensors, binary sensors, media players, vacuums, valves, selects, events, water heaters and the
 * domains the table leaves unsupported.
 */
import { type DemoFixture, fixture } from "./demo-fixtures.ts";

/** Sensors, binary sensors, media, vacuum, valves, selects, events, water heaters, unsupported domains. */
export const SENSOR_FIXTURES: DemoFixture[] = [
  // Sensors
  fixture(
    "sensor.outdoor_temperature",
    "4.2",
    { device_class: "temperature", unit_of_measurement: "°C" },
    { key: "temperature_sensor", deviceType: 0x302 },
  ),
  fixture(
    "sensor.attic_temperature",
    "98.6",
    { device_class: "temperature", unit_of_measurement: "°F" },
    { key: "temperature_sensor", deviceType: 0x302 },
  ),
  fixture(
    "sensor.living_room_humidity",
    "48.3",
    { device_class: "humidity", unit_of_measurement: "%" },
    { key: "humidity_sensor", deviceType: 0x307 },
  ),
  fixture(
    "sensor.plant_moisture",
    "33",
    { device_class: "moisture", unit_of_measurement: "%" },
    { key: "humidity_sensor", deviceType: 0x307 },
  ),
  fixture(
    "sensor.outdoor_pressure",
    "1013.25",
    { device_class: "atmospheric_pressure", unit_of_measurement: "hPa" },
    { key: "pressure_sensor", deviceType: 0x305 },
  ),
  fixture(
    "sensor.water_pressure",
    "43.5",
    { device_class: "pressure", unit_of_measurement: "psi" },
    { key: "pressure_sensor", deviceType: 0x305 },
  ),
  fixture(
    "sensor.water_flow",
    "12",
    { device_class: "volume_flow_rate", unit_of_measurement: "L/min" },
    { key: "flow_sensor", deviceType: 0x306 },
  ),
  fixture(
    "sensor.garden_illuminance",
    "1000",
    { device_class: "illuminance", unit_of_measurement: "lx" },
    { key: "light_sensor", deviceType: 0x106 },
  ),
  fixture(
    "sensor.living_room_co2",
    "820",
    { device_class: "carbon_dioxide", unit_of_measurement: "ppm" },
    { key: "air_quality_sensor", deviceType: 0x2c },
  ),
  fixture(
    "sensor.living_room_pm25",
    "8",
    { device_class: "pm25", unit_of_measurement: "µg/m³" },
    { key: "air_quality_sensor", deviceType: 0x2c },
  ),
  fixture(
    "sensor.living_room_pm10",
    "20",
    { device_class: "pm10", unit_of_measurement: "µg/m³" },
    { key: "air_quality_sensor", deviceType: 0x2c },
  ),
  fixture(
    "sensor.living_room_tvoc",
    "250",
    { device_class: "volatile_organic_compounds", unit_of_measurement: "µg/m³" },
    { key: "air_quality_sensor", deviceType: 0x2c },
  ),
  fixture("sensor.outdoor_aqi", "42", { device_class: "aqi" }, { key: "air_quality_sensor", deviceType: 0x2c }),
  fixture(
    "sensor.washer_power",
    "1200",
    { device_class: "power", unit_of_measurement: "W" },
    { key: "electrical_sensor", deviceType: 0x510 },
  ),
  fixture("sensor.washer_volts", "231", { device_class: "voltage", unit_of_measurement: "V" }, { unsupported: "voltage" }),
  fixture("sensor.washer_power_hp", "2", { device_class: "power", unit_of_measurement: "hp" }, { unsupported: "unit" }),
  fixture("sensor.phone_battery", "80", { device_class: "battery", unit_of_measurement: "%" }, { unsupported: "battery" }),
  fixture("sensor.uptime", "12 days", {}, { unsupported: "device class" }),
  // Binary sensors
  fixture("binary_sensor.front_door", "off", { device_class: "door" }, { key: "contact_sensor", deviceType: 0x15 }),
  fixture("binary_sensor.kitchen_window", "on", { device_class: "window" }, { key: "contact_sensor", deviceType: 0x15 }),
  fixture("binary_sensor.garage_door", "off", { device_class: "garage_door" }, { key: "contact_sensor", deviceType: 0x15 }),
  fixture("binary_sensor.mailbox", "off", { device_class: "opening" }, { key: "contact_sensor", deviceType: 0x15 }),
  fixture(
    "binary_sensor.hallway_motion",
    "on",
    { device_class: "motion" },
    { key: "occupancy_sensor", deviceType: 0x107, features: { occupancySensing: ["passiveInfrared"] } },
  ),
  fixture("binary_sensor.office_occupancy", "off", { device_class: "occupancy" }, { key: "occupancy_sensor", deviceType: 0x107 }),
  fixture("binary_sensor.bedroom_presence", "on", { device_class: "presence" }, { key: "occupancy_sensor", deviceType: 0x107 }),
  fixture("binary_sensor.washer_leak", "off", { device_class: "moisture" }, { key: "water_leak_detector", deviceType: 0x43 }),
  fixture(
    "binary_sensor.hallway_smoke",
    "off",
    { device_class: "smoke" },
    { key: "smoke_co_alarm", deviceType: 0x76, features: { smokeCoAlarm: ["smokeAlarm"] } },
  ),
  fixture(
    "binary_sensor.boiler_co",
    "off",
    { device_class: "carbon_monoxide" },
    { key: "smoke_co_alarm", deviceType: 0x76, features: { smokeCoAlarm: ["coAlarm"] } },
  ),
  fixture("binary_sensor.kitchen_gas", "off", { device_class: "gas" }, { key: "smoke_co_alarm", deviceType: 0x76 }),
  fixture("binary_sensor.nas_problem", "off", { device_class: "problem" }, { key: "contact_sensor", deviceType: 0x15 }),
  fixture("binary_sensor.workday", "on", {}, { key: "contact_sensor", deviceType: 0x15 }),
  // Media, vacuum, valve, selects, events
  fixture(
    "media_player.living_room_speaker",
    "playing",
    { supported_features: 4 + 8 + 128 + 256, volume_level: 0.35, is_volume_muted: false },
    { key: "speaker", deviceType: 0x22 },
  ),
  fixture("media_player.bedroom_tv", "off", { supported_features: 128 + 256 }, { key: "speaker", deviceType: 0x22 }),
  fixture("media_player.web_stream", "idle", { supported_features: 1 }, { unsupported: "volume" }),
  fixture(
    "vacuum.robot",
    "docked",
    { supported_features: 4 + 8 + 16 + 8192, battery_level: 100 },
    { key: "robotic_vacuum_cleaner", deviceType: 0x74 },
  ),
  fixture(
    "valve.garden_irrigation",
    "closed",
    { supported_features: 1 + 2 + 4, current_position: 0 },
    { key: "water_valve", deviceType: 0x42, features: { valveConfigurationAndControl: ["level"] } },
  ),
  fixture("valve.main_water", "open", { supported_features: 3 }, { key: "water_valve", deviceType: 0x42 }),
  fixture("select.heat_pump_mode", "eco", { options: ["eco", "comfort", "boost"] }, { key: "mode_select", deviceType: 0x27 }),
  fixture("input_select.house_mode", "home", { options: ["home", "away", "night"] }, { key: "mode_select", deviceType: 0x27 }),
  fixture(
    "event.doorbell",
    "2026-11-21T18:00:00.000+00:00",
    { event_types: ["ring"], event_type: "ring", device_class: "doorbell" },
    { key: "generic_switch", deviceType: 0x0f },
  ),
  fixture(
    "event.hallway_remote",
    "unknown",
    { event_types: ["single", "double", "long"], device_class: "button" },
    { key: "generic_switch", deviceType: 0x0f },
  ),
  // Water heaters
  fixture(
    "water_heater.boiler",
    "eco",
    {
      operation_list: ["eco", "electric", "high_demand", "off"],
      operation_mode: "eco",
      current_temperature: 48,
      temperature: 55,
      min_temp: 40,
      max_temp: 65,
      supported_features: 1 + 2 + 8,
    },
    { key: "water_heater", deviceType: 0x50f, features: { thermostat: ["heating"] } },
  ),
  // Not mapped here
  fixture("alarm_control_panel.home", "disarmed", { code_arm_required: true }, { unsupported: "security plugin" }),
  fixture("camera.front_door", "idle", {}, { unsupported: "camera plugin" }),
  fixture("number.target_humidity", "45", {}, { unsupported: "no Matter device type" }),
  fixture("weather.home", "sunny", { temperature: 12 }, { unsupported: "no Matter device type" }),
];
