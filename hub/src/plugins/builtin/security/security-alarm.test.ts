/**
 * Every row of docs/plugins.md "Security plugin alarm", through the plugin as a controller drives it (mode switch
 * flips, the Alarm contact sensor) with Home Assistant and the clock faked. Settings: exit 30 s, entry 20 s,
 * trigger time 120 s (testing/security-harness.ts).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { SETTINGS, securityWorld } from "../../testing/security-harness.ts";

const S = 1000;

describe("security plugin: the alarm state table", () => {
  it("registers no devices until configured, then four mode switches and the Alarm contact sensor", async () => {
    const world = await securityWorld();
    assert.deepEqual(
      [...world.context.devices.values()].map((d) => [d.id, d.name, d.deviceType]),
      [
        ["mode-home", "Home", "on_off_plugin_unit"],
        ["mode-away", "Away", "on_off_plugin_unit"],
        ["mode-night", "Night", "on_off_plugin_unit"],
        ["mode-vacation", "Vacation", "on_off_plugin_unit"],
        ["alarm", "Alarm", "contact_sensor"],
      ],
    );
    assert.deepEqual(world.view(), { mode: null, open: false });
    assert.equal(world.status.line, "disarmed");
    assert.deepEqual(world.take(), [], "nothing is called while disarmed");
  });

  it("disarmed, mode switch on: exit delay, then armed in that mode with its setters; the other switches turn off", async () => {
    const world = await securityWorld();
    await world.flip("away", true);
    assert.deepEqual(world.view(), { mode: "away", open: false });
    assert.equal(world.status.line, "arming (Away)");
    await world.advance(30 * S - 1);
    assert.deepEqual(world.take(), [], "setters wait for the end of the exit delay");
    await world.advance(1);
    // "scene.away" was listed twice: de-duplicated.
    assert.deepEqual(world.take().sort(), ["scene.turn_on scene.away", "switch.turn_on switch.away_lights"]);
    assert.equal(world.status.line, "armed (Away)");
    // Another mode: the active switch goes off at once, the new mode arms after its exit delay.
    await world.flip("night", true);
    assert.deepEqual(world.view(), { mode: "night", open: false });
    await world.advance(30 * S);
    assert.deepEqual(world.take(), ["script.turn_on script.night"]);
    assert.deepEqual(world.view(), { mode: "night", open: false });
  });

  it("armed, active switch off: disarmed with the off setters; a switch that is not active changes nothing", async () => {
    const world = await securityWorld();
    await world.flip("home", true);
    await world.advance(30 * S);
    world.take();
    await world.flip("away", false);
    assert.deepEqual(world.view(), { mode: "home", open: false });
    assert.deepEqual(world.take(), []);
    await world.flip("home", false);
    assert.deepEqual(world.view(), { mode: null, open: false });
    assert.deepEqual(world.take(), ["script.turn_on script.disarmed"]);
    assert.equal(world.status.line, "disarmed");
    // Disarming during the exit delay: the mode's setters never run.
    await world.flip("away", true);
    await world.advance(10 * S);
    await world.flip("away", false);
    await world.advance(60 * S);
    assert.deepEqual(world.take(), ["script.turn_on script.disarmed"]);
  });

  it("armed, a non-perimeter trigger of that mode: tripped at once, mode alerts and alwaysAlerts on, Alarm opens", async () => {
    const world = await securityWorld();
    await world.flip("away", true);
    await world.advance(30 * S);
    world.take();
    world.ha.set("binary_sensor.hall_motion", "on");
    await world.advance(0);
    assert.deepEqual(world.view(), { mode: "away", open: true });
    assert.deepEqual(world.take().sort(), [
      "script.turn_on script.notify",
      "siren.turn_on siren.main",
      "switch.turn_on switch.strobe",
    ]);
    assert.equal(world.status.line, "TRIPPED, armed (Away)");
  });

  it("ignores triggers of other modes, triggers while disarmed or arming, and sensors going inactive", async () => {
    const world = await securityWorld();
    world.ha.set("binary_sensor.hall_motion", "on");
    world.ha.set("binary_sensor.hall_motion", "off");
    await world.flip("home", true);
    world.ha.set("binary_sensor.front_door", "on");
    world.ha.set("binary_sensor.front_door", "off");
    await world.advance(30 * S);
    world.take();
    world.ha.set("binary_sensor.hall_motion", "on", { device_class: "motion" });
    await world.advance(120 * S);
    assert.deepEqual(world.view(), { mode: "home", open: false }, "hall motion is not a Home trigger");
    assert.deepEqual(world.take(), []);
  });

  it("armed, a perimeter trigger: tripped after the entry delay, unless disarmed first", async () => {
    const world = await securityWorld();
    await world.flip("home", true);
    await world.advance(30 * S);
    world.take();
    world.ha.set("binary_sensor.front_door", "on");
    await world.advance(20 * S - 1);
    assert.deepEqual(world.view(), { mode: "home", open: false });
    await world.advance(1);
    assert.deepEqual(world.view(), { mode: "home", open: true });
    assert.deepEqual(world.take().sort(), ["light.turn_on light.hall", "switch.turn_on switch.strobe"]);

    const calm = await securityWorld();
    await calm.flip("home", true);
    await calm.advance(30 * S);
    calm.ha.set("binary_sensor.front_door", "off");
    calm.ha.set("binary_sensor.front_door", "on");
    await calm.advance(10 * S);
    await calm.flip("home", false);
    await calm.advance(60 * S);
    assert.deepEqual(calm.view(), { mode: null, open: false });
    assert.ok(!calm.take().some((call) => call.includes("light.hall")), "disarmed within the entry delay: no trip");
  });

  it("an entry delay of 0 trips a perimeter sensor at once; an exit delay of 0 arms at once", async () => {
    const world = await securityWorld({ ...SETTINGS, entryDelaySeconds: 0, exitDelaySeconds: 0 });
    await world.flip("home", true);
    assert.deepEqual(world.take(), ["script.turn_on script.home_mode"]);
    world.ha.set("binary_sensor.front_door", "on");
    await world.advance(0);
    assert.deepEqual(world.view(), { mode: "home", open: true });
  });

  it("disarmed, a 24h trigger: tripped with alerts24h and alwaysAlerts; armed, it trips without entry delay", async () => {
    const world = await securityWorld();
    world.ha.set("binary_sensor.smoke", "on");
    await world.advance(0);
    assert.deepEqual(world.view(), { mode: null, open: true });
    assert.deepEqual(world.take().sort(), [
      "light.turn_on light.hall",
      "siren.turn_on siren.main",
      "switch.turn_on switch.strobe",
    ]);
    assert.equal(world.status.line, "TRIPPED, disarmed");

    const armed = await securityWorld({ ...SETTINGS, triggers24h: "binary_sensor.front_door" });
    await armed.flip("night", true);
    await armed.advance(30 * S);
    armed.take();
    armed.ha.set("binary_sensor.front_door", "on");
    await armed.advance(0);
    assert.deepEqual(armed.view(), { mode: "night", open: true }, "a 24h door never waits for the entry delay");
  });

  it("tripped, trigger time elapsed: back to the state it was tripped from; siren, switch, light alerts off, scripts not", async () => {
    const world = await securityWorld();
    await world.flip("away", true);
    await world.advance(30 * S);
    world.ha.set("binary_sensor.hall_motion", "on");
    await world.advance(0);
    world.take();
    await world.advance(120 * S - 1);
    assert.deepEqual(world.view(), { mode: "away", open: true });
    await world.advance(1);
    assert.deepEqual(world.view(), { mode: "away", open: false }, "still armed in Away");
    assert.deepEqual(world.take().sort(), ["siren.turn_off siren.main", "switch.turn_off switch.strobe"]);
    // Armed again: the next trigger trips again.
    world.ha.set("binary_sensor.hall_motion", "off");
    world.ha.set("binary_sensor.hall_motion", "on");
    await world.advance(0);
    assert.deepEqual(world.view(), { mode: "away", open: true });

    const smoke = await securityWorld();
    smoke.ha.set("binary_sensor.smoke", "on");
    await smoke.advance(120 * S);
    assert.deepEqual(smoke.view(), { mode: null, open: false }, "a 24h trip while disarmed returns to disarmed");
    assert.deepEqual(
      smoke
        .take()
        .filter((call) => call.includes("turn_off"))
        .sort(),
      ["light.turn_off light.hall", "siren.turn_off siren.main", "switch.turn_off switch.strobe"],
    );
  });

  it("trigger time 0: the trip holds until disarm; a 24h trip while disarmed clears by arming and disarming", async () => {
    const world = await securityWorld({ ...SETTINGS, triggerTimeSeconds: 0 });
    await world.flip("away", true);
    await world.advance(30 * S);
    world.ha.set("binary_sensor.hall_motion", "on");
    await world.advance(24 * 3600 * S);
    assert.deepEqual(world.view(), { mode: "away", open: true });
    world.take();
    await world.flip("away", false);
    assert.deepEqual(world.view(), { mode: null, open: false });
    assert.deepEqual(world.take().sort(), [
      "script.turn_on script.disarmed",
      "siren.turn_off siren.main",
      "switch.turn_off switch.strobe",
    ]);

    const smoke = await securityWorld({ ...SETTINGS, triggerTimeSeconds: 0 });
    smoke.ha.set("binary_sensor.smoke", "on");
    await smoke.advance(3600 * S);
    assert.deepEqual(smoke.view(), { mode: null, open: true });
    await smoke.flip("home", true);
    await smoke.advance(30 * S);
    assert.deepEqual(smoke.view(), { mode: "home", open: true }, "arming does not clear it");
    await smoke.flip("home", false);
    assert.deepEqual(smoke.view(), { mode: null, open: false }, "disarming again does");
  });

  it("vacation falls back to the Away lists when its own are empty, and uses its own otherwise", async () => {
    const world = await securityWorld();
    await world.flip("vacation", true);
    await world.advance(30 * S);
    assert.deepEqual(world.take().sort(), ["scene.turn_on scene.away", "switch.turn_on switch.away_lights"]);
    world.ha.set("binary_sensor.hall_motion", "on");
    await world.advance(0);
    assert.deepEqual(world.view(), { mode: "vacation", open: true });
    assert.ok(world.take().includes("script.turn_on script.notify"), "the Away alerts");

    const own = await securityWorld({
      ...SETTINGS,
      vacationSetters: "script.vacation",
      vacationTriggers: "binary_sensor.smoke_free_zone",
      vacationAlerts: "light.porch",
    });
    await own.flip("vacation", true);
    await own.advance(30 * S);
    assert.deepEqual(own.take(), ["script.turn_on script.vacation"]);
    own.ha.set("binary_sensor.hall_motion", "on");
    await own.advance(0);
    assert.deepEqual(own.view(), { mode: "vacation", open: false }, "an Away trigger is not a Vacation trigger here");
    own.ha.set("binary_sensor.smoke_free_zone", "on");
    await own.advance(0);
    assert.deepEqual(own.take().sort(), ["light.turn_on light.porch", "switch.turn_on switch.strobe"]);
  });
});
