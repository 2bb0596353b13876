/**
 * Matrix rows for the read-only HA domains (sensors, binary sensors, event entities). They take no commands; their
 * error path is a controller writing a value the device reports, which must be refused without touching HA.
 * Expected values are in the units of the Matter measurement clusters (hub/src/matter/model/convert/).
 */
import type { BadArgumentCase, DeviceCase } from "./device-case.ts";

/** A controller writing a reported (read-only) attribute. */
const readOnly = (cluster: string, attribute: string, value: unknown): BadArgumentCase => ({
  label: `write to the read-only ${attribute}`,
  action: { write: cluster, attribute, value },
  status: "UnsupportedWrite",
});

/** A measurement sensor: the HA state `state` must report `expected` as `cluster`'s MeasuredValue. */
function measurement(
  key: DeviceCase["key"],
  deviceType: number,
  entityId: string,
  cluster: string,
  state: string,
  expected: number,
): DeviceCase {
  return {
    key,
    variant: "sensor",
    source: { entityId },
    deviceType,
    report: { change: { state }, cluster, attribute: "MeasuredValue", expected },
    commands: [],
    errors: [readOnly(cluster, "MeasuredValue", expected)],
    notes: "read-only",
  };
}

export const SENSOR_CASES: DeviceCase[] = [
  measurement("temperature_sensor", 0x0302, "sensor.living_room_sensor_temperature", "TemperatureMeasurement", "23.45", 2345),
  measurement("humidity_sensor", 0x0307, "sensor.living_room_sensor_humidity", "RelativeHumidityMeasurement", "55.5", 5550),
  measurement("pressure_sensor", 0x0305, "sensor.living_room_sensor_pressure", "PressureMeasurement", "1000", 1000),
  // L/min → 0.1 m³/h: 10 L/min = 0.6 m³/h.
  measurement("flow_sensor", 0x0306, "sensor.water_meter_active_water_usage", "FlowMeasurement", "10", 6),
  // 10000 × log10(lux) + 1.
  measurement("light_sensor", 0x0106, "sensor.hallway_motion_illuminance", "IlluminanceMeasurement", "1000", 30001),
  {
    key: "air_quality_sensor",
    variant: "sensor, CO2",
    source: { entityId: "sensor.office_air_quality_carbon_dioxide" },
    deviceType: 0x002c,
    // CO2 breakpoints (ppm): ≤750 Good, ≤1000 Fair, ≤1500 Moderate, ≤2000 Poor.
    report: { change: { state: "1600" }, cluster: "AirQuality", attribute: "AirQuality", expected: 4 },
    commands: [],
    errors: [readOnly("CarbonDioxideConcentrationMeasurement", "MeasuredValue", 5)],
    notes: "read-only",
  },
  {
    key: "occupancy_sensor",
    variant: "binary_sensor, motion",
    source: { entityId: "binary_sensor.hallway_motion" },
    deviceType: 0x0107,
    report: { change: { state: "on" }, cluster: "OccupancySensing", attribute: "Occupancy", expected: 1 },
    commands: [],
    errors: [readOnly("OccupancySensing", "Occupancy", 1)],
    notes: "read-only",
  },
  {
    key: "contact_sensor",
    variant: "binary_sensor, door",
    source: { entityId: "binary_sensor.front_door_contact" },
    deviceType: 0x0015,
    // HA `on` = open = no contact: StateValue false (Device Library §7.1).
    report: { change: { state: "on" }, cluster: "BooleanState", attribute: "StateValue", expected: false },
    commands: [],
    errors: [readOnly("BooleanState", "StateValue", true)],
    notes: "read-only",
  },
  {
    key: "water_leak_detector",
    variant: "binary_sensor, moisture",
    source: { entityId: "binary_sensor.kitchen_leak" },
    deviceType: 0x0043,
    report: { change: { state: "on" }, cluster: "BooleanState", attribute: "StateValue", expected: true },
    commands: [],
    errors: [readOnly("BooleanState", "StateValue", false)],
    notes: "read-only",
  },
  {
    key: "smoke_co_alarm",
    variant: "binary_sensor, smoke",
    source: { entityId: "binary_sensor.hallway_smoke" },
    deviceType: 0x0076,
    // The alarm event is what controllers turn into a push notification.
    report: { change: { state: "on" }, cluster: "SmokeCoAlarm", event: "SmokeAlarm", expected: { alarmSeverityLevel: 2 } },
    commands: [],
    errors: [readOnly("SmokeCoAlarm", "SmokeState", 0)],
    notes: "read-only",
  },
  {
    key: "on_off_sensor",
    variant: "binary_sensor shown as on/off sensor",
    source: { entityId: "binary_sensor.ev_charger_car_connected", override: "on_off_sensor" },
    deviceType: 0x0850,
    report: { change: { state: "off" }, cluster: "OnOff", attribute: "OnOff", expected: false },
    commands: [],
    errors: (["On", "Off", "Toggle"] as const).map((command) => ({
      label: `${command} for a read-only binary sensor`,
      action: { invoke: "OnOff", command },
      status: "UnsupportedCommand",
    })),
    notes: "read-only",
  },
  {
    key: "generic_switch",
    variant: "event, button",
    source: { entityId: "event.hallway_switch_button" },
    deviceType: 0x000f,
    // A new HA event (a new state timestamp) is one press: InitialPress, ShortRelease, MultiPressComplete.
    report: {
      change: { state: "2031-01-01T10:00:00.000+00:00", attributes: { event_type: "short_release" } },
      cluster: "Switch",
      event: "MultiPressComplete",
      expected: { totalNumberOfPressesCounted: 1 },
    },
    commands: [],
    errors: [readOnly("Switch", "CurrentPosition", 1)],
    notes: "read-only; reports are Matter events",
  },
];
