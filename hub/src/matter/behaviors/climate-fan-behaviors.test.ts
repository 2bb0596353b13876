import assert from "node:assert/strict";
import { after, before, beforeEach, describe, test } from "node:test";
import type { Endpoint } from "@matter/main";
import { Status, StatusResponseError } from "@matter/main/types";
import { createTestBridge, invoke, snapshot, type TestBridge } from "../../../test/support/devices/device-harness.ts";
import { updateDeviceEndpoint } from "../devices/endpoint-types.ts";

const failsWith = (status: Status) => (error: unknown) => error instanceof StatusResponseError && error.code === status;

const heatCool = {
  hvac_modes: ["off", "heat", "cool", "heat_cool"],
  current_temperature: 21,
  target_temp_low: 20,
  target_temp_high: 24,
  min_temp: 7,
  max_temp: 35,
  supported_features: 3,
};

describe("thermostat writes → HA climate", () => {
  let bridge: TestBridge;
  const devices: Record<string, Endpoint> = {};

  before(async () => {
    bridge = await createTestBridge("thermostat-behaviors");
    devices.range = await bridge.add("thermostat", snapshot("climate.living", "heat_cool", heatCool));
    devices.refused = await bridge.add("thermostat", snapshot("climate.refused", "heat_cool", heatCool));
    const single = {
      hvac_modes: ["off", "heat"],
      temperature: 68,
      current_temperature: 66,
      min_temp: 45,
      max_temp: 95,
      supported_features: 1,
    };
    devices.fahrenheit = await bridge.add("thermostat", snapshot("climate.us", "heat", single), { unit: "°F" });
    devices.trv = await bridge.add(
      "thermostat",
      snapshot("climate.trv", "auto", { hvac_modes: ["off", "auto"], temperature: 20 }),
    );
    await bridge.start();
  });

  after(async () => {
    await bridge?.close();
  });

  beforeEach(() => bridge.actions.reset());

  test("both setpoints written together become ONE set_temperature with low and high", async () => {
    await devices.range?.setStateOf("thermostat", { occupiedHeatingSetpoint: 1900, occupiedCoolingSetpoint: 2500 });
    assert.deepEqual(bridge.actions.calls, [
      { action: "climate.set_temperature", entityId: "climate.living", data: { target_temp_low: 19, target_temp_high: 25 } },
    ]);
  });

  test("one setpoint in Auto still sends both bounds (HA requires the pair)", async () => {
    await devices.range?.setStateOf("thermostat", { occupiedCoolingSetpoint: 2600 });
    assert.deepEqual(bridge.actions.calls[0]?.data, { target_temp_low: 19, target_temp_high: 26 });
  });

  test("mode and setpoint in one write: one call carrying hvac_mode; mode alone: set_hvac_mode", async () => {
    await devices.range?.setStateOf("thermostat", { systemMode: 4, occupiedHeatingSetpoint: 2100 });
    await devices.range?.setStateOf("thermostat", { systemMode: 1 });
    assert.deepEqual(bridge.actions.calls, [
      { action: "climate.set_temperature", entityId: "climate.living", data: { hvac_mode: "heat", temperature: 21 } },
      { action: "climate.set_hvac_mode", entityId: "climate.living", data: { hvac_mode: "heat_cool" } },
    ]);
  });

  test("HA state updates are not sent back to HA", async () => {
    const result = await updateDeviceEndpoint(
      devices.range as Endpoint,
      snapshot("climate.living", "cool", { ...heatCool, temperature: 23, target_temp_low: null, target_temp_high: null }),
    );
    assert.ok(result.changed.includes("thermostat.systemMode"));
    assert.equal(devices.range?.stateOf("thermostat").occupiedCoolingSetpoint, 2300);
    assert.deepEqual(bridge.actions.calls, []);
  });

  test("a write HA refuses fails and the old value stays", async () => {
    const before = devices.refused?.stateOf("thermostat").occupiedHeatingSetpoint;
    bridge.actions.failWith = new Error("set_temperature failed");
    await assert.rejects(devices.refused?.setStateOf("thermostat", { occupiedHeatingSetpoint: 2222 }) as Promise<void>);
    assert.equal(devices.refused?.stateOf("thermostat").occupiedHeatingSetpoint, before);
  });

  test("°F: a controller's 21.11 °C is 70 °F for HA; SetpointRaiseLower adds 1 °C", async () => {
    const thermostat = devices.fahrenheit as Endpoint;
    assert.equal(thermostat.stateOf("thermostat").occupiedHeatingSetpoint, 2000, "68 °F");
    assert.equal(thermostat.stateOf("thermostatUserInterfaceConfiguration").temperatureDisplayMode, 1, "shown in °F");
    await thermostat.setStateOf("thermostat", { occupiedHeatingSetpoint: 2111 });
    await invoke(thermostat, "thermostat", "setpointRaiseLower", { mode: 0, amount: 10 });
    assert.deepEqual(
      bridge.actions.calls.map((call) => call.data),
      [{ temperature: 70 }, { temperature: 71.8 }],
    );
  });

  test("HA auto is not Matter Auto: an auto-only valve shows Heat, takes Heat as auto and refuses Auto", async () => {
    const trv = devices.trv as Endpoint;
    assert.equal(trv.stateOf("thermostat").systemMode, 4, "Heat");
    assert.equal((trv.featuresOf("thermostat") as Record<string, boolean>).autoMode, false);
    await trv.setStateOf("thermostat", { systemMode: 0 });
    await trv.setStateOf("thermostat", { systemMode: 4 });
    assert.deepEqual(
      bridge.actions.calls.map((call) => call.data),
      [{ hvac_mode: "off" }, { hvac_mode: "auto" }],
    );
    bridge.actions.reset();
    await assert.rejects(trv.setStateOf("thermostat", { systemMode: 1 }));
    assert.deepEqual(bridge.actions.calls, []);
  });
});

