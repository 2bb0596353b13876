import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { assertNetworkIsolated } from "../../lib/testing/isolation.ts";
import { createDemoHome } from "../../simulators/home-assistant/demo-home.ts";
import { type HaSimulator, startHaSimulator } from "../../simulators/home-assistant/index.ts";
import { api, type BridgeRecord, devicesOf, waitForStatus } from "./support/bridge-fixture.ts";
import { freeUdpPort } from "./support/matter-fixtures.ts";
import { createTestHub, eventually, type TestHub } from "./support/test-context.ts";

/** Labels by name, an area by name, a device class; config and diagnostic entities left out. */
const FILTER = {
  include: [
    { type: "label", value: "Matter" },
    { type: "area", value: "Laundry Room" },
    { type: "device_class", value: "window" },
  ],
  exclude: [
    { type: "entity_category", value: "diagnostic" },
    { type: "entity_category", value: "config" },
  ],
};

const now = () => new Date().toISOString();
/** How long a change may take to show on a loaded machine (an upper bound, not a timing assertion). */
const WAIT_MS = 20_000;

/**
 * Every kind of registry change HA makes, through the simulator's registries (which fire HA's events), against one
 * running bridge: the bridge's entities follow within moments, without a restart, always equal to what the filter
 * preview selects afresh, and every other entity keeps its Matter endpoint number. A burst of 500 updates is one
 * reconciliation and one read-back.
 */
