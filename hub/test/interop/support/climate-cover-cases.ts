/**
 * Matrix rows for covers, climate and air: window coverings (positional with tilt, and open/close only), a
 * heating-only thermostat, a fan, a fan shown as air purifier and a dehumidifier shown as fan, on entities of the
 * simulated demo home. Expected values follow hub/src/matter/model/convert/ (lift 25 % closed = HA position 75;
 * a humidifier's percentage is its target within min_humidity..max_humidity).
 */
import { type DeviceCase, onOff } from "./device-case.ts";

export const CLIMATE_COVER_CASES: DeviceCase[] = [
  {
    key: "window_covering",
    variant: "lift and tilt, positions",
    source: { entityId: "cover.living_room_blinds" },
    deviceType: 0x0202,
    report: {
      change: { state: "open", attributes: { current_position: 40 } },
      cluster: "WindowCovering",
      attribute: "CurrentPositionLiftPercent100ths",
      expected: 6000,
    },
    commands: [
      {
        action: { invoke: "WindowCovering", command: "GoToLiftPercentage", args: { liftPercent100thsValue: 2500 } },
        effect: { ha: "cover.set_cover_position", data: { position: 75 } },
      },
      {
        action: { invoke: "WindowCovering", command: "GoToTiltPercentage", args: { tiltPercent100thsValue: 5000 } },
        effect: { ha: "cover.set_cover_tilt_position", data: { tilt_position: 50 } },
      },
      { action: { invoke: "WindowCovering", command: "StopMotion" }, effect: { ha: "cover.stop_cover" } },
      { action: { invoke: "WindowCovering", command: "DownOrClose" }, effect: { ha: "cover.close_cover" } },
      { action: { invoke: "WindowCovering", command: "UpOrOpen" }, effect: { ha: "cover.open_cover" } },
    ],
    errors: [
      {
        label: "GoToLiftPercentage 10001 (above 100.00 %)",
        action: { invoke: "WindowCovering", command: "GoToLiftPercentage", args: { liftPercent100thsValue: 10001 } },
        status: "ConstraintError",
      },
    ],
  },
  {
    key: "window_covering",
    variant: "open/close only",
    source: { entityId: "cover.garage_door" },
    deviceType: 0x0202,
    report: {
      change: { state: "open" },
      cluster: "WindowCovering",
      attribute: "CurrentPositionLiftPercent100ths",
      expected: 0,
    },
    commands: [
      { action: { invoke: "WindowCovering", command: "DownOrClose" }, effect: { ha: "cover.close_cover" } },
      {
        action: { invoke: "WindowCovering", command: "GoToLiftPercentage", args: { liftPercent100thsValue: 2000 } },
        effect: { ha: "cover.open_cover" },
      },
      { action: { invoke: "WindowCovering", command: "UpOrOpen" }, effect: { ha: "cover.open_cover" } },
    ],
    errors: [
      {
        label: "StopMotion on a cover that cannot stop",
        action: { invoke: "WindowCovering", command: "StopMotion" },
        status: "UnsupportedCommand",
      },
      {
        label: "GoToTiltPercentage on a cover without tilt",
        action: { invoke: "WindowCovering", command: "GoToTiltPercentage", args: { tiltPercent100thsValue: 5000 } },
        status: "UnsupportedCommand",
      },
    ],
  },
  {
    key: "thermostat",
    variant: "heating only",
    source: { entityId: "climate.bedroom_radiator" },
    deviceType: 0x0301,
    report: {
      change: { state: "heat", attributes: { current_temperature: 19.5 } },
      cluster: "Thermostat",
      attribute: "LocalTemperature",
      expected: 1950,
    },
    commands: [
      {
        action: { invoke: "Thermostat", command: "SetpointRaiseLower", args: { mode: 0, amount: 10 } },
        effect: { ha: "climate.set_temperature", data: { temperature: 21.5 } },
      },
      {
        action: { write: "Thermostat", attribute: "OccupiedHeatingSetpoint", value: 2200 },
        effect: { ha: "climate.set_temperature", data: { temperature: 22 } },
      },
      {
        action: { write: "Thermostat", attribute: "SystemMode", value: 0 },
        effect: { ha: "climate.set_hvac_mode", data: { hvac_mode: "off" } },
      },
    ],
    errors: [
      {
        label: "SystemMode Cool on a heating-only thermostat",
        action: { write: "Thermostat", attribute: "SystemMode", value: 3 },
        status: "ConstraintError",
      },
      {
        label: "SetpointRaiseLower of the cooling setpoint",
        action: { invoke: "Thermostat", command: "SetpointRaiseLower", args: { mode: 1, amount: 10 } },
        status: "ConstraintError",
      },
    ],
  },
  {
    key: "fan",
    variant: "10 speeds, oscillating",
    source: { entityId: "fan.office_desk_fan" },
    deviceType: 0x002b,
    report: {
      change: { state: "on", attributes: { percentage: 70 } },
      cluster: "FanControl",
      attribute: "PercentCurrent",
      expected: 70,
    },
    commands: [
      {
        action: { write: "FanControl", attribute: "PercentSetting", value: 50 },
        effect: { ha: "fan.set_percentage", data: { percentage: 50 } },
      },
      {
        action: { invoke: "FanControl", command: "Step", args: { direction: 0, wrap: false, lowestOff: true } },
        effect: { ha: "fan.set_percentage" },
      },
      {
        action: { write: "FanControl", attribute: "RockSetting", value: 0 },
        effect: { ha: "fan.oscillate", data: { oscillating: false } },
      },
      { action: onOff("Off"), effect: { ha: "fan.turn_off" } },
      { action: onOff("On"), effect: { ha: "fan.turn_on" } },
      { action: onOff("Toggle"), effect: { ha: "fan.turn_off" } },
    ],
    errors: [
      {
        label: "PercentSetting 101",
        action: { write: "FanControl", attribute: "PercentSetting", value: 101 },
        status: "ConstraintError",
      },
      {
        label: "FanMode Auto on a fan without an automatic preset",
        action: { write: "FanControl", attribute: "FanMode", value: 5 },
        status: "ConstraintError",
      },
    ],
  },
  {
    key: "air_purifier",
    variant: "fan shown as purifier",
    source: { entityId: "fan.living_room_air_purifier", override: "air_purifier" },
    deviceType: 0x002d,
    report: {
      change: { state: "on", attributes: { percentage: 60, preset_mode: null } },
      cluster: "FanControl",
      attribute: "PercentCurrent",
      expected: 60,
    },
    commands: [
      {
        action: { write: "FanControl", attribute: "FanMode", value: 5 },
        effect: { ha: "fan.set_preset_mode", data: { preset_mode: "Auto" } },
      },
      {
        action: { write: "FanControl", attribute: "SpeedSetting", value: 2 },
        effect: { ha: "fan.set_percentage", data: { percentage: 40 } },
      },
      {
        action: { invoke: "FanControl", command: "Step", args: { direction: 0, wrap: false, lowestOff: true } },
        effect: { ha: "fan.set_percentage", data: { percentage: 60 } },
      },
      { action: onOff("Off"), effect: { ha: "fan.turn_off" } },
      { action: onOff("On"), effect: { ha: "fan.turn_on" } },
      { action: onOff("Toggle"), effect: { ha: "fan.turn_off" } },
    ],
    errors: [
      {
        label: "SpeedSetting 9 (above SpeedMax 5)",
        action: { write: "FanControl", attribute: "SpeedSetting", value: 9 },
        status: "ConstraintError",
      },
    ],
  },
  {
    key: "humidifier",
    variant: "dehumidifier as fan",
    source: { entityId: "humidifier.laundry_dehumidifier" },
    deviceType: 0x002b,
    report: {
      change: { state: "on", attributes: { current_humidity: 61 } },
      cluster: "RelativeHumidityMeasurement",
      attribute: "MeasuredValue",
      expected: 6100,
    },
    commands: [
      { action: onOff("On"), effect: { ha: "humidifier.turn_on" } },
      {
        action: { write: "FanControl", attribute: "PercentSetting", value: 50 },
        effect: { ha: "humidifier.set_humidity", data: { humidity: 60 } },
      },
      { action: onOff("Off"), effect: { ha: "humidifier.turn_off" } },
      { action: onOff("Toggle"), effect: { ha: "humidifier.turn_on" } },
    ],
    errors: [
      {
        label: "PercentSetting 101",
        action: { write: "FanControl", attribute: "PercentSetting", value: 101 },
        status: "ConstraintError",
      },
    ],
  },
];
