/**
 * Matrix rows for composed devices (issue 19, docs/decisions.md "Composed devices"): a device whose endpoint carries
 * the battery or meter readings of other HA entities of its device, read and reported in the units of Power Source
 * (half-percent) and Electrical Power/Energy Measurement (mW, mV, mA, mWh), and a meter with nothing to switch as an
 * Electrical Sensor. The changes are made on the companion entities (`change.entityId`); the values are the demo
 * home's (simulators/home-assistant/demo/security.ts, energy.ts, solar.ts).
 */
import type { BadArgumentCase, DeviceCase } from "./device-case.ts";
import { lightingOnOff } from "./light-plug-cases.ts";

const POWER_SOURCE = 0x0011;
const ELECTRICAL_SENSOR = 0x0510;

/** A controller writing a reported (read-only) attribute: refused, HA untouched. */
const readOnly = (cluster: string, attribute: string, value: unknown): BadArgumentCase => ({
  label: `write to the read-only ${attribute}`,
  action: { write: cluster, attribute, value },
  status: "UnsupportedWrite",
});

export const COMPOSED_CASES: DeviceCase[] = [
  {
    key: "door_lock",
    variant: "lock carrying its battery",
    source: { entityId: "lock.shed" },
    deviceType: 0x000a,
    composedDeviceTypes: [POWER_SOURCE],
    // 15 % in HA: 30 half-percent, and at most 20 % is a warning.
    reads: [
      { cluster: "PowerSource", attribute: "BatPercentRemaining", expected: 30 },
      { cluster: "PowerSource", attribute: "BatChargeLevel", expected: 1 },
    ],
    report: {
      change: { entityId: "sensor.shed_lock_battery", state: "42.5" },
      cluster: "PowerSource",
      attribute: "BatPercentRemaining",
      expected: 85,
    },
    commands: [
      // No hub PIN for this lock: a remote unlock needs none.
      { action: { invoke: "DoorLock", command: "UnlockDoor", timedMs: 5000 }, effect: { ha: "lock.unlock" } },
      { action: { invoke: "DoorLock", command: "LockDoor", timedMs: 5000 }, effect: { ha: "lock.lock" } },
    ],
    errors: [readOnly("PowerSource", "BatPercentRemaining", 200)],
  },
  {
    key: "on_off_plugin_unit",
    variant: "switch, metered plug carrying power, energy, voltage, current",
    source: { entityId: "switch.coffee_machine" },
    deviceType: 0x010a,
    composedDeviceTypes: [ELECTRICAL_SENSOR],
    // 171.3 W, 231.4 V, 0.742 A, 48.213 kWh.
    reads: [
      { cluster: "ElectricalPowerMeasurement", attribute: "ActivePower", expected: 171_300 },
      { cluster: "ElectricalPowerMeasurement", attribute: "Voltage", expected: 231_400 },
      { cluster: "ElectricalPowerMeasurement", attribute: "ActiveCurrent", expected: 742 },
      { cluster: "ElectricalEnergyMeasurement", attribute: "CumulativeEnergyImported", expected: { energy: 48_213_000 } },
    ],
    report: [
      {
        change: { entityId: "sensor.coffee_machine_power", state: "250.5" },
        cluster: "ElectricalPowerMeasurement",
        attribute: "ActivePower",
        expected: 250_500,
      },
      {
        change: { entityId: "sensor.coffee_machine_energy", state: "48.5" },
        cluster: "ElectricalEnergyMeasurement",
        attribute: "CumulativeEnergyImported",
        expected: { energy: 48_500_000 },
      },
    ],
    commands: lightingOnOff({ ha: "switch.turn_on" }, { ha: "switch.turn_off" }),
    errors: [
      {
        label: "MoveToLevel on a device without LevelControl",
        action: { invoke: "LevelControl", command: "MoveToLevel", args: { level: 100 } },
        status: "UnsupportedCluster",
      },
      readOnly("ElectricalPowerMeasurement", "ActivePower", 0),
    ],
  },
  {
    key: "electrical_sensor",
    variant: "sensor, solar inverter carrying its energy and voltage",
    source: { entityId: "sensor.solar_inverter_pv_power" },
    deviceType: ELECTRICAL_SENSOR,
    // 1840 W, 232.8 V, 9421.374 kWh.
    reads: [
      { cluster: "ElectricalPowerMeasurement", attribute: "ActivePower", expected: 1_840_000 },
      { cluster: "ElectricalPowerMeasurement", attribute: "Voltage", expected: 232_800 },
      { cluster: "ElectricalEnergyMeasurement", attribute: "CumulativeEnergyImported", expected: { energy: 9_421_374_000 } },
    ],
    report: [
      { change: { state: "2500" }, cluster: "ElectricalPowerMeasurement", attribute: "ActivePower", expected: 2_500_000 },
      {
        change: { entityId: "sensor.solar_inverter_total_yield", state: "9422.5" },
        cluster: "ElectricalEnergyMeasurement",
        attribute: "CumulativeEnergyImported",
        expected: { energy: 9_422_500_000 },
      },
    ],
    commands: [],
    errors: [readOnly("ElectricalPowerMeasurement", "ActivePower", 0)],
    notes: "read-only",
  },
];