describe("registry changes reach a running bridge live", { timeout: 120_000 }, () => {
  let sim: HaSimulator;
  let hub: TestHub;
  let call: ReturnType<typeof api>;
  let bridge: BridgeRecord;

  /** The bridge's entities (exposed, skipped or composed: all that the filter selects) → endpoint number. */
  const rows = async () =>
    new Map([...(await devicesOf(call, bridge.id))].map(([id, row]) => [id, row.composedInto ?? row.endpointNumber]));
  const preview = async () => {
    const { body } = await call<{ entities: { entity_id: string }[] }>("POST", "/api/matter/filter-preview", {
      filter: FILTER,
      limit: 5000,
    });
    return body.entities.map((e) => e.entity_id).sort();
  };
  const deviceOf = (entityId: string) => {
    const id = sim.snapshot().entities.find((e) => e.entity_id === entityId)?.device_id;
    assert.ok(id, `${entityId} has a device`);
    return id;
  };

  /**
   * Makes a change in HA and waits until the bridge shows it (these entities gained, those lost); then checks the
   * bridge selects exactly what the filter selects afresh and that nothing else moved. Returns the new rows.
   */
  const change = async (
    make: () => void,
    expected: { added?: string[]; removed?: string[] },
  ): Promise<{ before: Map<string, unknown>; after: Map<string, unknown> }> => {
    const before = await rows();
    for (const id of expected.added ?? []) assert.ok(!before.has(id), `${id} is not on the bridge yet`);
    for (const id of expected.removed ?? []) assert.ok(before.has(id), `${id} is on the bridge`);
    make();
    const after = await eventually(
      async () => {
        const now = await rows();
        const done = (expected.added ?? []).every((id) => now.has(id)) && (expected.removed ?? []).every((id) => !now.has(id));
        return done ? now : undefined;
      },
      WAIT_MS,
      50,
    ).catch(async (error: Error) => {
      throw new Error(
        `${error.message}: ${JSON.stringify(expected)}; bridge ${[...(await rows()).keys()]}; filter ${await preview()}`,
      );
    });
    assert.deepEqual([...after.keys()].sort(), await preview(), "the bridge selects what the filter selects");
    for (const [id, number] of before) {
      if (!expected.removed?.includes(id)) assert.equal(after.get(id), number, `${id} kept its endpoint`);
    }
    return { before, after };
  };

  before(async () => {
    assertNetworkIsolated();

    sim = await startHaSimulator({ token: "t", home: createDemoHome(), motionMs: 0 });
    hub = await createTestHub({ ha: { url: sim.url, token: "t" }, start: true });
    await hub.homeAssistant.whenLoaded();
    call = api(hub);
    sim.addLabel({ label_id: "m1", name: "Matter", color: null, icon: null, description: null });
    const created = await call<BridgeRecord>("POST", "/api/matter/bridges", {
      name: "Live",
      port: await freeUdpPort(),
      filter: FILTER,
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    bridge = await waitForStatus(call, created.body.id, "running");
    const initial = await rows();
    assert.deepEqual([...initial.keys()].sort(), await preview());
    assert.ok(initial.has("binary_sensor.bedroom_window") && initial.has("humidifier.laundry_dehumidifier"));
  });
  after(async () => {
    await hub?.stop();
    await sim?.close();
  });

  it("an entity gaining or losing a label, on itself or on its device", async () => {
    await change(() => sim.updateEntity("light.kitchen_spots", { labels: ["m1"] }), { added: ["light.kitchen_spots"] });
    await change(() => sim.updateEntity("light.kitchen_spots", { labels: [] }), { removed: ["light.kitchen_spots"] });
    const airQuality = deviceOf("sensor.office_air_quality_temperature");
    const sensors = sim
      .snapshot()
      .entities.filter((e) => e.device_id === airQuality && !e.entity_category && !e.disabled_by)
      .map((e) => e.entity_id);
    assert.ok(sensors.length >= 5, JSON.stringify(sensors));
    await change(() => sim.updateDevice(airQuality, { labels: ["work", "m1"] }), { added: sensors });
    await change(() => sim.updateDevice(airQuality, { labels: ["work"] }), { removed: sensors });
  });

  it("an entity moving to another area, itself or with its device", async () => {
    await change(() => sim.updateEntity("light.hallway", { area_id: "laundry" }), { added: ["light.hallway"] });
    await change(() => sim.updateEntity("light.hallway", { area_id: null }), { removed: ["light.hallway"] });
    const presence = deviceOf("binary_sensor.office_presence_occupancy");
    await change(() => sim.updateDevice(presence, { area_id: "laundry" }), {
      added: ["binary_sensor.office_presence_occupancy"],
    });
    await change(() => sim.updateDevice(presence, { area_id: "office" }), {
      removed: ["binary_sensor.office_presence_occupancy"],
    });
  });

  it("an entity changing device class (HA's 'Show as')", async () => {
    const id = "binary_sensor.front_door_contact";
    await change(() => sim.updateEntity(id, { device_class: "window" }), { added: [id] });
    await change(() => sim.updateEntity(id, { device_class: null }), { removed: [id] });
  });

  it("an entity added, renamed (id and name), disabled and enabled, and removed", async () => {
    const plug = "switch.laundry_iron";
    await change(
      () =>
        sim.addEntity(
          {
            entity_id: plug,
            id: "reg-laundry-iron",
            unique_id: "iron-0001",
            platform: "shelly",
            device_id: null,
            area_id: "laundry",
            config_entry_id: null,
            disabled_by: null,
            hidden_by: null,
            entity_category: null,
            has_entity_name: false,
            name: null,
            original_name: "Iron",
            icon: null,
            labels: [],
          },
          {
            entity_id: plug,
            state: "off",
            attributes: { friendly_name: "Iron" },
            last_changed: now(),
            last_updated: now(),
            context: { id: "c1", parent_id: null, user_id: null },
          },
        ),
      { added: [plug] },
    );
    const renamed = "switch.laundry_press";
    const { before, after } = await change(() => sim.updateEntity(plug, { entity_id: renamed }), {
      removed: [plug],
      added: [renamed],
    });
    assert.equal(after.get(renamed), before.get(plug), "a renamed entity keeps its endpoint number");
    await change(() => sim.updateEntity(renamed, { name: "Steam press" }), {});
    await eventually(async () => (await devicesOf(call, bridge.id)).get(renamed)?.name === "Steam press", WAIT_MS, 50);

    const dryer = "humidifier.laundry_dehumidifier";
    const disabled = await change(() => sim.updateEntity(dryer, { disabled_by: "user" }), { removed: [dryer] });
    const enabled = await change(() => sim.updateEntity(dryer, { disabled_by: null }), { added: [dryer] });
    assert.equal(enabled.after.get(dryer), disabled.before.get(dryer), "enabled again: the same endpoint number");

    await change(() => sim.removeEntity(renamed), { removed: [renamed] });
  });

  it("a label or area renamed (filters match them by name)", async () => {
    await change(() => sim.updateEntity("light.kitchen_spots", { labels: ["m1"] }), { added: ["light.kitchen_spots"] });
    const renamedLabel = await change(() => sim.updateLabel("m1", { name: "Not matter" }), {
      removed: ["light.kitchen_spots"],
    });
    const back = await change(() => sim.updateLabel("m1", { name: "Matter" }), { added: ["light.kitchen_spots"] });
    assert.equal(back.after.get("light.kitchen_spots"), renamedLabel.before.get("light.kitchen_spots"));

    const laundry = [...(await rows()).keys()].filter((id) => id.includes("laundry") || id.includes("washing_machine"));
    assert.ok(laundry.length >= 2, JSON.stringify(laundry));
    const gone = await change(() => sim.updateArea("laundry", { name: "Utility room" }), { removed: laundry });
    const returned = await change(() => sim.updateArea("laundry", { name: "Laundry Room" }), { added: laundry });
    for (const id of laundry) assert.equal(returned.after.get(id), gone.before.get(id), id);
  });

  it("a burst of 500 registry updates is one reconciliation of the bridge and one read-back from HA", async () => {
    const metrics = async () => {
      const text = await (await hub.app.request("/api/metrics/prometheus")).text();
      const value = (pattern: RegExp) => Number(text.match(pattern)?.[1]);
      return {
        passes: value(new RegExp(`^hub_bridge_reconciliations_total\\{bridge_id="${bridge.id}"[^}]*\\} (\\d+)$`, "m")),
        events: value(/^hub_home_assistant_registry_events_total (\d+)$/m),
        reads: value(/^hub_home_assistant_registry_reads_total (\d+)$/m),
      };
    };
    const present = await rows();
    const entries = sim.snapshot().entities;
    const pool = entries
      .filter((e) => /^(light|switch)\./.test(e.entity_id) && !present.has(e.entity_id))
      .filter((e) => !e.disabled_by && !e.hidden_by && !e.entity_category && sim.getState(e.entity_id));
    assert.ok(pool.length >= 10, `${pool.length} lights and switches to label`);
    const start = await metrics();
    assert.ok(start.passes > 0, JSON.stringify(start));

    // HA fires one entity_registry_updated per update: here 500 within one event-loop turn (a bulk label
    // assignment, an integration re-registering its entities).
    for (let i = 0; i < 500; i++) {
      const entry = pool[i % pool.length]!;
      if (i < pool.length) sim.updateEntity(entry.entity_id, { labels: [...entry.labels, "m1"] });
      else sim.updateEntity(entry.entity_id, { name: `Bulk ${i}` });
    }
    const after = await eventually(
      async () => {
        const now = await rows();
        return pool.every((e) => now.has(e.entity_id)) ? now : undefined;
      },
      WAIT_MS,
      50,
    );
    for (const [id, number] of present) assert.equal(after.get(id), number, `${id} kept its endpoint`);
    assert.deepEqual([...after.keys()].sort(), await preview());
    const end = await metrics();
    assert.equal(end.events - start.events, 500);
    assert.equal(end.passes - start.passes, 1, "one reconciliation pass for the whole burst");
    assert.equal(end.reads - start.reads, 1, "one get_entries for the 500 events");
    const names = await devicesOf(call, bridge.id);
    const last = pool[(500 - 1) % pool.length]!;
    assert.equal(names.get(last.entity_id)?.name, "Bulk 499");

    // Nothing was left behind: the next single change is exactly one more pass.
    await change(() => sim.updateEntity(last.entity_id, { labels: last.labels }), { removed: [last.entity_id] });
    assert.equal((await metrics()).passes - end.passes, 1);
  });
});
