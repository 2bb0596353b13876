import assert from "node:assert/strict";
import { after, before, beforeEach, describe, test } from "node:test";
import { Bytes, type Endpoint } from "@matter/main";
import { Status, StatusResponseError } from "@matter/main/types";
import { createTestBridge, invoke, snapshot, type TestBridge } from "../../../test/support/devices/device-harness.ts";
import { updateDeviceEndpoint } from "../devices/endpoint-types.ts";
import type { PinVerdict } from "../model/contract.ts";

const failsWith = (status: Status) => (error: unknown) => error instanceof StatusResponseError && error.code === status;

/** Collects the named events of a behavior on an endpoint. */
function recordEvents(endpoint: Endpoint, behavior: string, names: string[]): string[] {
  const seen: string[] = [];
  const events = endpoint.eventsOf(behavior) as Record<string, { on(listener: (payload: unknown) => void): void }>;
  for (const name of names) events[name]?.on((payload) => seen.push(`${name}${payload ? JSON.stringify(payload) : ""}`));
  return seen;
}

describe("covers, locks, vacuums, valves, selects → HA", () => {
  let bridge: TestBridge;
  const devices: Record<string, Endpoint> = {};
  const pinChecks: (string | undefined)[] = [];
  const pinCheck = (_entityId: string, pin: string | undefined): PinVerdict => {
    pinChecks.push(pin);
    return pin === undefined ? "missing" : pin === "1234" ? "valid" : "invalid";
  };

  before(async () => {
    bridge = await createTestBridge("device-behaviors");
    devices.blinds = await bridge.add(
      "window_covering",
      snapshot("cover.blinds", "open", { supported_features: 255, current_position: 100, current_tilt_position: 50 }),
    );
    devices.garage = await bridge.add(
      "window_covering",
      snapshot("cover.garage", "closed", { supported_features: 3, device_class: "garage" }),
    );
    devices.lock = await bridge.add("door_lock", snapshot("lock.front", "locked"), { pinCheck });
    devices.openLock = await bridge.add("door_lock", snapshot("lock.shed", "locked"));
    devices.vacuum = await bridge.add(
      "robotic_vacuum_cleaner",
      snapshot("vacuum.robot", "docked", { supported_features: 8192 + 16 + 8 + 4 }),
    );
    devices.valve = await bridge.add(
      "water_valve",
      snapshot("valve.garden", "closed", { supported_features: 7, current_position: 0 }),
    );
    devices.select = await bridge.add("mode_select", snapshot("select.mode", "eco", { options: ["eco", "comfort", "boost"] }));
    await bridge.start();
  });

  after(async () => {
    await bridge?.close();
  });

  beforeEach(() => bridge.actions.reset());

  test("cover positions are inverted on the way to HA (complaint #8)", async () => {
    const blinds = devices.blinds as Endpoint;
    assert.equal(blinds.stateOf("windowCovering").currentPositionLiftPercent100ths, 0, "HA 100 = Matter open");
    await invoke(blinds, "windowCovering", "goToLiftPercentage", { liftPercent100thsValue: 2500 });
    await invoke(blinds, "windowCovering", "goToTiltPercentage", { tiltPercent100thsValue: 6000 });
    await invoke(blinds, "windowCovering", "downOrClose");
    await invoke(blinds, "windowCovering", "stopMotion");
    assert.deepEqual(
      bridge.actions.calls.map(({ action, data }) => ({ action, data })),
      [
        { action: "cover.set_cover_position", data: { position: 75 } },
        { action: "cover.set_cover_tilt_position", data: { tilt_position: 40 } },
        { action: "cover.close_cover", data: undefined },
        { action: "cover.stop_cover", data: undefined },
      ],
    );
  });

  test("HA's opening state and position reach Matter; a refused move restores the target", async () => {
    const blinds = devices.blinds as Endpoint;
    await updateDeviceEndpoint(
      blinds,
      snapshot("cover.blinds", "opening", { supported_features: 255, current_position: 30, current_tilt_position: 50 }),
    );
    const covering = blinds.stateOf("windowCovering");
    assert.equal(covering.currentPositionLiftPercent100ths, 7000);
    assert.equal(covering.targetPositionLiftPercent100ths, 0);
    assert.deepEqual({ ...(covering.operationalStatus as object) }, { global: 1, lift: 1, tilt: 0 }, "opening");
    bridge.actions.failWith = new Error("motor fault");
    await assert.rejects(
      invoke(blinds, "windowCovering", "goToLiftPercentage", { liftPercent100thsValue: 9000 }),
      failsWith(Status.Failure),
    );
    assert.equal(blinds.stateOf("windowCovering").targetPositionLiftPercent100ths, 0);
  });

  test("an open/close-only garage door: nearest end, and Stop is refused before HA is called", async () => {
    const garage = devices.garage as Endpoint;
    assert.equal(garage.stateOf("windowCovering").currentPositionLiftPercent100ths, 10_000, "closed");
    await invoke(garage, "windowCovering", "goToLiftPercentage", { liftPercent100thsValue: 3000 });
    await assert.rejects(invoke(garage, "windowCovering", "stopMotion"), failsWith(Status.UnsupportedCommand));
    assert.deepEqual(bridge.actions.calls, [{ action: "cover.open_cover", entityId: "cover.garage" }]);
  });

  test("unlock asks the PIN hook: missing or wrong PIN fails and calls nothing; lock never asks", async () => {
    const lock = devices.lock as Endpoint;
    const errors = recordEvents(lock, "doorLock", ["lockOperationError"]);
    await assert.rejects(invoke(lock, "doorLock", "unlockDoor", {}), failsWith(Status.Failure));
    await assert.rejects(
      invoke(lock, "doorLock", "unlockDoor", { pinCode: Bytes.fromString("0000") }),
      failsWith(Status.Failure),
    );
    assert.deepEqual(bridge.actions.calls, []);
    assert.equal(errors.length, 2);
    assert.equal(lock.stateOf("doorLock").lockState, 1, "still locked");
    await invoke(lock, "doorLock", "unlockDoor", { pinCode: Bytes.fromString("1234") });
    await invoke(lock, "doorLock", "lockDoor", {});
    assert.deepEqual(pinChecks, [undefined, "0000", "1234"], "lock did not consult the hook");
    assert.deepEqual(bridge.actions.calls, [
      { action: "lock.unlock", entityId: "lock.front" },
      { action: "lock.lock", entityId: "lock.front" },
    ]);
  });

  test("without credentials no PIN is needed; HA lock states map to Matter", async () => {
    const lock = devices.openLock as Endpoint;
    await invoke(lock, "doorLock", "unlockDoor", {});
    assert.deepEqual(bridge.actions.calls, [{ action: "lock.unlock", entityId: "lock.shed" }]);
    await updateDeviceEndpoint(lock, snapshot("lock.shed", "jammed"));
    assert.equal(lock.stateOf("doorLock").lockState, 0, "NotFullyLocked");
  });

  test("vacuum: run modes start/stop, pause and go home", async () => {
    const vacuum = devices.vacuum as Endpoint;
    assert.equal(vacuum.stateOf("rvcOperationalState").operationalState, 0x42, "Docked");
    const response = await invoke(vacuum, "rvcRunMode", "changeToMode", { newMode: 1 });
    assert.deepEqual(response, { status: 0, statusText: "" });
    await invoke(vacuum, "rvcOperationalState", "pause");
    await invoke(vacuum, "rvcOperationalState", "goHome");
    await invoke(vacuum, "rvcRunMode", "changeToMode", { newMode: 0 });
    assert.deepEqual(
      bridge.actions.calls.map((call) => call.action),
      ["vacuum.start", "vacuum.pause", "vacuum.return_to_base", "vacuum.stop"],
    );
    await updateDeviceEndpoint(vacuum, snapshot("vacuum.robot", "cleaning", { supported_features: 8220 }));
    assert.equal(vacuum.stateOf("rvcRunMode").currentMode, 1);
    assert.equal(vacuum.stateOf("rvcOperationalState").operationalState, 1, "Running");
  });

  test("valve: open, open to a level, close; a timed open is refused", async () => {
    const valve = devices.valve as Endpoint;
    await invoke(valve, "valveConfigurationAndControl", "open", {});
    await invoke(valve, "valveConfigurationAndControl", "open", { targetLevel: 40 });
    await invoke(valve, "valveConfigurationAndControl", "close");
    await assert.rejects(
      invoke(valve, "valveConfigurationAndControl", "open", { openDuration: 60 }),
      failsWith(Status.ConstraintError),
    );
    assert.deepEqual(
      bridge.actions.calls.map(({ action, data }) => ({ action, data })),
      [
        { action: "valve.open_valve", data: undefined },
        { action: "valve.set_valve_position", data: { position: 40 } },
        { action: "valve.close_valve", data: undefined },
      ],
    );
  });

  test("valve: a command for the state HA already reports does not leave the valve shown travelling", async () => {
    const valve = devices.valve as Endpoint;
    const Closed = 0;
    await updateDeviceEndpoint(valve, snapshot("valve.garden", "closed", { supported_features: 7, current_position: 0 }));
    await invoke(valve, "valveConfigurationAndControl", "close");
    assert.equal(valve.stateOf("valveConfigurationAndControl").currentState, Closed, "HA sends no change to end it");
    await invoke(valve, "valveConfigurationAndControl", "open", {});
    assert.equal(valve.stateOf("valveConfigurationAndControl").currentState, 2, "Transitioning until HA reports open");
    assert.equal(bridge.actions.calls.length, 2, "both still call HA");
  });

  test("mode select: a mode is the option's index; an unknown mode is refused", async () => {
    const select = devices.select as Endpoint;
    await invoke(select, "modeSelect", "changeToMode", { newMode: 2 });
    await assert.rejects(invoke(select, "modeSelect", "changeToMode", { newMode: 7 }), failsWith(Status.InvalidCommand));
    assert.deepEqual(bridge.actions.calls, [
      { action: "select.select_option", entityId: "select.mode", data: { option: "boost" } },
    ]);
    await updateDeviceEndpoint(select, snapshot("select.mode", "comfort", { options: ["eco", "comfort", "boost", "away"] }));
    assert.equal(select.stateOf("modeSelect").currentMode, 1);
    assert.equal((select.stateOf("modeSelect").supportedModes as unknown[]).length, 4);
  });
});

