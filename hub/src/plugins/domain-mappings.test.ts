import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { memoryLogger } from "../../../lib/testing/fixtures.ts";
import type { PluginDeviceType } from "./api.ts";
import { DomainMappings } from "./domain-mappings.ts";

const map = (domain: string, matterDeviceType: string) => ({ domain, matterDeviceType: matterDeviceType as PluginDeviceType });

describe("plugin domain mappings of a bridge", () => {
  it("the last registration wins with a warning; dropping it brings back the earlier one", () => {
    const { log, lines } = memoryLogger("debug");
    const mappings = new DomainMappings(log);
    assert.equal(mappings.register("weather-plugin", map("weather", "temperature_sensor")), true);
    assert.equal(mappings.get("weather"), "temperature_sensor");
    assert.equal(lines().length, 0, "a first registration is no warning");
    assert.equal(mappings.register("other-plugin", map("weather", "humidity_sensor")), true);
    assert.equal(mappings.get("weather"), "humidity_sensor");
    const warning = lines()
      .map((line) => JSON.parse(line) as { level: string; msg: string })
      .at(-1);
    assert.equal(warning?.level, "warn");
    assert.match(
      warning?.msg ?? "",
      /domain weather: plugin other-plugin's mapping \(humidity_sensor\) replaces plugin weather-plugin's \(temperature_sensor\); the last registration wins/,
    );
    assert.deepEqual(mappings.list(), [{ domain: "weather", matterDeviceType: "humidity_sensor", plugin: "other-plugin" }]);
    // The same plugin registering again is not a conflict and changes nothing.
    const before = lines().length;
    assert.equal(mappings.register("other-plugin", map("weather", "humidity_sensor")), false);
    assert.equal(lines().length, before);
    assert.deepEqual(mappings.drop("other-plugin"), ["weather"]);
    assert.equal(mappings.get("weather"), "temperature_sensor");
    assert.deepEqual(mappings.drop("weather-plugin"), ["weather"]);
    assert.equal(mappings.get("weather"), undefined);
    assert.deepEqual(mappings.drop("nobody"), []);
  });

  it("ignores domains the hub handles itself, and refuses bad domains and device types", () => {
    const { log, lines } = memoryLogger("debug");
    const mappings = new DomainMappings(log);
    assert.equal(mappings.register("p", map("light", "on_off_plugin_unit")), false);
    assert.equal(mappings.get("light"), undefined);
    assert.match(lines().at(-1) ?? "", /plugin p maps domain light, which the hub handles itself: mapping ignored/);
    assert.throws(() => mappings.register("p", map("Weather!", "fan")), /invalid domain "Weather!"/);
    assert.throws(() => mappings.register("p", map("weather", "robot_vacuum")), /"robot_vacuum" is not a device type key/);
    assert.deepEqual(mappings.list(), []);
  });
});
