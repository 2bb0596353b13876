import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { DEMO_FIXTURES } from "../../../test/support/devices/demo-home.ts";
import { snapshot } from "../../../test/support/devices/ha-fixtures.ts";
import { DEVICE_TYPE_KEYS, type DeviceTypeKey } from "../model/contract.ts";
import { allowedOverrides, DOMAIN_TABLE, mapEntity } from "./domain-table.ts";

describe("domain table", () => {
  for (const { entity, expected } of DEMO_FIXTURES) {
    test(`${entity.entityId} → ${"key" in expected ? expected.key : "unsupported"}`, () => {
      const decision = mapEntity(entity);
      if ("key" in expected) {
        assert.deepEqual(decision, { key: expected.key });
      } else {
        assert.ok("unsupported" in decision, `expected unsupported, got ${JSON.stringify(decision)}`);
        assert.match(decision.unsupported, new RegExp(expected.unsupported));
      }
    });
  }

  test("every device type key is reachable from some demo entity, by default or by override", () => {
    const reachable = new Set<DeviceTypeKey>();
    for (const { entity } of DEMO_FIXTURES) {
      const decision = mapEntity(entity);
      if ("key" in decision) reachable.add(decision.key);
      for (const key of allowedOverrides(entity.domain, entity.state)) reachable.add(key);
    }
    assert.deepEqual(
      [...DEVICE_TYPE_KEYS].filter((key) => !reachable.has(key)),
      [],
    );
  });

  test("a missing state still gets a decision from the domain (no crash on entities HA has not reported)", () => {
    assert.deepEqual(mapEntity(snapshot("light.new_bulb", undefined)), { key: "on_off_light" });
    assert.deepEqual(mapEntity(snapshot("cover.new_cover", undefined)), { key: "window_covering" });
    assert.ok("unsupported" in mapEntity(snapshot("sensor.new_sensor", undefined)));
  });

  test("unknown temperature and pressure units are refused instead of shown wrong", () => {
    const temperature = mapEntity(snapshot("sensor.t", "1", { device_class: "temperature", unit_of_measurement: "°R" }));
    assert.ok("unsupported" in temperature && temperature.unsupported.includes("°R"));
    const pressure = mapEntity(snapshot("sensor.p", "1", { device_class: "pressure", unit_of_measurement: "atm" }));
    assert.ok("unsupported" in pressure && pressure.unsupported.includes("atm"));
  });

  test("every table row lists its default key among its overrides", () => {
    for (const { entity } of DEMO_FIXTURES) {
      const row = DOMAIN_TABLE[entity.domain];
      const decision = row?.decide(entity.state);
      if (!decision || !("key" in decision)) continue;
      assert.ok(allowedOverrides(entity.domain, entity.state).includes(decision.key), entity.entityId);
    }
  });
});

describe("user overrides", () => {
  const hallway = snapshot("light.hallway", "on", { supported_color_modes: ["brightness"], brightness: 10 });

  test("a compatible override wins over the table", () => {
    assert.deepEqual(mapEntity(snapshot("switch.lamp", "on"), "on_off_light"), { key: "on_off_light" });
    assert.deepEqual(mapEntity(hallway, "on_off_light"), { key: "on_off_light" });
    assert.deepEqual(mapEntity(hallway, "dimmable_plug_in_unit"), { key: "dimmable_plug_in_unit" });
    assert.deepEqual(mapEntity(snapshot("fan.purifier", "on"), "air_purifier"), { key: "air_purifier" });
    assert.deepEqual(mapEntity(snapshot("binary_sensor.x", "on", { device_class: "power" }), "on_off_sensor"), {
      key: "on_off_sensor",
    });
  });

  test("an override for another domain is refused with the possible keys", () => {
    const decision = mapEntity(snapshot("sensor.t", "20", { device_class: "temperature" }), "door_lock");
    assert.ok("unsupported" in decision);
    assert.match(decision.unsupported, /door_lock does not fit sensor\.t \(possible: temperature_sensor\)/);
  });

  test("an override beyond the entity's capabilities is refused (white-only bulb as colour light)", () => {
    const decision = mapEntity(hallway, "extended_color_light");
    assert.ok("unsupported" in decision);
    assert.match(decision.unsupported, /extended_color_light does not fit/);
  });

  test("null or undefined override means the table's choice; unsupported domains stay unsupported", () => {
    assert.deepEqual(mapEntity(hallway, null), { key: "dimmable_light" });
    assert.ok("unsupported" in mapEntity(snapshot("weather.home", "sunny"), "temperature_sensor"));
  });
});
