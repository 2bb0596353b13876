/**
 * The appliance cloud plugin against the simulated cloud (docs/plugins.md "Appliance cloud plugin"): sign-in and
 * its failures in the status line, device switches off by default, the device mappings, plug behaviour,
 * unreachable offline devices, and polling within the daily quota.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ACCOUNT, applianceWorld, EMAIL, PASSWORD } from "../../testing/appliance-harness.ts";

const ALL_ON = Object.fromEntries(["fry2", "fry1", "plug", "puri", "tower", "humi"].map((cid) => [`device_${cid}`, true]));
const LOGIN = "/cloud/v1/user/login";
const LIST = "/cloud/v1/deviceManaged/devices";
const BYPASS = "/cloud/v2/deviceManaged/bypassV2";

describe("appliance cloud plugin: sign-in", () => {
  it("waits for an e-mail and a password, with no devices", async () => {
    const world = await applianceWorld();
    assert.equal(world.status.line, "not configured: enter the account e-mail and password");
    await world.configure({ email: EMAIL });
    assert.equal(world.status.line, "not configured: enter the account e-mail and password");
    assert.equal(world.cloud.requestCount, 0);
    assert.equal(world.context.devices.size, 0);
  });

  it("shows sign-in failures in the status line, never the password, and signs in once they are fixed", async () => {
    const world = await applianceWorld();
    await world.configure({ email: EMAIL, password: "wrong" });
    assert.equal(world.status.line, "sign-in failed: wrong e-mail or password");
    await world.configure({ email: "nobody@example.com", password: PASSWORD });
    assert.equal(world.status.line, "sign-in failed: wrong e-mail or password");
    assert.ok(!JSON.stringify(world.status).includes(PASSWORD));
    assert.equal(world.context.devices.size, 0);
    await world.configure({ email: EMAIL, password: PASSWORD });
    assert.match(world.status.line ?? "", /^signed in: 11 devices on the account, 0 shown; polling every 60 s$/);

    const twoFactor = await applianceWorld({ twoFactor: true });
    await twoFactor.configure({ email: EMAIL, password: PASSWORD });
    assert.equal(twoFactor.status.line, "sign-in failed: this account uses two-factor sign-in, which the cloud API cannot use");
  });

  it("signs in again when the session expires, without losing a poll", async () => {
    const world = await applianceWorld();
    await world.configure({ email: EMAIL, password: PASSWORD, device_plug: true });
    assert.equal(world.cloud.requests.get(LOGIN), 1);
    world.cloud.expireTokens();
    world.cloud.setStatus("plug", { enabled: true });
    await world.advance(60_000);
    assert.equal(world.cloud.requests.get(LOGIN), 2);
    assert.equal(world.context.attribute("plug", "onOff", "onOff"), true);
    assert.match(world.status.line ?? "", /^signed in/);
  });
});

describe("appliance cloud plugin: devices", () => {
  it("lists one switch per supported device, off by default, and names the unsupported ones", async () => {
    const world = await applianceWorld();
    await world.configure({ email: EMAIL, password: PASSWORD });
    assert.equal(world.context.devices.size, 0, "devices stay hidden until switched on");
    const schema = world.plugin.getConfigSchema();
    assert.deepEqual(Object.keys(schema.properties), [
      "email",
      "password",
      "pollInterval",
      "device_fry2",
      "device_fry1",
      "device_plug",
      "device_puri",
      "device_tower",
      "device_humi",
    ]);
    assert.equal(schema.properties.password?.secret, true);
    assert.deepEqual(schema.properties.pollInterval, {
      type: "integer",
      title: "Poll interval (s)",
      minimum: 30,
      maximum: 3600,
      default: 60,
    });
    assert.deepEqual(schema.properties.device_fry2, { type: "boolean", title: "Dual fryer", default: false });
    assert.deepEqual(world.status.details?.unsupported, [
      { name: "Desk bulb", model: "ESL100", reason: "bulbs are not supported" },
      { name: "Hall dimmer", model: "ESWD16", reason: "dimmers are not supported" },
      { name: "Hall thermostat", model: "LTM-A401S-WUS", reason: "thermostats are not supported" },
      { name: "Old fryer", model: "CS158-AF", reason: "older air fryer models are not supported" },
      { name: "Old plug", model: "ESW01-EU", reason: "this plug model is not supported" },
    ]);
  });

  it("maps each family to its Matter devices with the cloud's state", async () => {
    const world = await applianceWorld();
    await world.configure({ email: EMAIL, password: PASSWORD, ...ALL_ON, device_bulb: true });
    const devices = [...world.context.devices.values()].map((d) => [d.id, d.name, d.deviceType]);
    assert.deepEqual(devices, [
      ["fry2-left", "Dual fryer Left", "on_off_plugin_unit"],
      ["fry2-right", "Dual fryer Right", "on_off_plugin_unit"],
      ["fry1", "Small fryer", "on_off_plugin_unit"],
      ["plug", "Kettle plug", "on_off_plugin_unit"],
      ["puri", "Bedroom purifier", "air_purifier"],
      ["tower", "Tower fan", "fan"],
      ["humi", "Nursery humidifier", "on_off_plugin_unit"],
      ["humi-humidity", "Nursery humidifier Humidity", "humidity_sensor"],
    ]);
    const on = (id: string) => world.context.attribute(id, "onOff", "onOff");
    assert.deepEqual(
      ["fry2-left", "fry2-right", "fry1", "plug", "puri", "humi"].map(on),
      [true, false, true, false, true, true],
      "a fryer basket is on while cooking or paused",
    );
    // A purifier in auto mode shows a low speed; auto cannot be picked (fanModeSequence 0: Off/Low/Med/High).
    assert.deepEqual(world.context.states.get("puri")?.fanControl, {
      fanModeSequence: 0,
      speedMax: 3,
      fanMode: 1,
      percentSetting: 33,
      percentCurrent: 33,
      speedSetting: 1,
      speedCurrent: 1,
    });
    assert.equal(world.context.attribute("tower", "fanControl", "speedMax"), 12);
    assert.equal(world.context.attribute("tower", "fanControl", "percentCurrent"), 50);
    assert.equal(world.context.attribute("humi-humidity", "relativeHumidityMeasurement", "measuredValue"), 4550);
    assert.match(world.status.line ?? "", /6 shown/);
  });

  it("fryer plugs: off ends the cook, on never starts one and reverts", async () => {
    const world = await applianceWorld();
    await world.configure({ email: EMAIL, password: PASSWORD, device_fry2: true });
    await world.context.write("fry2-right", "onOff", "onOff", true);
    assert.equal(world.context.attribute("fry2-right", "onOff", "onOff"), false, "reverted");
    assert.deepEqual(world.cloud.commands, []);
    await world.context.write("fry2-left", "onOff", "onOff", false);
    assert.deepEqual(world.cloud.commands, [{ cid: "fry2", method: "endCook", data: { basket: 1 } }]);
    assert.equal(world.context.attribute("fry2-left", "onOff", "onOff"), false);
    await world.context.write("fry2-left", "onOff", "onOff", true);
    assert.equal(world.context.attribute("fry2-left", "onOff", "onOff"), false, "a cook is never started remotely");
    assert.equal(world.cloud.commands.length, 1);
    // A cook ends on the appliance: the plug follows at the next poll.
    world.cloud.setStatus("fry2", {
      baskets: [
        { id: 1, cookStatus: "standby" },
        { id: 2, cookStatus: "preheating" },
      ],
    });
    await world.advance(60_000);
    assert.equal(world.context.attribute("fry2-right", "onOff", "onOff"), true);
  });

  it("plugs switch, purifiers and fans take speeds; auto mode cannot be chosen from a controller", async () => {
    const world = await applianceWorld();
    await world.configure({ email: EMAIL, password: PASSWORD, ...ALL_ON });
    await world.context.write("plug", "onOff", "onOff", true);
    assert.deepEqual(world.cloud.commands.at(-1), { cid: "plug", method: "setSwitch", data: { on: true } });
    assert.equal(world.context.attribute("plug", "onOff", "onOff"), true);

    await world.context.write("puri", "fanControl", "percentSetting", 100);
    assert.deepEqual(world.cloud.commands.at(-1), { cid: "puri", method: "setLevel", data: { level: 3 } });
    assert.equal(world.context.attribute("puri", "fanControl", "fanMode"), 3);
    const before = world.cloud.commands.length;
    await world.context.write("puri", "fanControl", "fanMode", 5);
    assert.equal(world.cloud.commands.length, before, "auto is refused");
    assert.equal(world.context.attribute("puri", "fanControl", "fanMode"), 3, "and reverted");
    await world.context.write("puri", "fanControl", "fanMode", 0);
    assert.deepEqual(world.cloud.commands.at(-1), { cid: "puri", method: "setSwitch", data: { on: false } });
    assert.equal(world.context.attribute("puri", "onOff", "onOff"), false);

    await world.context.write("tower", "fanControl", "speedSetting", 9);
    assert.deepEqual(world.cloud.commands.at(-1), { cid: "tower", method: "setLevel", data: { level: 9 } });
    assert.equal(world.context.attribute("tower", "fanControl", "percentCurrent"), 75);
    await world.context.write("humi", "onOff", "onOff", false);
    assert.deepEqual(world.cloud.commands.at(-1), { cid: "humi", method: "setSwitch", data: { on: false } });
  });

  it("shows an offline device as unreachable until it is back", async () => {
    const world = await applianceWorld();
    await world.configure({ email: EMAIL, password: PASSWORD, device_humi: true });
    const reachable = (id: string) => world.context.attribute(id, "bridgedDeviceBasicInformation", "reachable");
    assert.equal(reachable("humi"), true);
    world.cloud.setOnline("humi", false);
    await world.advance(60_000);
    assert.equal(reachable("humi"), false);
    assert.equal(reachable("humi-humidity"), false);
    world.cloud.setOnline("humi", true);
    await world.advance(60_000);
    assert.equal(reachable("humi"), true);
  });

  it("removes devices switched off, and everything when the credentials are removed", async () => {
    const world = await applianceWorld();
    await world.configure({ email: EMAIL, password: PASSWORD, device_fry2: true, device_plug: true });
    assert.equal(world.context.devices.size, 3);
    await world.configure({ email: EMAIL, password: PASSWORD, device_fry2: false, device_plug: true });
    assert.deepEqual([...world.context.devices.keys()], ["plug"]);
    await world.configure({ device_plug: true });
    assert.equal(world.context.devices.size, 0);
    assert.match(world.status.line ?? "", /not configured/);
    await world.plugin.onShutdown();
    assert.equal(world.clock.pending, 0, "no poll timer is left behind");
  });
});

describe("appliance cloud plugin: polling within the daily quota", () => {
  it("polls every pollInterval seconds: the device list and one status per shown device", async () => {
    const world = await applianceWorld();
    await world.configure({ email: EMAIL, password: PASSWORD, device_plug: true, device_puri: true });
    const counts = () => [world.cloud.requests.get(LIST), world.cloud.requests.get(BYPASS)];
    assert.deepEqual(counts(), [1, 2]);
    await world.advance(59_999);
    assert.deepEqual(counts(), [1, 2]);
    await world.advance(1);
    assert.deepEqual(counts(), [2, 4]);
    await world.configure({ email: EMAIL, password: PASSWORD, device_plug: true, device_puri: true, pollInterval: 600 });
    await world.advance(599_999);
    assert.deepEqual(counts(), [3, 6], "only the re-applied configuration polled");
    await world.advance(1);
    assert.deepEqual(counts(), [4, 8]);
  });

  it("raises the interval when a day of polling would exceed 3200 + 1500 requests per device", async () => {
    const world = await applianceWorld();
    // 11 devices on the account (quota 19 700 a day), 6 shown: 7 requests a poll → ceil(86 400 × 7 / 19 700) = 31 s.
    await world.configure({ email: EMAIL, password: PASSWORD, ...ALL_ON, pollInterval: 30 });
    assert.equal(
      world.status.line,
      "signed in: 11 devices on the account, 6 shown; polling every 31 s (raised from 30 s to stay within the daily quota of 19700 requests)",
    );
    assert.deepEqual(
      { ...world.status.details, unsupported: undefined },
      { unsupported: undefined, pollInterval: 31, pollRaised: true, dailyQuota: 19_700 },
    );
    const lists = () => world.cloud.requests.get(LIST);
    await world.advance(30_000);
    assert.equal(lists(), 1);
    await world.advance(1000);
    assert.equal(lists(), 2);
    // With fewer devices shown the configured 30 s fits again.
    await world.configure({ email: EMAIL, password: PASSWORD, device_plug: true, pollInterval: 30 });
    assert.match(world.status.line ?? "", /polling every 30 s$/);
    assert.equal(ACCOUNT.length, 11);
  });
});
