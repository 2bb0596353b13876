import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { FanControl } from "@matter/main/clusters/fan-control";
import { hassState } from "../../../test/support/devices/ha-fixtures.ts";
import { coverCapabilities, fanCapabilities, humidifierCapabilities } from "../model/capabilities.ts";
import { fanWritePlan, stepSpeed } from "./fan-control-plan.ts";
import { transitionData, valueAfter } from "./motion.ts";
import { onOffPlan } from "./on-off-server.ts";
import { pressKind } from "./switch-server.ts";
import { coverMovePlan } from "./window-covering-server.ts";

describe("OnOff per domain", () => {
  test("lights turn on without brightness unless something was staged while off (complaint #7)", () => {
    assert.deepEqual(onOffPlan("light", true, undefined, {}), { action: "light.turn_on" });
    assert.deepEqual(onOffPlan("light", true, undefined, { brightness: 10 }), {
      action: "light.turn_on",
      data: { brightness: 10 },
      usesStaged: true,
    });
    assert.deepEqual(onOffPlan("light", false, undefined, { brightness: 10 }), { action: "light.turn_off" });
  });

  test("stateless domains are momentary presses; off does not call HA", () => {
    assert.deepEqual(onOffPlan("button", true, undefined, {}), { action: "button.press", momentary: true });
    assert.deepEqual(onOffPlan("scene", true, undefined, {}), { action: "scene.turn_on", momentary: true });
    assert.deepEqual(onOffPlan("automation", true, undefined, {}), { action: "automation.trigger", momentary: true });
    assert.deepEqual(onOffPlan("scene", false, undefined, {}), { action: undefined });
  });

  test("switches, scripts and fans use their domain; speakers mute; sensors are read-only", () => {
    assert.deepEqual(onOffPlan("switch", false, undefined, {}), { action: "switch.turn_off" });
    assert.deepEqual(onOffPlan("script", true, undefined, {}), { action: "script.turn_on" });
    const speaker = hassState("media_player.s", "playing", { supported_features: 8 });
    assert.deepEqual(onOffPlan("media_player", false, speaker, {}), {
      action: "media_player.volume_mute",
      data: { is_volume_muted: true },
    });
    const tv = hassState("media_player.tv", "on", { supported_features: 384 });
    assert.deepEqual(onOffPlan("media_player", true, tv, {}), { action: "media_player.turn_on" });
    assert.ok("readOnly" in onOffPlan("binary_sensor", true, undefined, {}));
  });
});

describe("cover moves (Matter closure → HA openness)", () => {
  const positional = coverCapabilities(hassState("cover.c", "open", { supported_features: 255 }));
  const openClose = coverCapabilities(hassState("cover.g", "closed", { supported_features: 3 }));

  test("positions are inverted; the ends use open/close", () => {
    assert.deepEqual(coverMovePlan("lift", 2500, positional), { action: "cover.set_cover_position", data: { position: 75 } });
    assert.deepEqual(coverMovePlan("lift", 0, positional), { action: "cover.open_cover" });
    assert.deepEqual(coverMovePlan("lift", 10_000, positional), { action: "cover.close_cover" });
    assert.deepEqual(coverMovePlan("tilt", 6000, positional), {
      action: "cover.set_cover_tilt_position",
      data: { tilt_position: 40 },
    });
  });

  test("a cover without position goes to the nearest end", () => {
    assert.deepEqual(coverMovePlan("lift", 3000, openClose), { action: "cover.open_cover" });
    assert.deepEqual(coverMovePlan("lift", 8000, openClose), { action: "cover.close_cover" });
  });
});

describe("fan writes", () => {
  const fan = hassState("fan.f", "on", {
    supported_features: 15,
    percentage_step: 33.333,
    preset_modes: ["auto", "sleep"],
    percentage: 33,
  });
  const caps = fanCapabilities(fan);

  test("percent and speed snap to the fan's steps; 0 turns off", () => {
    assert.deepEqual(fanWritePlan("fan", { percentSetting: 50 }, caps, fan), [
      { action: "fan.set_percentage", data: { percentage: 66 } },
    ]);
    assert.deepEqual(fanWritePlan("fan", { speedSetting: 3 }, caps, fan), [
      { action: "fan.set_percentage", data: { percentage: 100 } },
    ]);
    assert.deepEqual(fanWritePlan("fan", { percentSetting: 0 }, caps, fan), [{ action: "fan.turn_off" }]);
  });

  test("fan modes, auto preset, rocking, wind and direction", () => {
    const { FanMode, AirflowDirection } = FanControl;
    assert.deepEqual(fanWritePlan("fan", { fanMode: FanMode.Low }, caps, fan), [
      { action: "fan.set_percentage", data: { percentage: 33 } },
    ]);
    assert.deepEqual(fanWritePlan("fan", { fanMode: FanMode.Auto }, caps, fan), [
      { action: "fan.set_preset_mode", data: { preset_mode: "auto" } },
    ]);
    assert.deepEqual(fanWritePlan("fan", { rockSetting: { rockLeftRight: true } }, caps, fan), [
      { action: "fan.oscillate", data: { oscillating: true } },
    ]);
    assert.deepEqual(fanWritePlan("fan", { windSetting: { sleepWind: true } }, caps, fan), [
      { action: "fan.set_preset_mode", data: { preset_mode: "sleep" } },
    ]);
    assert.deepEqual(fanWritePlan("fan", { airflowDirection: AirflowDirection.Reverse }, caps, fan), [
      { action: "fan.set_direction", data: { direction: "reverse" } },
    ]);
  });

  test("a humidifier's percentage is its target humidity in its range", () => {
    const humidifier = hassState("humidifier.h", "on", { min_humidity: 30, max_humidity: 80, available_modes: ["auto"] });
    const humidifierCaps = humidifierCapabilities(humidifier);
    assert.deepEqual(fanWritePlan("humidifier", { percentSetting: 50 }, humidifierCaps, humidifier), [
      { action: "humidifier.set_humidity", data: { humidity: 55 } },
    ]);
    assert.deepEqual(fanWritePlan("humidifier", { fanMode: FanControl.FanMode.Auto }, humidifierCaps, humidifier), [
      { action: "humidifier.set_mode", data: { mode: "auto" } },
    ]);
  });

  test("Step honours wrap and lowestOff", () => {
    const up = { direction: FanControl.StepDirection.Increase };
    const down = { direction: FanControl.StepDirection.Decrease };
    assert.equal(stepSpeed(1, 3, up), 2);
    assert.equal(stepSpeed(3, 3, up), 3);
    assert.equal(stepSpeed(3, 3, { ...up, wrap: true }), 1);
    assert.equal(stepSpeed(1, 3, down), 1);
    assert.equal(stepSpeed(1, 3, { ...down, lowestOff: true }), 0);
  });
});

describe("moves and events", () => {
  test("a move's position after some time never passes its end", () => {
    const motion = { from: 100, to: 254, ratePerSecond: 50, startedAt: 0 };
    assert.equal(valueAfter(motion, 1000), 150);
    assert.equal(valueAfter(motion, 10_000), 254);
    assert.equal(valueAfter({ ...motion, to: 1 }, 1000), 50);
    assert.deepEqual(transitionData(15), { transition: 1.5 });
    assert.deepEqual(transitionData(0), {});
  });

  test("HA event types become press kinds", () => {
    assert.equal(pressKind("press"), "single");
    assert.equal(pressKind("double_press"), "double");
    assert.equal(pressKind("long_press"), "long");
    assert.equal(pressKind("triple"), "triple");
    assert.equal(pressKind(undefined), "single");
  });
});
