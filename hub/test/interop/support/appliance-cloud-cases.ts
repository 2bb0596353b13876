/**
 * Matrix rows for the appliance cloud plugin's devices (hub-plugins.md "Appliance cloud plugin"), one per device the
 * simulated VeSync-style account of the tests shows (hub/src/plugins/testing/appliance-harness.ts): plug, purifier,
 * tower fan, humidifier (a plug and a humidity sensor), single- and two-basket air fryers. Commands land in the cloud.
 */
import type { DeviceCase } from "./device-case.ts";
import { onOff } from "./device-case.ts";
import { NO_LEVEL, pluginOnOff } from "./plugin-onoff.ts";

/**
 * A basket of an air fryer: on while a program is loaded, running or paused; Off ends the cook (`basket` names it
 * on a two-basket fryer); On is refused (the plugin shows the real state again), as a cook is never started
 * remotely (hub-plugins.md "Appliance cloud plugin").
 */
function fryerBasket(device: string, variant: string, basket?: 1 | 2, report?: DeviceCase["report"]): DeviceCase {
  const cid = device.split("-")[0] as string;
  const why = "reaches the plugin as an OnOff change like On and Off (a fryer refuses on, off ends the cook)";
  return {
    key: "on_off_plugin_unit",
    variant: `appliance cloud plugin, ${variant}`,
    source: { plugin: "appliance-cloud", device },
    deviceType: 0x010a,
    ...(report ? { report } : {}),
    commands: [
      { action: onOff("Off"), effect: { cloud: cid, method: "endCook", data: basket ? { basket } : {} } },
      { action: onOff("On"), effect: { none: "a cook is never started remotely" } },
    ],
    errors: [NO_LEVEL],
    notDriven: {
      "OnOff.Toggle": why,
      "OnOff.OnWithTimedOff": why,
      "OnOff.OffWithEffect": why,
      "OnOff.OnWithRecallGlobalScene": why,
    },
    notes: "Off ends the cook; On is refused and the basket shows off again",
  };
}

export const APPLIANCE_CLOUD_CASES: DeviceCase[] = [
  {
    key: "on_off_plugin_unit",
    variant: "appliance cloud plugin, smart plug",
    source: { plugin: "appliance-cloud", device: "plug" },
    deviceType: 0x010a,
    report: { change: { cloud: "plug", status: { enabled: true } }, cluster: "OnOff", attribute: "OnOff", expected: true },
    commands: pluginOnOff(
      { cloud: "plug", method: "setSwitch", data: { on: true } },
      { cloud: "plug", method: "setSwitch", data: { on: false } },
    ),
    errors: [NO_LEVEL],
  },
  {
    key: "air_purifier",
    variant: "appliance cloud plugin, purifier",
    source: { plugin: "appliance-cloud", device: "puri" },
    deviceType: 0x002d,
    report: {
      change: { cloud: "puri", status: { enabled: true, mode: "manual", level: 3 } },
      cluster: "FanControl",
      attribute: "SpeedCurrent",
      expected: 3,
    },
    commands: [
      ...pluginOnOff(
        { cloud: "puri", method: "setSwitch", data: { on: true } },
        { cloud: "puri", method: "setSwitch", data: { on: false } },
      ),
      {
        action: { write: "FanControl", attribute: "SpeedSetting", value: 1 },
        effect: { cloud: "puri", method: "setLevel", data: { level: 1 } },
      },
    ],
    errors: [
      {
        label: "SpeedSetting 4 (above SpeedMax 3)",
        action: { write: "FanControl", attribute: "SpeedSetting", value: 4 },
        status: "ConstraintError",
      },
    ],
  },
  {
    key: "fan",
    variant: "appliance cloud plugin, tower fan",
    source: { plugin: "appliance-cloud", device: "tower" },
    deviceType: 0x002b,
    report: {
      change: { cloud: "tower", status: { enabled: true, mode: "manual", level: 9 } },
      cluster: "FanControl",
      attribute: "SpeedCurrent",
      expected: 9,
    },
    commands: [
      ...pluginOnOff(
        { cloud: "tower", method: "setSwitch", data: { on: true } },
        { cloud: "tower", method: "setSwitch", data: { on: false } },
      ),
      {
        action: { write: "FanControl", attribute: "SpeedSetting", value: 4 },
        effect: { cloud: "tower", method: "setLevel", data: { level: 4 } },
      },
      // 12 speeds: 50 % is speed 6; High is the top speed.
      {
        action: { write: "FanControl", attribute: "PercentSetting", value: 50 },
        effect: { cloud: "tower", method: "setLevel", data: { level: 6 } },
      },
      {
        action: { write: "FanControl", attribute: "FanMode", value: 3 },
        effect: { cloud: "tower", method: "setLevel", data: { level: 12 } },
      },
    ],
    errors: [
      {
        label: "SpeedSetting 13 (above SpeedMax 12)",
        action: { write: "FanControl", attribute: "SpeedSetting", value: 13 },
        status: "ConstraintError",
      },
      {
        label: "PercentSetting 101",
        action: { write: "FanControl", attribute: "PercentSetting", value: 101 },
        status: "ConstraintError",
      },
    ],
  },
  {
    key: "on_off_plugin_unit",
    variant: "appliance cloud plugin, humidifier",
    source: { plugin: "appliance-cloud", device: "humi" },
    deviceType: 0x010a,
    report: { change: { cloud: "humi", status: { enabled: false } }, cluster: "OnOff", attribute: "OnOff", expected: false },
    commands: pluginOnOff(
      { cloud: "humi", method: "setSwitch", data: { on: true } },
      { cloud: "humi", method: "setSwitch", data: { on: false } },
      { startsOn: false },
    ),
    errors: [NO_LEVEL],
  },
  {
    key: "humidity_sensor",
    variant: "appliance cloud plugin, humidifier's sensor",
    source: { plugin: "appliance-cloud", device: "humi-humidity" },
    deviceType: 0x0307,
    report: {
      change: { cloud: "humi", status: { humidity: 52 } },
      cluster: "RelativeHumidityMeasurement",
      attribute: "MeasuredValue",
      expected: 5200,
    },
    commands: [],
    errors: [
      {
        label: "write to the read-only MeasuredValue",
        action: { write: "RelativeHumidityMeasurement", attribute: "MeasuredValue", value: 1 },
        status: "UnsupportedWrite",
      },
    ],
    notes: "read-only",
  },
  fryerBasket("fry1", "air fryer"),
  fryerBasket("fry2-left", "two-basket air fryer, left", 1),
  // The left basket's Off above left basket 1 in standby.
  fryerBasket("fry2-right", "two-basket air fryer, right", 2, {
    change: {
      cloud: "fry2",
      status: {
        baskets: [
          { id: 1, cookStatus: "standby" },
          { id: 2, cookStatus: "cooking" },
        ],
      },
    },
    cluster: "OnOff",
    attribute: "OnOff",
    expected: true,
  }),
];