describe("sensors and events from HA", () => {
  let bridge: TestBridge;
  const devices: Record<string, Endpoint> = {};

  before(async () => {
    bridge = await createTestBridge("sensor-behaviors");
    devices.door = await bridge.add("contact_sensor", snapshot("binary_sensor.door", "off", { device_class: "door" }));
    devices.smoke = await bridge.add("smoke_co_alarm", snapshot("binary_sensor.smoke", "off", { device_class: "smoke" }));
    devices.button = await bridge.add(
      "generic_switch",
      snapshot("event.remote", "2026-11-21T08:00:00.000+00:00", {
        event_types: ["single", "double", "long"],
        event_type: "single",
      }),
    );
    await bridge.start();
  });

  after(async () => {
    await bridge?.close();
  });

  test("contact: HA on (open) is StateValue false; unknown keeps the last value", async () => {
    const door = devices.door as Endpoint;
    await updateDeviceEndpoint(door, snapshot("binary_sensor.door", "on", { device_class: "door" }));
    assert.equal(door.stateOf("booleanState").stateValue, false);
    await updateDeviceEndpoint(door, snapshot("binary_sensor.door", "unknown", { device_class: "door" }));
    assert.equal(door.stateOf("booleanState").stateValue, false);
  });

  test("smoke: an alarm raises SmokeAlarm (Critical) and clearing it AllClear", async () => {
    const smoke = devices.smoke as Endpoint;
    const events = recordEvents(smoke, "smokeCoAlarm", ["smokeAlarm", "allClear"]);
    await updateDeviceEndpoint(smoke, snapshot("binary_sensor.smoke", "on", { device_class: "smoke" }));
    assert.equal(smoke.stateOf("smokeCoAlarm").expressedState, 1);
    await updateDeviceEndpoint(smoke, snapshot("binary_sensor.smoke", "off", { device_class: "smoke" }));
    assert.deepEqual(events, ['smokeAlarm{"alarmSeverityLevel":2}', "allClear"]);
  });

  test("an HA event is a press: double press sequence; the same timestamp again is no press; each of a burst is one", async () => {
    const button = devices.button as Endpoint;
    const events = recordEvents(button, "switch", [
      "initialPress",
      "shortRelease",
      "multiPressOngoing",
      "multiPressComplete",
      "longPress",
    ]);
    const pressed = snapshot("event.remote", "2026-11-22T09:00:00.000+00:00", {
      event_types: ["single", "double", "long"],
      event_type: "double",
    });
    await updateDeviceEndpoint(button, pressed);
    await updateDeviceEndpoint(button, pressed);
    assert.deepEqual(events, [
      'initialPress{"newPosition":1}',
      'shortRelease{"previousPosition":1}',
      'multiPressOngoing{"newPosition":1,"currentNumberOfPressesCounted":2}',
      'shortRelease{"previousPosition":1}',
      'multiPressComplete{"previousPosition":1,"totalNumberOfPressesCounted":2}',
    ]);
    // Presses that arrive together are each a press: a newer state never supersedes an event entity's older one.
    const press = (at: string) =>
      snapshot("event.remote", at, { event_types: ["single", "double", "long"], event_type: "single" });
    events.length = 0;
    await Promise.all([
      updateDeviceEndpoint(button, press("2026-11-23T10:00:00.000+00:00")),
      updateDeviceEndpoint(button, press("2026-11-23T10:00:01.000+00:00")),
      updateDeviceEndpoint(button, press("2026-11-23T10:00:02.000+00:00")),
    ]);
    assert.equal(events.filter((event) => event.startsWith("initialPress")).length, 3, events.join(" "));
  });
});
