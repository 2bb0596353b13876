import assert from "node:assert/strict";
import { after, before, beforeEach, describe, test } from "node:test";
import type { Endpoint } from "@matter/main";
import { Status, StatusResponseError } from "@matter/main/types";
import { createTestBridge, invoke, snapshot, type TestBridge } from "../../../test/support/devices/device-harness.ts";
import { updateDeviceEndpoint } from "../devices/endpoint-types.ts";

const failsWith = (status: Status) => (error: unknown) => error instanceof StatusResponseError && error.code === status;
const DEMO_MODES = ["eco", "electric", "performance", "high_demand", "heat_pump", "gas", "off"];
const tank = {
  operation_list: DEMO_MODES,
  operation_mode: "eco",
  current_temperature: 48,
  temperature: 55,
  min_temp: 40,
  max_temp: 65,
  supported_features: 1 + 2 + 4 + 8,
};
/** Modes without `off`, no ON_OFF and no boost mode: the hub's Off mode cannot be reached. */
const plain = { operation_list: ["eco", "electric"], operation_mode: "eco", temperature: 50, supported_features: 1 + 2 };
const boost = { boostInfo: { duration: 3600 } };

describe("water heater commands and writes → HA water_heater", () => {
  let bridge: TestBridge;
  const devices: Record<string, Endpoint> = {};
  const calls = () => bridge.actions.calls.map(({ action, data }) => (data ? { action, data } : { action }));

  before(async () => {
    bridge = await createTestBridge("water-heater-behaviors");
    devices.tank = await bridge.add("water_heater", snapshot("water_heater.tank", "eco", tank));
    devices.plain = await bridge.add("water_heater", snapshot("water_heater.plain", "eco", plain));
    const switched = {
      operation_list: ["eco", "electric"],
      operation_mode: "off",
      temperature: 50,
      supported_features: 1 + 2 + 8,
    };
    devices.switched = await bridge.add("water_heater", snapshot("water_heater.switched", "off", switched));
    await bridge.start();
  });

  after(async () => {
    await bridge?.close();
  });

  beforeEach(() => bridge.actions.reset());

  test("ChangeToMode: an HA mode is set_operation_mode; the current mode follows", async () => {
    const tankEndpoint = devices.tank as Endpoint;
    const response = await invoke(tankEndpoint, "waterHeaterMode", "changeToMode", { newMode: 4 });
    assert.deepEqual(response, { status: 0, statusText: "" });
    assert.deepEqual(calls(), [{ action: "water_heater.set_operation_mode", data: { operation_mode: "heat_pump" } }]);
    assert.equal(tankEndpoint.stateOf("waterHeaterMode").currentMode, 4);
  });

  test("ChangeToMode: the hub's Off is turn_off; an HA mode of a heater switched off is turn_on first", async () => {
    const switched = devices.switched as Endpoint;
    assert.equal(switched.stateOf("waterHeaterMode").currentMode, 2, "the hub's Off mode");
    await invoke(switched, "waterHeaterMode", "changeToMode", { newMode: 1 });
    await invoke(switched, "waterHeaterMode", "changeToMode", { newMode: 2 });
    assert.deepEqual(calls(), [
      { action: "water_heater.turn_on" },
      { action: "water_heater.set_operation_mode", data: { operation_mode: "electric" } },
      { action: "water_heater.turn_off" },
    ]);
  });

  test("ChangeToMode refused: an unknown mode, and Off for a heater HA cannot switch off; no HA call", async () => {
    const unknown = await invoke(devices.tank as Endpoint, "waterHeaterMode", "changeToMode", { newMode: 42 });
    assert.equal((unknown as { status: number }).status, 1, "UnsupportedMode");
    const off = (await invoke(devices.plain as Endpoint, "waterHeaterMode", "changeToMode", { newMode: 2 })) as Record<
      string,
      unknown
    >;
    assert.equal(off.status, 2, "GenericFailure");
    assert.match(String(off.statusText), /no ON_OFF/);
    assert.equal(devices.plain?.stateOf("waterHeaterMode").currentMode, 0);
    assert.deepEqual(calls(), []);
  });

  test("setpoint write and SetpointRaiseLower → set_temperature; the cooling setpoint is refused", async () => {
    const tankEndpoint = devices.tank as Endpoint;
    await tankEndpoint.setStateOf("thermostat", { occupiedHeatingSetpoint: 6000 });
    await invoke(tankEndpoint, "thermostat", "setpointRaiseLower", { mode: 0, amount: 20 });
    await invoke(tankEndpoint, "thermostat", "setpointRaiseLower", { mode: 2, amount: 100 });
    assert.deepEqual(
      calls().map((call) => call.data),
      [{ temperature: 60 }, { temperature: 62 }, { temperature: 65 }],
      "the last raise stops at max_temp",
    );
    bridge.actions.reset();
    await assert.rejects(tankEndpoint.setStateOf("thermostat", { occupiedHeatingSetpoint: 9000 }), "above max_temp");
    await assert.rejects(
      invoke(tankEndpoint, "thermostat", "setpointRaiseLower", { mode: 1, amount: 10 }),
      failsWith(Status.ConstraintError),
    );
    assert.deepEqual(calls(), []);
  });

  test("SystemMode Off/Heat → turn_off/turn_on with ON_OFF; without it the HA off mode, else refused", async () => {
    const tankEndpoint = devices.tank as Endpoint;
    await tankEndpoint.setStateOf("thermostat", { systemMode: 0 });
    await tankEndpoint.setStateOf("thermostat", { systemMode: 4 });
    assert.deepEqual(calls(), [{ action: "water_heater.turn_off" }, { action: "water_heater.turn_on" }]);
    bridge.actions.reset();
    await assert.rejects(tankEndpoint.setStateOf("thermostat", { systemMode: 3 }), "Cool");
    await assert.rejects(devices.plain?.setStateOf("thermostat", { systemMode: 0 }) as Promise<void>, /cannot be switched off/);
    assert.equal(devices.plain?.stateOf("thermostat").systemMode, 4, "rolled back");
    assert.deepEqual(calls(), []);
    const noSwitch = await bridge.add(
      "water_heater",
      snapshot("water_heater.mode_only", "eco", { ...tank, supported_features: 1 + 2 }),
    );
    await noSwitch.setStateOf("thermostat", { systemMode: 0 });
    assert.deepEqual(calls(), [{ action: "water_heater.set_operation_mode", data: { operation_mode: "off" } }]);
  });

  test("Boost → high_demand with BoostStarted; CancelBoost → back to the mode before; BoostEnded once HA left it", async () => {
    const tankEndpoint = devices.tank as Endpoint;
    await updateDeviceEndpoint(tankEndpoint, snapshot("water_heater.tank", "gas", { ...tank, operation_mode: "gas" }));
    const events: string[] = [];
    const management = tankEndpoint.eventsOf("waterHeaterManagement") as unknown as Record<string, { on(f: () => void): void }>;
    management.boostStarted?.on(() => events.push("started"));
    management.boostEnded?.on(() => events.push("ended"));
    await invoke(tankEndpoint, "waterHeaterManagement", "boost", boost);
    assert.equal(tankEndpoint.stateOf("waterHeaterManagement").boostState, 1);
    await updateDeviceEndpoint(
      tankEndpoint,
      snapshot("water_heater.tank", "high_demand", { ...tank, operation_mode: "high_demand" }),
    );
    await invoke(tankEndpoint, "waterHeaterManagement", "cancelBoost");
    await updateDeviceEndpoint(tankEndpoint, snapshot("water_heater.tank", "gas", { ...tank, operation_mode: "gas" }));
    assert.deepEqual(calls(), [
      { action: "water_heater.set_operation_mode", data: { operation_mode: "high_demand" } },
      { action: "water_heater.set_operation_mode", data: { operation_mode: "gas" } },
    ]);
    assert.deepEqual(events, ["started", "ended"]);
    assert.equal(tankEndpoint.stateOf("waterHeaterManagement").boostState, 0);
  });

  test("Boost with a TemporarySetpoint sets it and CancelBoost restores HA's target; CancelBoost idle is a no-op", async () => {
    const tankEndpoint = devices.tank as Endpoint;
    await invoke(tankEndpoint, "waterHeaterManagement", "cancelBoost");
    assert.deepEqual(calls(), [], "nothing to cancel (HA's Matter integration sends it with every mode)");
    await invoke(tankEndpoint, "waterHeaterManagement", "boost", { boostInfo: { duration: 600, temporarySetpoint: 6200 } });
    await updateDeviceEndpoint(
      tankEndpoint,
      snapshot("water_heater.tank", "high_demand", { ...tank, operation_mode: "high_demand", temperature: 62 }),
    );
    await invoke(tankEndpoint, "waterHeaterManagement", "cancelBoost");
    assert.deepEqual(calls(), [
      { action: "water_heater.set_operation_mode", data: { operation_mode: "high_demand" } },
      { action: "water_heater.set_temperature", data: { temperature: 62 } },
      { action: "water_heater.set_operation_mode", data: { operation_mode: "gas" } },
      { action: "water_heater.set_temperature", data: { temperature: 55 } },
    ]);
    bridge.actions.reset();
    const outside = { boostInfo: { duration: 600, temporarySetpoint: 9000 } };
    await assert.rejects(invoke(tankEndpoint, "waterHeaterManagement", "boost", outside), failsWith(Status.ConstraintError));
    assert.deepEqual(calls(), []);
  });

  test("CancelBoost right after Boost, before HA reported the boost mode, still goes back", async () => {
    const tankEndpoint = devices.tank as Endpoint;
    await updateDeviceEndpoint(tankEndpoint, snapshot("water_heater.tank", "gas", { ...tank, operation_mode: "gas" }));
    bridge.actions.reset();
    await invoke(tankEndpoint, "waterHeaterManagement", "boost", boost);
    await invoke(tankEndpoint, "waterHeaterManagement", "cancelBoost");
    assert.deepEqual(
      calls().map((call) => call.data?.operation_mode),
      ["high_demand", "gas"],
    );
  });

  test("Boost without a high_demand or performance mode fails UnsupportedCommand; HA refusing fails the command", async () => {
    await assert.rejects(
      invoke(devices.plain as Endpoint, "waterHeaterManagement", "boost", boost),
      failsWith(Status.UnsupportedCommand),
    );
    assert.deepEqual(calls(), []);
    bridge.actions.failWith = new Error("set_operation_mode failed");
    await assert.rejects(
      invoke(devices.plain as Endpoint, "waterHeaterMode", "changeToMode", { newMode: 1 }),
      failsWith(Status.Failure),
    );
    assert.equal(devices.plain?.stateOf("waterHeaterMode").currentMode, 0, "HA's mode stays");
  });
});
