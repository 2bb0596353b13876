import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Connection } from "home-assistant-js-websocket";
import { assertNetworkIsolated } from "../../lib/testing/isolation.ts";
import { createDemoHome } from "../../simulators/home-assistant/demo-home.ts";
import { type HaSimulator, startHaSimulator } from "../../simulators/home-assistant/index.ts";
import { connectClient } from "../../simulators/home-assistant/test-helpers.ts";
import { api, type BridgeRecord, devicesOf, waitForStatus } from "./support/bridge-fixture.ts";
import { freeUdpPort } from "./support/matter-fixtures.ts";
import { createTestHub, eventually, type TestHub } from "./support/test-context.ts";

/** How long a change may take to show on a loaded machine (an upper bound, not a timing assertion). */
const WAIT_MS = 20_000;

/**
 * The `exposed_to` filter rule against the simulator: HA's voice assistant settings select devices, and a change
 * made in HA (`homeassistant/expose_entity`, what HA's UI sends) reaches the running bridge without a restart.
 */
describe("exposed_to: a bridge follows Home Assistant's voice assistant settings", { timeout: 120_000 }, () => {
  let sim: HaSimulator;
  let hub: TestHub;
  let call: ReturnType<typeof api>;
  let ha: Connection;
  let bridge: BridgeRecord;

  /** Exposed entities of the bridge with their endpoint numbers. */
  const numbers = async () => {
    const rows = await devicesOf(call, bridge.id);
    return new Map([...rows].filter(([, row]) => row.endpointNumber !== null).map(([id, row]) => [id, row.endpointNumber]));
  };
  const expose = (entityIds: string[], shouldExpose: boolean, assistants = ["conversation"]) =>
    ha.sendMessagePromise({
      type: "homeassistant/expose_entity",
      assistants,
      entity_ids: entityIds,
      should_expose: shouldExpose,
    });

  before(async () => {
    assertNetworkIsolated();
    sim = await startHaSimulator({ token: "t", home: createDemoHome(), motionMs: 0 });
    // HA announces no change of an unregistered entity's setting: the hub re-reads the list, here every 200 ms.
    hub = await createTestHub({ ha: { url: sim.url, token: "t" }, start: true, hubOptions: { haExposurePollMs: 200 } });
    await hub.homeAssistant.whenLoaded();
    call = api(hub);
    ha = await connectClient(sim);
    const created = await call<BridgeRecord>("POST", "/api/matter/bridges", {
      name: "Assist",
      port: await freeUdpPort(),
      filter: { include: [{ type: "exposed_to", value: "conversation" }] },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    bridge = await waitForStatus(call, created.body.id, "running");
  });
  after(async () => {
    ha?.close();
    await hub?.stop();
    await sim?.close();
  });

  it("exposes what HA exposes to Assist, and shows the settings in entity records, the preview and the filter values", async () => {
    const states = new Set(sim.getStates().map((state) => state.entity_id));
    const toAssist = Object.entries(sim.exposedEntities())
      .filter(([id, assistants]) => assistants.conversation && states.has(id))
      .map(([id]) => id)
      .sort();
    assert.ok(toAssist.includes("sensor.outdoor_feels_like"), "an entity without registry entry is among them");
    assert.deepEqual([...(await devicesOf(call, bridge.id)).keys()].sort(), toAssist);
    assert.ok((await numbers()).size >= 4, "most of them are devices");

    const record = await call<{ exposed_to: string[] }>("GET", "/api/home-assistant/entities/light.living_room_ceiling");
    assert.deepEqual(record.body.exposed_to, ["cloud.alexa", "conversation"]);
    const preview = await call<{ total: number; entities: { entity_id: string; exposed_to: string[] }[] }>(
      "POST",
      "/api/matter/filter-preview",
      { filter: { include: [{ type: "exposed_to", value: "cloud.alexa" }] } },
    );
    assert.equal(preview.status, 200);
    assert.deepEqual(
      preview.body.entities.map((e) => e.entity_id),
      ["climate.living_room_thermostat", "light.living_room_ceiling", "lock.front_door"],
    );
    assert.ok(preview.body.entities.every((e) => e.exposed_to.includes("cloud.alexa")));
    const values = await call<{ ruleTypes: string[]; assistants: { value: string; name: string; count: number }[] }>(
      "GET",
      "/api/matter/filter-values",
    );
    assert.ok(values.body.ruleTypes.includes("exposed_to"));
    assert.deepEqual(
      values.body.assistants.find((a) => a.value === "conversation"),
      {
        value: "conversation",
        name: "Assist",
        count: Object.values(sim.exposedEntities()).filter((a) => a.conversation).length,
      },
    );
  });

  it("gains and loses devices as HA's expose settings change, without a restart, keeping every other endpoint", async () => {
    const before = await numbers();
    const passes = hub.ctx.bridges.reconciliations(bridge.id);
    assert.ok(!before.has("light.kitchen_spots"));

    await expose(["light.kitchen_spots"], true);
    const gained = await eventually(async () => {
      const now = await numbers();
      return now.has("light.kitchen_spots") ? now : undefined;
    }, WAIT_MS);
    for (const [id, number] of before) assert.equal(gained.get(id), number, `${id} kept its endpoint number`);

    const lamp = before.get("light.floor_lamp");
    assert.ok(lamp);
    await expose(["light.floor_lamp"], false);
    const lost = await eventually(async () => {
      const now = await numbers();
      return now.has("light.floor_lamp") ? undefined : now;
    }, WAIT_MS);
    for (const [id, number] of gained) if (id !== "light.floor_lamp") assert.equal(lost.get(id), number, id);

    // Exposed to Alexa only: still not for this bridge.
    await expose(["light.floor_lamp"], true, ["cloud.alexa"]);
    await expose(["light.floor_lamp"], true);
    const back = await eventually(async () => (await numbers()).get("light.floor_lamp"), WAIT_MS);
    assert.equal(back, lamp, "the same endpoint number as before");
    assert.equal((await call<BridgeRecord>("GET", `/api/matter/bridges/${bridge.id}`)).body.status, "running");
    assert.ok(hub.ctx.bridges.reconciliations(bridge.id) > passes);
  });

  it("follows an entity without a registry entry, whose change HA does not announce, by re-reading HA's list", async () => {
    const feelsLike = (await numbers()).get("sensor.outdoor_feels_like");
    assert.ok(feelsLike, "the registry-less sensor is a device");
    await expose(["sensor.outdoor_feels_like"], false);
    await eventually(async () => !(await numbers()).has("sensor.outdoor_feels_like"), WAIT_MS);
    await expose(["sensor.outdoor_feels_like"], true);
    assert.equal(await eventually(async () => (await numbers()).get("sensor.outdoor_feels_like"), WAIT_MS), feelsLike);
  });

  it("refuses a value that is no assistant id, naming HA's assistants: create and preview 400, import refused", async () => {
    const garbage = { include: [{ type: "exposed_to", value: "alexa please" }] };
    const created = await call<{ error: string }>("POST", "/api/matter/bridges", {
      name: "Bad",
      port: await freeUdpPort(),
      filter: garbage,
    });
    assert.equal(created.status, 400);
    assert.match(created.body.error, /"alexa please" is not an assistant id; Home Assistant's are conversation \(Assist\)/);
    assert.equal((await call("POST", "/api/matter/filter-preview", { filter: garbage })).status, 400);

    // Export carries the rule; the import validates it with the same schema.
    const exported = await hub.app.request(`/api/bridges/export/${bridge.id}`);
    const doc = (await exported.json()) as { bridges: { config: { id: string; port: number; filter: unknown } }[] };
    assert.deepEqual(doc.bridges[0]?.config.filter, {
      include: [{ type: "exposed_to", value: "conversation" }],
      exclude: [],
      includeHidden: false,
    });
    const copy = structuredClone(doc);
    copy.bridges[0]!.config = { ...copy.bridges[0]!.config, id: "copy", port: await freeUdpPort(), filter: garbage };
    const preview = await call<{ valid: boolean; bridges: { id: string; action: string; reasons: string[] }[] }>(
      "POST",
      "/api/bridges/import/preview",
      { data: copy },
    );
    assert.equal(preview.body.valid, false);
    assert.equal(preview.body.bridges[0]?.action, "skip");
    assert.match(preview.body.bridges[0]?.reasons.join() ?? "", /is not an assistant id/);
    const refused = await call<{ error: string }>("POST", "/api/bridges/import", { data: copy });
    assert.equal(refused.status, 400);
    assert.match(refused.body.error, /nothing changed.*is not an assistant id/);
  });
});

/**
 * An HA without the expose list (older than its voice assistant settings, or a non-admin token) and without
 * `get_entries`: the hub loads all the same, `exposed_to` sees what registry entries carry, and registry changes
 * still arrive (read one entry at a time).
 */
describe("exposed_to and registry changes on an HA without the newer commands", { timeout: 60_000 }, () => {
  let sim: HaSimulator;
  let hub: TestHub;
  let call: ReturnType<typeof api>;
  const selected = async (filter: unknown) =>
    (await call<{ entities: { entity_id: string }[] }>("POST", "/api/matter/filter-preview", { filter })).body.entities.map(
      (e) => e.entity_id,
    );

  before(async () => {
    assertNetworkIsolated();
    sim = await startHaSimulator({
      token: "t",
      home: createDemoHome(),
      motionMs: 0,
      omitCommands: ["homeassistant/expose_entity/list", "config/entity_registry/get_entries"],
    });
    hub = await createTestHub({ ha: { url: sim.url, token: "t" }, start: true });
    await hub.homeAssistant.whenLoaded();
    call = api(hub);
  });
  after(async () => {
    await hub?.stop();
    await sim?.close();
  });

  it("loads, selects by the registry entries' settings only, and follows a change read back entry by entry", async () => {
    const assist = { include: [{ type: "exposed_to", value: "conversation" }] };
    const before = await selected(assist);
    assert.ok(before.includes("light.living_room_ceiling"), before.join());
    assert.ok(!before.includes("sensor.outdoor_feels_like"), "its setting is only in the list this HA lacks");
    const reads = hub.homeAssistant.registryStats.reads;
    sim.exposeEntities(["light.kitchen_spots"], ["conversation"], true);
    await eventually(async () => (await selected(assist)).includes("light.kitchen_spots"), WAIT_MS);
    assert.equal(hub.homeAssistant.registryStats.reads - reads, 2, "get_entries refused, then one get");
    assert.equal((await call<{ status: string }>("GET", "/api/health")).status, 200);
  });
});