describe("fan writes → HA fan", () => {
  let bridge: TestBridge;
  let fan: Endpoint;
  const attributes = {
    supported_features: 15,
    percentage: 25,
    percentage_step: 25,
    preset_modes: ["auto"],
    oscillating: false,
    direction: "forward",
  };

  before(async () => {
    bridge = await createTestBridge("fan-behaviors");
    fan = await bridge.add("fan", snapshot("fan.ceiling", "on", attributes));
    await bridge.start();
  });

  after(async () => {
    await bridge?.close();
  });

  beforeEach(() => bridge.actions.reset());

  test("percent, speed, mode, rocking and direction writes", async () => {
    await fan.setStateOf("fanControl", { percentSetting: 60 });
    await fan.setStateOf("fanControl", { speedSetting: 4 });
    await fan.setStateOf("fanControl", { fanMode: 5 });
    await fan.setStateOf("fanControl", { rockSetting: { rockLeftRight: true } });
    await fan.setStateOf("fanControl", { airflowDirection: 1 });
    await fan.setStateOf("fanControl", { fanMode: 0 });
    assert.deepEqual(
      bridge.actions.calls.map(({ action, data }) => ({ action, data })),
      [
        { action: "fan.set_percentage", data: { percentage: 75 } },
        { action: "fan.set_percentage", data: { percentage: 100 } },
        { action: "fan.set_preset_mode", data: { preset_mode: "auto" } },
        { action: "fan.oscillate", data: { oscillating: true } },
        { action: "fan.set_direction", data: { direction: "reverse" } },
        { action: "fan.turn_off", data: undefined },
      ],
    );
  });

  test("Step goes one speed up from HA's state; updates from HA are not echoed", async () => {
    await updateDeviceEndpoint(fan, snapshot("fan.ceiling", "on", attributes));
    assert.deepEqual(bridge.actions.calls, []);
    assert.equal(fan.stateOf("fanControl").speedSetting, 1);
    await invoke(fan, "fanControl", "step", { direction: 0 });
    assert.deepEqual(bridge.actions.calls, [{ action: "fan.set_percentage", entityId: "fan.ceiling", data: { percentage: 50 } }]);
    assert.equal(fan.stateOf("fanControl").speedSetting, 2);
  });

  test("a refused write and an impossible mode both leave the fan as HA has it", async () => {
    bridge.actions.failWith = new Error("fan offline");
    const before = fan.stateOf("fanControl").percentSetting;
    await assert.rejects(fan.setStateOf("fanControl", { percentSetting: 10 }));
    assert.equal(fan.stateOf("fanControl").percentSetting, before);
    bridge.actions.reset();
    const humidless = await bridge.add("fan", snapshot("fan.plain", "on", { supported_features: 1, percentage: 50 }));
    await assert.rejects(humidless.setStateOf("fanControl", { fanMode: 5 }), failsWith(Status.ConstraintError));
    assert.deepEqual(bridge.actions.calls, []);
  });
});
