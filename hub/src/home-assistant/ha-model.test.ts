import assert from "node:assert/strict";
import { describe, it, mock } from "node:test";
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

  it("reports a state whose device class changed as structural (filters select by device class)", () => {
    const model = new HomeAssistantModel();
    model.applyCompressed({ a: { "binary_sensor.x": { s: "off", a: { device_class: "door" }, c: "c", lc: 1 } } }, true);
    const changes: string[][] = [];
    model.onStructure((ids) => changes.push([...ids]));
    model.applyCompressed({ c: { "binary_sensor.x": { "+": { s: "on", lc: 2 } } } });
    assert.deepEqual(changes.splice(0), [], "a plain state change is not structural");
    model.applyCompressed({ c: { "binary_sensor.x": { "+": { a: { device_class: "window" }, lu: 3 } } } });
    assert.deepEqual(changes.splice(0), [["binary_sensor.x"]]);
    model.applyCompressed({ c: { "binary_sensor.x": { "+": { lu: 4 }, "-": { a: ["device_class"] } } } });
    assert.deepEqual(changes.splice(0), [["binary_sensor.x"]]);
  });

  it("applies a burst of entity entries and re-read lists with one notification each, for what changed only", () => {
    const model = new HomeAssistantModel();
    model.setRegistries({
      entities: [
        entity("light.a", { device_id: "d1" }),
        entity("light.b"),
        entity("light.c"),
        entity("sensor.d", { device_id: "d2" }),
      ],
      devices: [device("d1", "kitchen"), device("d2", "office")],
      areas: [],
      labels: [],
    });
    const changes: string[][] = [];
    model.onStructure((ids) => changes.push([...ids].sort()));
    model.applyEntityChanges({
      upserts: [entity("light.a", { device_id: "d1" }), entity("light.b", { labels: ["x"] }), entity("light.new")],
      removed: ["light.c", "light.unknown"],
    });
    assert.deepEqual(changes.splice(0), [["light.b", "light.c", "light.new"]], "unchanged entries and unknown ids are quiet");
    assert.deepEqual([...model.entities.keys()].sort(), ["light.a", "light.b", "light.new", "sensor.d"]);
    model.applyRegistryLists({ devices: [device("d1", "kitchen"), device("d2", "garage")] });
    assert.deepEqual(changes.splice(0), [["sensor.d"]]);
    assert.equal(model.entities.size, 4, "a device list leaves the entity entries alone");
  });

  it("holds structural notifications while a burst lasts and sends them once, with the states of the burst", () => {
    const model = new HomeAssistantModel();
    model.applyCompressed({ a: { "switch.a": { s: "on", a: {}, c: "c", lc: 1 } } }, true);
    const changes: string[][] = [];
    const states: string[] = [];
    model.onStructure((ids) => changes.push([...ids].sort()));
    model.onEntity("switch.a", (id, state) => states.push(`${id}=${state?.state}`));
    const release = model.holdStructure();
    const nested = model.holdStructure();
    model.upsertEntity(entity("switch.a", { labels: ["x"] }));
    model.applyCompressed({ r: ["switch.a"] });
    model.applyCompressed({ a: { "switch.b": { s: "off", a: {}, c: "c", lc: 1 } } });
    assert.deepEqual(changes, []);
    assert.deepEqual(states, ["switch.a=undefined"], "state listeners are never held");
    nested();
    nested();
    assert.deepEqual(changes, [], "a release counts once; another hold is still on");
    release();
    assert.deepEqual(changes, [["switch.a", "switch.b"]]);
    model.applyCompressed({ r: ["switch.b"] });
    assert.deepEqual(changes.at(-1), ["switch.b"], "no hold, no delay");
  });

  it("lets held ids through after 2 s even while holds overlap, so a never-ending stream cannot starve bridges", () => {
    const model = new HomeAssistantModel();
    const changes: string[][] = [];
    model.onStructure((ids) => changes.push([...ids].sort()));
    let now = 1_000_000;
    const clock = mock.method(Date, "now", () => now);
    try {
      const release = model.holdStructure();
      model.upsertEntity(entity("light.a"));
      now += 1999;
      model.upsertEntity(entity("light.b"));
      assert.deepEqual(changes, []);
      now += 1;
      model.upsertEntity(entity("light.c"));
      assert.deepEqual(changes.splice(0), [["light.a", "light.b", "light.c"]]);
      release();
      assert.deepEqual(changes, [], "nothing left to send");
    } finally {
      clock.mock.restore();
    }
  });

  it("reads exposure from the registry entry's options, else from the expose list, and reports only real changes", () => {
    const model = new HomeAssistantModel();
    model.setRegistries({
      entities: [
        entity("light.a", { options: { conversation: { should_expose: true }, sensor: { display_precision: 2 } } }),
        entity("light.old_ha"), // an HA whose registry list has no options: the list decides
      ],
      devices: [],
      areas: [],
      labels: [],
    });
    const changes: string[][] = [];
    model.onStructure((ids) => changes.push([...ids].sort()));
    model.setExposureList({
      "light.a": { "cloud.alexa": true },
      "light.old_ha": { conversation: true, "cloud.alexa": false },
      "sensor.yaml": { conversation: true },
    });
    assert.deepEqual(changes.splice(0), [["light.old_ha", "sensor.yaml"]]);
    assert.deepEqual(model.exposedTo("light.a"), ["conversation"]);
    assert.deepEqual(model.exposedTo("light.old_ha"), ["conversation"]);
    assert.deepEqual(model.exposedTo("sensor.yaml"), ["conversation"]);
    model.setExposureList({ "light.old_ha": { conversation: true }, "sensor.yaml": { conversation: true, "cloud.alexa": true } });
    assert.deepEqual(changes.splice(0), [["sensor.yaml"]]);
    model.upsertEntity(entity("light.a", { options: { "cloud.alexa": { should_expose: true } } }));
    assert.deepEqual(model.exposedTo("light.a"), ["cloud.alexa"]);
    assert.equal(model.listedExposureMatters(), false, "no entity with a state takes its exposure from the list");
    model.applyCompressed({ a: { "sensor.yaml": { s: "1", a: {}, c: "c", lc: 1 } } });
    assert.equal(model.listedExposureMatters(), true);
  });
});
