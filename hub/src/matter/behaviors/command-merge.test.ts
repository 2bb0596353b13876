import assert from "node:assert/strict";
import { after, before, beforeEach, describe, test } from "node:test";
import type { Endpoint } from "@matter/main";
import { Status, StatusResponseError } from "@matter/main/types";
import { createTestBridge, invoke, snapshot, type TestBridge } from "../../../test/support/devices/device-harness.ts";

const options = { optionsMask: {}, optionsOverride: {} };
const colorLight = { supported_color_modes: ["color_temp", "hs"], min_color_temp_kelvin: 2200, max_color_temp_kelvin: 6500 };

/**
 * Commands for one light arriving together (invoked in the same turn, as matter.js runs a controller's back-to-back
 * requests) become one `light.turn_on`; the end-to-end version with a real controller is in bridges-matter.test.ts.
 */
describe("commands arriving together become one HA call", () => {
  let bridge: TestBridge;
  const lights: Record<string, Endpoint> = {};

  before(async () => {
    bridge = await createTestBridge("command-merge");
    for (const id of ["a", "b", "c", "d", "e"])
      lights[id] = await bridge.add("extended_color_light", snapshot(`light.${id}`, "off", colorLight));
    await bridge.start();
  });

  after(async () => {
    await bridge?.close();
  });

  beforeEach(() => bridge.actions.reset());

  test("On, then MoveToLevel: one turn_on with the brightness, and the light shows both", async () => {
    const light = lights.a as Endpoint;
    await Promise.all([
      invoke(light, "onOff", "on"),
      invoke(light, "levelControl", "moveToLevel", { level: 127, transitionTime: null, ...options }),
    ]);
    assert.deepEqual(bridge.actions.calls, [{ action: "light.turn_on", entityId: "light.a", data: { brightness: 128 } }]);
    assert.equal(light.stateOf("onOff").onOff, true);
    assert.equal(light.stateOf("levelControl").currentLevel, 127);
  });

  test("MoveToLevel, then On: the level rides along with the On", async () => {
    const light = lights.b as Endpoint;
    await Promise.all([
      invoke(light, "levelControl", "moveToLevel", { level: 50, transitionTime: null, ...options }),
      invoke(light, "onOff", "on"),
    ]);
    assert.deepEqual(bridge.actions.calls, [{ action: "light.turn_on", entityId: "light.b", data: { brightness: 50 } }]);
  });

  test("MoveToLevelWithOnOff and a colour temperature: one turn_on with both", async () => {
    const light = lights.c as Endpoint;
    await Promise.all([
      invoke(light, "levelControl", "moveToLevelWithOnOff", { level: 254, transitionTime: null, ...options }),
      invoke(light, "colorControl", "moveToColorTemperature", { colorTemperatureMireds: 400, transitionTime: 0, ...options }),
    ]);
    assert.deepEqual(bridge.actions.calls, [
      { action: "light.turn_on", entityId: "light.c", data: { brightness: 255, color_temp_kelvin: 2500 } },
    ]);
    assert.equal(light.stateOf("colorControl").colorTemperatureMireds, 400);
  });

  test("a lone MoveToLevel on an off light is still ignored (no ExecuteIfOff), a lone On still carries nothing", async () => {
    const light = lights.d as Endpoint;
    await invoke(light, "levelControl", "moveToLevel", { level: 90, transitionTime: null, ...options });
    // A controller's next request arrives in a later turn (the answer has to travel first).
    await new Promise((resolve) => setImmediate(resolve));
    await invoke(light, "onOff", "on");
    assert.deepEqual(bridge.actions.calls, [{ action: "light.turn_on", entityId: "light.d" }]);
  });

  test("HA refusing the merged call fails both commands and rolls both back", async () => {
    const light = lights.e as Endpoint;
    const level = light.stateOf("levelControl").currentLevel;
    bridge.actions.failWith = new Error("offline");
    const results = await Promise.allSettled([
      invoke(light, "onOff", "on"),
      invoke(light, "levelControl", "moveToLevel", { level: 10, transitionTime: null, ...options }),
    ]);
    for (const result of results) {
      assert.equal(result.status, "rejected");
      const reason = (result as PromiseRejectedResult).reason;
      assert.ok(reason instanceof StatusResponseError && reason.code === Status.Failure, String(reason));
    }
    assert.equal(bridge.actions.calls.length, 1);
    assert.equal(light.stateOf("onOff").onOff, false);
    assert.equal(light.stateOf("levelControl").currentLevel, level);
  });
});
