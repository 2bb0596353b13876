import assert from "node:assert/strict";
import { after, before, beforeEach, describe, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import type { Endpoint } from "@matter/main";
import { Status, StatusResponseError } from "@matter/main/types";
import { createTestBridge, invoke, snapshot, type TestBridge } from "../../../test/support/devices/device-harness.ts";
import { updateDeviceEndpoint } from "../devices/endpoint-types.ts";

const options = { optionsMask: {}, optionsOverride: {} };
const executeIfOff = { optionsMask: { executeIfOff: true }, optionsOverride: { executeIfOff: true } };
const colorLight = { supported_color_modes: ["color_temp", "hs"], min_color_temp_kelvin: 2200, max_color_temp_kelvin: 6500 };

/** The Matter status of a failed command. */
function failsWith(status: Status) {
  return (error: unknown) => error instanceof StatusResponseError && error.code === status;
}

describe("light commands → HA", () => {
  let bridge: TestBridge;
  const lights: Record<string, Endpoint> = {};

  before(async () => {
    bridge = await createTestBridge("light-behaviors");
    const on = (id: string) =>
      snapshot(id, "on", { ...colorLight, color_mode: "color_temp", brightness: 100, color_temp_kelvin: 4000 });
    const off = (id: string) => snapshot(id, "off", colorLight);
    for (const id of ["on_a", "on_b", "on_c", "on_d", "on_e", "on_f"])
      lights[id] = await bridge.add("extended_color_light", on(`light.${id}`));
    for (const id of ["off_a", "off_b", "off_c", "off_d"])
      lights[id] = await bridge.add("extended_color_light", off(`light.${id}`));
    await bridge.start();
  });

  after(async () => {
    await bridge?.close();
  });

  beforeEach(() => bridge.actions.reset());

  test("On never sends a brightness, so HA restores the last one (complaint #7)", async () => {
    const light = lights.off_a as Endpoint;
    const level = light.stateOf("levelControl").currentLevel;
    await invoke(light, "onOff", "on");
    assert.deepEqual(bridge.actions.calls, [{ action: "light.turn_on", entityId: "light.off_a" }]);
    assert.equal(light.stateOf("onOff").onOff, true);
    assert.equal(light.stateOf("levelControl").currentLevel, level, "level untouched");
    await invoke(light, "onOff", "off");
    assert.deepEqual(bridge.actions.calls[1], { action: "light.turn_off", entityId: "light.off_a" });
  });

  test("MoveToLevelWithOnOff on an off light is ONE turn_on with brightness", async () => {
    const light = lights.off_b as Endpoint;
    await invoke(light, "levelControl", "moveToLevelWithOnOff", { level: 127, transitionTime: null, ...options });
    assert.deepEqual(bridge.actions.calls, [{ action: "light.turn_on", entityId: "light.off_b", data: { brightness: 128 } }]);
    assert.equal(light.stateOf("onOff").onOff, true);
    assert.equal(light.stateOf("levelControl").currentLevel, 127);
  });

  test("MoveToLevel on an off light does not turn it on; with ExecuteIfOff the level waits for the next On", async () => {
    const light = lights.off_c as Endpoint;
    await invoke(light, "levelControl", "moveToLevel", { level: 50, transitionTime: null, ...options });
    assert.deepEqual(bridge.actions.calls, [], "ignored without ExecuteIfOff (Matter 1.3 §1.6.4.1.1)");
    await invoke(light, "levelControl", "moveToLevel", { level: 50, transitionTime: null, ...executeIfOff });
    assert.deepEqual(bridge.actions.calls, []);
    assert.equal(light.stateOf("onOff").onOff, false);
    assert.equal(light.stateOf("levelControl").currentLevel, 50);
    await invoke(light, "colorControl", "moveToColorTemperature", {
      colorTemperatureMireds: 400,
      transitionTime: 0,
      ...executeIfOff,
    });
    assert.deepEqual(bridge.actions.calls, []);
    await invoke(light, "onOff", "on");
    assert.deepEqual(bridge.actions.calls, [
      { action: "light.turn_on", entityId: "light.off_c", data: { brightness: 50, color_temp_kelvin: 2500 } },
    ]);
    bridge.actions.reset();
    await invoke(light, "onOff", "off");
    await invoke(light, "onOff", "on");
    assert.deepEqual(bridge.actions.calls[1], { action: "light.turn_on", entityId: "light.off_c" }, "staged values used once");
  });

  test("MoveToLevel on a lit light carries the transition in seconds", async () => {
    await invoke(lights.on_a as Endpoint, "levelControl", "moveToLevel", { level: 254, transitionTime: 25, ...options });
    assert.deepEqual(bridge.actions.calls, [
      { action: "light.turn_on", entityId: "light.on_a", data: { brightness: 255, transition: 2.5 } },
    ]);
  });

  test("a refused call fails the command and every attribute keeps HA's state", async () => {
    const light = lights.off_d as Endpoint;
    bridge.actions.failWith = new Error("light.turn_on: entity is offline");
    const before = { onOff: light.stateOf("onOff").onOff, level: light.stateOf("levelControl").currentLevel };
    await assert.rejects(
      invoke(light, "levelControl", "moveToLevelWithOnOff", { level: 200, transitionTime: null, ...options }),
      failsWith(Status.Failure),
    );
    assert.equal(light.stateOf("onOff").onOff, before.onOff);
    assert.equal(light.stateOf("levelControl").currentLevel, before.level);
    await assert.rejects(invoke(light, "onOff", "on"), failsWith(Status.Failure));
    assert.equal(light.stateOf("onOff").onOff, false);
    assert.equal(bridge.actions.calls.length, 2, "each command forwarded once, at once");
  });

  test("WithOnOff to the minimum turns off; Step moves from the current level", async () => {
    const light = lights.on_b as Endpoint;
    await invoke(light, "levelControl", "stepWithOnOff", { stepMode: 1, stepSize: 40, transitionTime: null, ...options });
    assert.deepEqual(bridge.actions.calls[0]?.data, { brightness: 60 });
    await invoke(light, "levelControl", "moveToLevelWithOnOff", { level: 1, transitionTime: null, ...options });
    assert.deepEqual(bridge.actions.calls[1], { action: "light.turn_off", entityId: "light.on_b" });
    assert.equal(light.stateOf("onOff").onOff, false);
  });

  test("Move sends the end level with a transition; Stop sends where it got to", async () => {
    const light = lights.on_c as Endpoint;
    await invoke(light, "levelControl", "move", { moveMode: 0, rate: 100, ...options });
    assert.deepEqual(bridge.actions.calls[0]?.data, { brightness: 255, transition: 1.5 });
    await sleep(300);
    await invoke(light, "levelControl", "stop", options);
    const stopped = bridge.actions.calls[1]?.data?.brightness as number;
    assert.ok(stopped > 100 && stopped < 255, `stopped at ${stopped}`);
  });

  test("colour commands: temperature clamped to the light's range, hs and xy in HA units", async () => {
    const light = lights.on_d as Endpoint;
    await invoke(light, "colorControl", "moveToColorTemperature", { colorTemperatureMireds: 100, transitionTime: 0, ...options });
    await invoke(light, "colorControl", "moveToHueAndSaturation", { hue: 127, saturation: 254, transitionTime: 10, ...options });
    await invoke(light, "colorControl", "moveToColor", { colorX: 32768, colorY: 19661, transitionTime: 0, ...options });
    assert.deepEqual(
      bridge.actions.calls.map((call) => call.data),
      [{ color_temp_kelvin: 6500 }, { hs_color: [180, 100], transition: 1 }, { xy_color: [0.5, 0.3] }],
    );
    assert.equal(light.stateOf("colorControl").colorMode, 1, "CurrentXAndCurrentY");
  });

  test("a refused colour change rolls back value and colour mode", async () => {
    const light = lights.on_e as Endpoint;
    const before = light.stateOf("colorControl");
    bridge.actions.failWith = new Error("refused");
    await assert.rejects(
      invoke(light, "colorControl", "moveToHueAndSaturation", { hue: 10, saturation: 10, transitionTime: 0, ...options }),
      failsWith(Status.Failure),
    );
    assert.equal(light.stateOf("colorControl").colorMode, before.colorMode);
    assert.equal(light.stateOf("colorControl").colorTemperatureMireds, before.colorTemperatureMireds);
  });

  test("continuous hue moves are refused without calling HA", async () => {
    await assert.rejects(
      invoke(lights.on_f as Endpoint, "colorControl", "moveHue", { moveMode: 1, rate: 10, ...options }),
      failsWith(Status.UnsupportedCommand),
    );
    assert.deepEqual(bridge.actions.calls, []);
  });

  test("HA state reaching the light clears what was staged while it was off", async () => {
    const light = lights.off_a as Endpoint;
    await updateDeviceEndpoint(light, snapshot("light.off_a", "off", colorLight));
    await invoke(light, "levelControl", "moveToLevel", { level: 20, transitionTime: null, ...executeIfOff });
    await updateDeviceEndpoint(light, snapshot("light.off_a", "on", { ...colorLight, brightness: 90 }));
    await updateDeviceEndpoint(light, snapshot("light.off_a", "off", colorLight));
    bridge.actions.reset();
    await invoke(light, "onOff", "on");
    assert.deepEqual(bridge.actions.calls, [{ action: "light.turn_on", entityId: "light.off_a" }]);
  });
});

describe("plugs, momentary presses, speakers, read-only sensors", () => {
  let bridge: TestBridge;
  const devices: Record<string, Endpoint> = {};

  before(async () => {
    bridge = await createTestBridge("plug-behaviors");
    devices.scene = await bridge.add("on_off_plugin_unit", snapshot("scene.movie", "2026-11-21T20:00:00+00:00"));
    devices.switch = await bridge.add("on_off_plugin_unit", snapshot("switch.kettle", "off"));
    devices.speaker = await bridge.add(
      "speaker",
      snapshot("media_player.kitchen", "playing", { supported_features: 12, volume_level: 0.2 }),
    );
    devices.sensor = await bridge.add("on_off_sensor", snapshot("binary_sensor.pump", "on", { device_class: "running" }));
    await bridge.start();
  });

  after(async () => {
    await bridge?.close();
  });

  beforeEach(() => bridge.actions.reset());

  test("a scene press shows on, then off again after about a second; Off calls nothing", async () => {
    const scene = devices.scene as Endpoint;
    await invoke(scene, "onOff", "on");
    assert.deepEqual(bridge.actions.calls, [{ action: "scene.turn_on", entityId: "scene.movie" }]);
    assert.equal(scene.stateOf("onOff").onOff, true);
    await updateDeviceEndpoint(scene, snapshot("scene.movie", "2026-11-22T10:00:01+00:00"));
    assert.equal(scene.stateOf("onOff").onOff, true, "HA's new timestamp does not cut the press short");
    await sleep(1200);
    assert.equal(scene.stateOf("onOff").onOff, false);
    await invoke(scene, "onOff", "off");
    assert.equal(bridge.actions.calls.length, 1);
  });

  test("a switch refused by HA stays off", async () => {
    bridge.actions.failWith = new Error("unavailable");
    await assert.rejects(invoke(devices.switch as Endpoint, "onOff", "toggle"), failsWith(Status.Failure));
    assert.equal((devices.switch as Endpoint).stateOf("onOff").onOff, false);
    assert.deepEqual(bridge.actions.calls, [{ action: "switch.turn_on", entityId: "switch.kettle" }]);
  });

  test("speaker: OnOff is mute, level is volume", async () => {
    const speaker = devices.speaker as Endpoint;
    assert.equal(speaker.stateOf("onOff").onOff, true, "playing and not muted");
    await invoke(speaker, "onOff", "off");
    await invoke(speaker, "levelControl", "moveToLevel", { level: 127, transitionTime: null, ...options });
    assert.deepEqual(bridge.actions.calls, [
      { action: "media_player.volume_mute", entityId: "media_player.kitchen", data: { is_volume_muted: true } },
      { action: "media_player.volume_set", entityId: "media_player.kitchen", data: { volume_level: 0.5 } },
    ]);
  });

  test("an On/Off sensor refuses commands and calls nothing", async () => {
    await assert.rejects(invoke(devices.sensor as Endpoint, "onOff", "off"), failsWith(Status.UnsupportedCommand));
    assert.deepEqual(bridge.actions.calls, []);
    assert.equal((devices.sensor as Endpoint).stateOf("onOff").onOff, true);
  });
});
