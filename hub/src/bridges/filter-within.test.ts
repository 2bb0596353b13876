import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import { viewEntity } from "../home-assistant/entity-view.ts";
import { HomeAssistantModel } from "../home-assistant/ha-model.ts";
import type { EntityRegistryEntry, HassEntity } from "../home-assistant/types.ts";
import { type BridgeFilter, BridgeFilterSchema, compileFilter } from "./filter.ts";

const entry = (entity_id: string, area_id: string | null, labels: string[]): EntityRegistryEntry => ({
  entity_id,
  id: entity_id,
  unique_id: entity_id,
  platform: "hue",
  device_id: null,
  area_id,
  config_entry_id: null,
  disabled_by: null,
  hidden_by: null,
  entity_category: null,
  has_entity_name: false,
  name: null,
  original_name: null,
  icon: null,
  labels,
});
const state = (entity_id: string): HassEntity => ({
  entity_id,
  state: "on",
  attributes: {},
  last_changed: "2026-01-01T00:00:00Z",
  last_updated: "2026-01-01T00:00:00Z",
  context: { id: "c", parent_id: null, user_id: null },
});

function home(): HomeAssistantModel {
  const model = new HomeAssistantModel();
  const entities = [
    entry("light.kitchen", "kitchen", ["upstairs"]),
    entry("light.hall", "hall", []),
    entry("switch.kitchen", "kitchen", []),
    entry("light.loose", null, ["upstairs"]),
  ];
  // HA's voice assistant settings live in the entry's options (exposed_entities.py).
  entities[0]!.options = { conversation: { should_expose: true } };
  entities[1]!.options = { conversation: { should_expose: true }, "cloud.alexa": { should_expose: true } };
  model.setRegistries({ entities, devices: [], areas: [], labels: [] });
  model.applyStates(entities.map((e) => state(e.entity_id)));
  return model;
}

describe("filter.within", () => {
  const model = home();
  const selected = (filter: Partial<BridgeFilter>) => {
    const compiled = compileFilter(v.parse(BridgeFilterSchema, filter), model);
    return [...model.entityIds()].filter((id) => compiled.matches(viewEntity(model, id)!)).sort();
  };

  it("narrows the include list instead of widening it", () => {
    const lights = { include: [{ type: "domain" as const, value: "light" }] };
    assert.deepEqual(selected(lights), ["light.hall", "light.kitchen", "light.loose"]);
    assert.deepEqual(selected({ ...lights, within: [{ type: "area", value: "kitchen" }] }), ["light.kitchen"]);
  });

  it("takes alternatives within one rule type and requires every rule type present", () => {
    const areas = [
      { type: "area" as const, value: "kitchen" },
      { type: "area" as const, value: "hall" },
    ];
    assert.deepEqual(selected({ within: areas }), ["light.hall", "light.kitchen", "switch.kitchen"]);
    assert.deepEqual(selected({ within: [...areas, { type: "label", value: "upstairs" }] }), ["light.kitchen"]);
  });

  it("narrows by exposed_to like any rule type, and narrows an exposed_to filter as a split does", () => {
    const assist = { type: "exposed_to" as const, value: "conversation" };
    assert.deepEqual(selected({ include: [{ type: "domain", value: "light" }], within: [assist] }), [
      "light.hall",
      "light.kitchen",
    ]);
    // A split keeps the original rules and adds the areas of each new bridge.
    const split = { include: [assist], exclude: [{ type: "exposed_to" as const, value: "cloud.alexa" }] };
    assert.deepEqual(selected(split), ["light.kitchen"]);
    assert.deepEqual(selected({ ...split, within: [{ type: "area", value: "kitchen" }] }), ["light.kitchen"]);
    assert.deepEqual(selected({ ...split, within: [{ type: "area", value: "hall" }] }), []);
  });

  it("says why an entity is out, and leaves a filter without it as it was", () => {
    const compiled = compileFilter(v.parse(BridgeFilterSchema, { within: [{ type: "area", value: "kitchen" }] }), model);
    assert.equal(compiled.reason(viewEntity(model, "light.hall")!), "outside");
    assert.deepEqual(selected({}), ["light.hall", "light.kitchen", "light.loose", "switch.kitchen"]);
    assert.equal(v.parse(BridgeFilterSchema, {}).within, undefined, "absent stays absent (older files unchanged)");
  });
});
