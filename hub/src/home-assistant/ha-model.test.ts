import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { HomeAssistantModel } from "./ha-model.ts";
import type { DeviceRegistryEntry, EntityRegistryEntry } from "./types.ts";

const entity = (entity_id: string, extra: Partial<EntityRegistryEntry> = {}): EntityRegistryEntry => ({
  entity_id,
  id: `reg-${entity_id}`,
  unique_id: `uid-${entity_id}`,
  platform: "demo",
  device_id: null,
  area_id: null,
  config_entry_id: null,
  disabled_by: null,
  hidden_by: null,
  entity_category: null,
  has_entity_name: false,
  name: null,
  original_name: null,
  icon: null,
  labels: [],
  ...extra,
});
const device = (id: string, area_id: string | null): DeviceRegistryEntry => ({
  id,
  name: id,
  name_by_user: null,
  manufacturer: "Acme",
  model: "X",
  sw_version: null,
  hw_version: null,
  area_id,
  labels: [],
  disabled_by: null,
  entry_type: null,
  via_device_id: null,
  config_entries: [],
});

describe("HomeAssistantModel", () => {
  it("applies compressed snapshots and diffs, and notifies only the changed entity's listeners", () => {
    const model = new HomeAssistantModel();
    const seen: string[] = [];
    model.onEntity("light.a", (id, state) => seen.push(`${id}=${state?.state}`));
    model.onEntity("light.b", (id, state) => seen.push(`${id}=${state?.state}`));
    model.applyCompressed(
      {
        a: {
          "light.a": { s: "off", a: { friendly_name: "A", brightness: null }, c: "ctx1", lc: 1000 },
          "light.b": { s: "on", a: { friendly_name: "B", brightness: 100 }, c: "ctx2", lc: 1000 },
        },
      },
      true,
    );
    assert.deepEqual(seen.splice(0), ["light.a=off", "light.b=on"]);
    model.applyCompressed({ c: { "light.a": { "+": { s: "on", a: { brightness: 200 }, lc: 1001 } } } });
    assert.deepEqual(seen.splice(0), ["light.a=on"]);
    assert.equal(model.states.get("light.a")?.attributes.brightness, 200);
    assert.equal(model.states.get("light.a")?.last_changed, new Date(1001_000).toISOString());
    model.applyCompressed({ c: { "light.b": { "+": { lu: 1002 }, "-": { a: ["brightness"] } } } });
    assert.equal("brightness" in (model.states.get("light.b")?.attributes ?? {}), false);
    assert.equal(model.states.get("light.b")?.last_changed, new Date(1000_000).toISOString());
    assert.deepEqual(seen.splice(0), ["light.b=on"]);
    model.applyCompressed({ r: ["light.b"] });
    assert.deepEqual(seen.splice(0), ["light.b=undefined"]);
    assert.equal(model.states.has("light.b"), false);
  });

  it("treats a resubscription snapshot as the whole home: missing entities are removed, unchanged ones are quiet", () => {
    const model = new HomeAssistantModel();
    model.applyCompressed(
      { a: { "switch.x": { s: "on", a: {}, c: "c", lc: 1 }, "switch.y": { s: "on", a: {}, c: "c", lc: 1 } } },
      true,
    );
    const structure: string[][] = [];
    const states: string[] = [];
    model.onStructure((ids) => structure.push([...ids]));
    model.onEntity("switch.x", (id) => states.push(id));
    model.onEntity("switch.y", (id) => states.push(id));
    model.applyCompressed({ a: { "switch.x": { s: "on", a: {}, c: "c2", lc: 1 } } }, true);
    assert.deepEqual(structure, [["switch.y"]]);
    assert.deepEqual(states, ["switch.y"]);
  });

  it("reconciles with a get_states answer: missed changes reported, newer events kept, unchanged ones quiet", () => {
    const model = new HomeAssistantModel();
    model.applyCompressed(
      {
        a: {
          "switch.missed": { s: "on", a: {}, c: "c", lc: 100 },
          "switch.same": { s: "on", a: { x: 1 }, c: "c", lc: 100 },
          "switch.newer": { s: "off", a: {}, c: "c", lc: 300 },
        },
      },
      true,
    );
    const states: string[] = [];
    const structure: string[][] = [];
    for (const id of ["switch.missed", "switch.same", "switch.newer", "switch.added"])
      model.onEntity(id, (changed, state) => states.push(`${changed}=${state?.state}`));
    model.onStructure((ids) => structure.push([...ids]));
    const at = (seconds: number) => new Date(seconds * 1000).toISOString();
    const answer = (entity_id: string, state: string, seconds: number, attributes: Record<string, unknown> = {}) => ({
      entity_id,
      state,
      attributes,
      context: { id: "c", parent_id: null, user_id: null },
      last_changed: at(seconds),
      last_updated: at(seconds),
    });
    const changed = model.applyStates([
      answer("switch.missed", "off", 200),
      answer("switch.same", "on", 100, { x: 1 }),
      answer("switch.newer", "on", 250),
      answer("switch.added", "on", 200),
    ]);
    assert.deepEqual(changed.sort(), ["switch.added", "switch.missed"]);
    assert.deepEqual(states.sort(), ["switch.added=on", "switch.missed=off"]);
    assert.deepEqual(structure, [["switch.added"]]);
    assert.equal(model.states.get("switch.newer")?.state, "off", "an event newer than the answer wins");
  });

  it("reports structural changes for registry updates, including entities of a moved device", () => {
    const model = new HomeAssistantModel();
    model.setRegistries({
      entities: [entity("light.a", { device_id: "d1" }), entity("sensor.t", { device_id: "d1" }), entity("switch.z")],
      devices: [device("d1", "kitchen")],
      areas: [],
      labels: [],
    });
    const changes: string[][] = [];
    model.onStructure((ids) => changes.push([...ids].sort()));
    model.setRegistries({
      entities: [entity("light.a", { device_id: "d1" }), entity("sensor.t", { device_id: "d1" }), entity("switch.z")],
      devices: [device("d1", "office")],
      areas: [],
      labels: [],
    });
    assert.deepEqual(changes.splice(0), [["light.a", "sensor.t"]]);
    model.upsertEntity(entity("switch.renamed"), "switch.z");
    assert.deepEqual(changes.splice(0), [["switch.renamed", "switch.z"]]);
    assert.equal(model.entities.has("switch.z"), false);
    model.removeEntity("sensor.t");
    assert.deepEqual([...model.entityIdsOfDevice("d1")], ["light.a"]);
  });

  it("reports an area or label rename only for the entities that carry it (own, or through their device)", () => {
    const model = new HomeAssistantModel();
    const area = (area_id: string, name: string) => ({ area_id, name, picture: null, aliases: [], labels: [] }) as never;
    const label = (label_id: string, name: string) => ({ label_id, name, color: null, icon: null, description: null }) as never;
    const registries = (kitchen: string, night: string) => ({
      entities: [
        entity("light.a", { device_id: "d1" }),
        entity("light.b", { area_id: "kitchen" }),
        entity("switch.c", { labels: ["night"] }),
        entity("switch.d", { device_id: "d2" }),
        entity("sensor.e", { area_id: "office" }),
      ],
      devices: [device("d1", "kitchen"), { ...device("d2", null), labels: ["night"] }],
      areas: [area("kitchen", kitchen), area("office", "Office")],
      labels: [label("night", night)],
    });
    model.setRegistries(registries("Kitchen", "Night"));
    const changes: string[][] = [];
    model.onStructure((ids) => changes.push([...ids].sort()));
    model.setRegistries(registries("Cuisine", "Night"));
    assert.deepEqual(changes.splice(0), [["light.a", "light.b"]]);
    model.setRegistries(registries("Cuisine", "Nuit"));
    assert.deepEqual(changes.splice(0), [["switch.c", "switch.d"]]);
    model.setRegistries(registries("Cuisine", "Nuit"));
    assert.deepEqual(changes.splice(0), [], "nothing changed, nothing reported");
  });
});
