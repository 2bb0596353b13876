/**
 * Matrix row for the Water Heater (0x050F) on the simulated demo home's hot water tank (HA's demo modes: eco,
 * electric, performance, high_demand, heat_pump, gas, off; 43.3-60 °C; every feature). Expected values follow
 * hub/src/matter/model/convert/water-heater.ts (mode = position in `operation_list`) and temperature.ts.
 */
import type { DeviceCase } from "./device-case.ts";

const HEAT_PUMP = 4;

export const WATER_HEATER_CASES: DeviceCase[] = [
  {
    key: "water_heater",
    variant: "water heater with HA's demo modes",
    source: { entityId: "water_heater.hot_water_tank" },
    deviceType: 0x050f,
    report: {
      change: { state: "eco", attributes: { current_temperature: 50.5 } },
      cluster: "Thermostat",
      attribute: "LocalTemperature",
      expected: 5050,
    },
    commands: [
      {
        action: { invoke: "WaterHeaterMode", command: "ChangeToMode", args: { newMode: HEAT_PUMP } },
        effect: { ha: "water_heater.set_operation_mode", data: { operation_mode: "heat_pump" } },
        response: { status: 0 },
      },
      {
        action: { write: "Thermostat", attribute: "OccupiedHeatingSetpoint", value: 5500 },
        effect: { ha: "water_heater.set_temperature", data: { temperature: 55 } },
      },
      {
        action: { invoke: "Thermostat", command: "SetpointRaiseLower", args: { mode: 0, amount: 10 } },
        effect: { ha: "water_heater.set_temperature", data: { temperature: 56 } },
      },
      {
        action: { invoke: "WaterHeaterManagement", command: "Boost", args: { boostInfo: { duration: 3600 } } },
        effect: { ha: "water_heater.set_operation_mode", data: { operation_mode: "high_demand" } },
      },
      {
        action: { invoke: "WaterHeaterManagement", command: "CancelBoost" },
        effect: { ha: "water_heater.set_operation_mode", data: { operation_mode: "heat_pump" } },
      },
      {
        action: { write: "Thermostat", attribute: "SystemMode", value: 0 },
        effect: { ha: "water_heater.turn_off" },
      },
      {
        action: { write: "Thermostat", attribute: "SystemMode", value: 4 },
        effect: { ha: "water_heater.turn_on" },
      },
    ],
    errors: [
      {
        label: "ChangeToMode to a mode that does not exist",
        action: { invoke: "WaterHeaterMode", command: "ChangeToMode", args: { newMode: 42 } },
        response: { status: 1 },
      },
      {
        label: "OccupiedHeatingSetpoint 90 °C (above MaxHeatSetpointLimit 60 °C)",
        action: { write: "Thermostat", attribute: "OccupiedHeatingSetpoint", value: 9000 },
        status: "ConstraintError",
      },
      {
        label: "SystemMode Cool on a water heater",
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
];
