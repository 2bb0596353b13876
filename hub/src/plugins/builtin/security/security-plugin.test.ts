/**
 * The security plugin around its state table: settings rules, persistence across restarts, reliable HA calls
 * (persisted turn_off calls, held setters replayed on reconnect) and `sourceAlarmPanel` mirroring.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { fakeBuiltinServices, fakeContext, fakeHa } from "../../testing/fake-plugin-context.ts";
import { HOME, SETTINGS, securityWorld } from "../../testing/security-harness.ts";
import { SecurityPlugin } from "./security-plugin.ts";
import { parseSecuritySettings } from "./security-settings.ts";

const S = 1000;

describe("security plugin: settings", () => {
  it("parses comma-separated lists (trimmed, de-duplicated), drops invalid ids and alert domains with warnings", () => {
    const warnings: string[] = [];
    const settings = parseSecuritySettings(
      {
        homeSetters: " script.a , script.a,Bad-Id, light.x ",
        homeAlerts: "siren.s, switch.w, light.l, script.n, scene.x, lock.front_door, media_player.tv",
        exitDelaySeconds: "0",
      },
      (warning) => warnings.push(warning),
    );
    assert.deepEqual(settings.setters.home, ["script.a", "light.x"]);
    assert.deepEqual(settings.alerts.home, ["siren.s", "switch.w", "light.l", "script.n", "scene.x"]);
    assert.equal(settings.exitDelayMs, 0);
    assert.equal(settings.entryDelayMs, 60 * S, "default 60 s");
    assert.equal(settings.triggerTimeMs, 120 * S, "default 120 s");
    assert.deepEqual(warnings, [
      'homeSetters: "Bad-Id" is not an entity id; skipped',
      "homeAlerts: lock.front_door dropped: alerts must be siren, switch, light, script or scene entities",
      "homeAlerts: media_player.tv dropped: alerts must be siren, switch, light, script or scene entities",
    ]);
  });

  it("uses haUrl and haToken only as a pair; the warnings reach the status details", async () => {
    const pair = await securityWorld({ ...SETTINGS, haUrl: "http://ha.local:8123", haToken: "tok" });
    assert.deepEqual(pair.opened, [{ url: "http://ha.local:8123", token: "tok" }]);
    const half = await securityWorld({ ...SETTINGS, haUrl: "http://ha.local:8123", alwaysAlerts: "lock.door" });
    assert.deepEqual(half.opened, [undefined], "the pair is ignored: the bridge's connection is used");
    assert.deepEqual(half.status.details?.warnings, [
      "set both haUrl and haToken, or neither: the pair is ignored",
      "alwaysAlerts: lock.door dropped: alerts must be siren, switch, light, script or scene entities",
    ]);
  });

  it("registers nothing before a configuration is saved", async () => {
    const context = fakeContext();
    const status: (string | null)[] = [];
    const plugin = new SecurityPlugin(
      fakeBuiltinServices({ setStatus: (line) => void status.push(line), openHa: () => fakeHa(HOME) }),
    );
    await plugin.onStart(context);
    await plugin.onConfigure();
    assert.equal(context.devices.size, 0);
    assert.match(status.at(-1) ?? "", /not configured/);
    await plugin.onShutdown();
  });

  it("applies a new configuration live, keeping the armed state and the same devices", async () => {
    const world = await securityWorld();
    await world.flip("night", true);
    await world.advance(30 * S);
    world.take();
    await world.plugin.onConfigChanged({ ...SETTINGS, nightTriggers: "binary_sensor.front_door", entryDelaySeconds: 0 });
    await world.advance(0);
    assert.deepEqual(world.view(), { mode: "night", open: false });
    world.ha.set("binary_sensor.hall_motion", "on");
    await world.advance(0);
    assert.deepEqual(world.view(), { mode: "night", open: false }, "hall motion is no longer a Night trigger");
    world.ha.set("binary_sensor.front_door", "on");
    await world.advance(0);
    assert.deepEqual(world.view(), { mode: "night", open: true });
  });
});

describe("security plugin: persistence and reliable calls", () => {
  it("comes back armed after a restart, without invoking the setters again", async () => {
    const world = await securityWorld();
    await world.flip("away", true);
    await world.advance(30 * S);
    const calls = world.ha.calls.length;
    const again = await world.restart();
    assert.deepEqual(again.view(), { mode: "away", open: false });
    assert.equal(again.status.line, "armed (Away)");
    assert.equal(world.ha.calls.length, calls, "no setter ran again");
    again.ha.set("binary_sensor.hall_motion", "on");
    await again.advance(0);
    assert.deepEqual(again.view(), { mode: "away", open: true }, "and its triggers are watched again");
  });

  it("resumes the exit delay and the trigger time across a restart at their original end", async () => {
    const world = await securityWorld();
    await world.flip("home", true);
    await world.advance(20 * S);
    const again = await world.restart();
    assert.deepEqual(again.view(), { mode: "home", open: false });
    await again.advance(10 * S - 1);
    assert.ok(!world.ha.calls.includes("script.turn_on script.home_mode"));
    await again.advance(1);
    assert.ok(world.ha.calls.includes("script.turn_on script.home_mode"));

    again.ha.set("binary_sensor.front_door", "on");
    await again.advance(20 * S + 100 * S);
    const third = await again.restart();
    assert.deepEqual(third.view(), { mode: "home", open: true });
    await third.advance(20 * S);
    assert.deepEqual(third.view(), { mode: "home", open: false }, "the trip ended 120 s after it began");
    assert.ok(world.ha.calls.includes("light.turn_off light.hall"));
  });

  it("persists due turn_off calls until HA confirms them, replaying them on reconnect and after a restart", async () => {
    const world = await securityWorld();
    world.ha.set("binary_sensor.smoke", "on");
    await world.advance(0);
    world.ha.failing = (action) => action.endsWith("turn_off");
    await world.advance(120 * S);
    assert.deepEqual(world.view(), { mode: null, open: false });
    const storage = () => world.context.storage.get<string[]>("pendingTurnOffs");
    assert.deepEqual(storage()?.sort(), ["light.hall", "siren.main", "switch.strobe"]);
    world.ha.reconnect();
    await world.advance(0);
    assert.equal(storage()?.length, 3, "still failing: still pending");

    const again = await world.restart();
    assert.equal(again.context.storage.get<string[]>("pendingTurnOffs")?.length, 3);
    world.ha.failing = (action, entityId) => action.endsWith("turn_off") && entityId === "siren.main";
    world.ha.reconnect();
    await again.advance(0);
    assert.deepEqual(again.context.storage.get("pendingTurnOffs"), ["siren.main"]);
    world.ha.failing = undefined;
    world.ha.reconnect();
    await again.advance(0);
    assert.deepEqual(again.context.storage.get("pendingTurnOffs"), []);
  });

  it("replays held setters on reconnect only while their mode is still armed", async () => {
    const world = await securityWorld();
    world.ha.failing = (action) => action === "script.turn_on";
    await world.flip("home", true);
    await world.advance(30 * S);
    world.take();
    world.ha.failing = undefined;
    world.ha.reconnect();
    await world.advance(0);
    assert.deepEqual(world.take(), ["script.turn_on script.home_mode"]);
    world.ha.reconnect();
    await world.advance(0);
    assert.deepEqual(world.take(), [], "replayed once");

    world.ha.failing = (action) => action === "script.turn_on";
    await world.flip("home", false);
    await world.flip("night", true);
    await world.advance(30 * S);
    await world.flip("night", false);
    world.ha.failing = undefined;
    world.take();
    world.ha.reconnect();
    await world.advance(0);
    assert.deepEqual(world.take(), ["script.turn_on script.disarmed"], "only the off setter: Night is no longer armed");
  });
});

describe("security plugin: mirroring an HA alarm panel", () => {
  const panel = { ...SETTINGS, sourceAlarmPanel: "alarm_control_panel.house" };

  it("follows the panel's initial state and its changes; armed_custom_bypass leaves the view unchanged", async () => {
    const ha = fakeHa({ ...HOME, "alarm_control_panel.house": { state: "armed_night" } });
    const world = await securityWorld(panel, { ha });
    assert.deepEqual(world.view(), { mode: "night", open: false });
    assert.equal(world.status.line, "mirroring the panel (Night)");
    ha.set("alarm_control_panel.house", "armed_away");
    await world.advance(0);
    assert.deepEqual(world.view(), { mode: "away", open: false });
    ha.set("alarm_control_panel.house", "triggered");
    await world.advance(0);
    assert.deepEqual(world.view(), { mode: "away", open: true });
    ha.set("alarm_control_panel.house", "armed_custom_bypass");
    await world.advance(0);
    assert.deepEqual(world.view(), { mode: "away", open: true });
    ha.set("alarm_control_panel.house", "disarmed");
    await world.advance(0);
    assert.deepEqual(world.view(), { mode: null, open: false });
  });

  it("turns switch writes into alarm_* calls on the panel without a code; the local logic stays inactive", async () => {
    const world = await securityWorld(panel);
    await world.flip("away", true);
    assert.deepEqual(world.take(), ["alarm_control_panel.alarm_arm_away alarm_control_panel.house"]);
    world.ha.set("alarm_control_panel.house", "armed_away");
    await world.advance(60 * S);
    assert.deepEqual(world.take(), [], "no setters: the panel is the alarm");
    world.ha.set("binary_sensor.hall_motion", "on");
    world.ha.set("binary_sensor.smoke", "on");
    await world.advance(0);
    assert.deepEqual(world.view(), { mode: "away", open: false }, "no local triggers");
    assert.deepEqual(world.take(), []);
    await world.flip("away", false);
    assert.deepEqual(world.take(), ["alarm_control_panel.alarm_disarm alarm_control_panel.house"]);
    for (const mode of ["home", "night", "vacation"] as const) {
      await world.flip(mode, true);
      assert.deepEqual(world.take(), [`alarm_control_panel.alarm_arm_${mode} alarm_control_panel.house`]);
    }
  });

  it("reverts the switches to the panel's real state when HA refuses the call (a panel that needs a code)", async () => {
    const world = await securityWorld(panel);
    world.ha.failing = () => true;
    await world.flip("home", true);
    await world.advance(0);
    assert.deepEqual(world.view(), { mode: null, open: false });
    assert.ok(world.context.warnings.some((w) => /alarm_arm_home on alarm_control_panel.house failed/.test(w)));
  });
});
