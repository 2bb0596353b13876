import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { Hono } from "hono";
import { assertNetworkIsolated } from "../../lib/testing/isolation.ts";
import { createDemoHome } from "../../simulators/home-assistant/demo-home.ts";
import { type HaSimulator, startHaSimulator } from "../../simulators/home-assistant/index.ts";
import { createBackupFeatures } from "../src/backup/backup-wiring.ts";
import { hubErrorHandler } from "../src/http/errors.ts";
import type { BridgeRecord } from "./support/bridge-fixture.ts";
import { freeUdpPort } from "./support/matter-fixtures.ts";
import { createTestHub, eventually, type TestHub } from "./support/test-context.ts";

interface ExportDoc {
  format: string;
  version: number;
  exportedAt: string;
  appVersion: string;
  bridges: {
    config: Record<string, unknown> & { id: string; name: string; port: number };
    mappings: Record<string, unknown>[];
  }[];
}
interface Preview {
  bridges: { id: string; action: string; reasons: string[] }[];
  summary: Record<string, number>;
  valid: boolean;
}

describe("bridge export and import (/api/bridges)", { timeout: 60_000 }, () => {
  let sim: HaSimulator;
  let hub: TestHub;
  let app: Hono;
  let first: BridgeRecord;
  let second: BridgeRecord;

  const call = async <T = Record<string, unknown>>(method: string, path: string, body?: unknown) => {
    const response = await app.request(path, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
    return { status: response.status, headers: response.headers, body: (await response.json()) as T };
  };
  /** bridges.json and entity-mappings.json as bytes: "changes nothing" means these stay identical. */
  const files = () =>
    ["bridges.json", "entity-mappings.json"].map((name) => {
      try {
        return readFileSync(join(hub.dataDir, name), "utf8");
      } catch {
        return "";
      }
    });
  const exported = async () => (await call<ExportDoc>("GET", "/api/bridges/export")).body;

  before(async () => {
    assertNetworkIsolated();
    sim = await startHaSimulator({ token: "t", home: createDemoHome(), motionMs: 0 });
    hub = await createTestHub({ ha: { url: sim.url, token: "t" }, start: true });
    await hub.homeAssistant.whenLoaded();
    const features = createBackupFeatures(hub.ctx, { requestRestart: () => undefined });
    app = new Hono();
    app.onError(hubErrorHandler(hub.log));
    app.use(features.guard);
    app.route("/api/bridges", features.bridgeRoutes);
    app.route("/api/backup", features.backupRoutes);
    app.route("/", hub.app);
    const create = async (name: string) => {
      const filter = { include: [{ type: "domain", value: "light" }] };
      const created = await call<BridgeRecord>("POST", "/api/matter/bridges", {
        name,
        port: await freeUdpPort(),
        filter,
        autoStart: false,
      });
      assert.equal(created.status, 201);
      return created.body;
    };
    first = await create("Lights");
    second = await create("Lights two");
    for (const [entity, mapping] of [
      ["light.kitchen_spots", { customName: "Spots", matterDeviceType: "dimmable_light" }],
      ["light.dining_pendant", { disabled: true }],
    ] as const) {
      assert.equal((await call("PUT", `/api/entity-mappings/${first.id}/${entity}`, mapping)).status, 200);
    }
  });
  after(async () => {
    await hub?.stop();
    await sim?.close();
  });

  it("exports all bridges or one as a versioned JSON download without pairing secrets; 404 for an unknown bridge", async () => {
    const all = await call<ExportDoc>("GET", "/api/bridges/export");
    assert.equal(all.status, 200);
    const date = new Date().toISOString().slice(0, 10);
    assert.equal(all.headers.get("content-disposition"), `attachment; filename="matter-hub-bridges-${date}.json"`);
    assert.match(all.headers.get("content-type") ?? "", /application\/json/);
    assert.equal(all.body.format, "matter-hub.bridges");
    assert.equal(all.body.version, 1);
    assert.equal(all.body.appVersion, "9.9.9");
    assert.ok(Date.parse(all.body.exportedAt));
    assert.deepEqual(all.body.bridges.map((b) => b.config.id).sort(), [first.id, second.id].sort());
    const lights = all.body.bridges.find((b) => b.config.id === first.id);
    assert.deepEqual(Object.keys(lights?.config ?? {}).sort(), [
      "autoStart",
      "composeDevices",
      "controllers",
      "filter",
      "id",
      "leaveOutUnsupported",
      "name",
      "port",
      "priority",
      "serverMode",
    ]);
    assert.deepEqual(lights?.mappings, [
      { entityId: "light.dining_pendant", matterDeviceType: null, customName: null, disabled: true, detached: false },
      {
        entityId: "light.kitchen_spots",
        matterDeviceType: "dimmable_light",
        customName: "Spots",
        disabled: false,
        detached: false,
      },
    ]);

    const one = await call<ExportDoc>("GET", `/api/bridges/export/${second.id}`);
    assert.equal(one.status, 200);
    assert.match(one.headers.get("content-disposition") ?? "", /^attachment; filename="matter-hub-bridges-/);
    assert.deepEqual(
      one.body.bridges.map((b) => b.config.name),
      ["Lights two"],
    );
    const missing = await call<{ error: string }>("GET", "/api/bridges/export/nope");
    assert.equal(missing.status, 404);
    assert.deepEqual(Object.keys(missing.body), ["error"]);
  });

  it("previews create, overwrite and skip with reasons, and changes nothing", async () => {
    const doc = await exported();
    const before = files();
    const same = await call<Preview>("POST", "/api/bridges/import/preview", { data: doc });
    assert.equal(same.status, 200);
    assert.deepEqual(same.body.summary, { create: 0, overwrite: 0, skip: 2 });
    assert.match(same.body.bridges[0]?.reasons[0] ?? "", /exists here/);
    const overwrite = await call<Preview>("POST", "/api/bridges/import/preview", {
      data: doc,
      options: { overwriteExisting: true },
    });
    assert.deepEqual(overwrite.body.summary, { create: 0, overwrite: 2, skip: 0 });

    const mixed = structuredClone(doc);
    mixed.bridges = [
      { ...doc.bridges[0]!, config: { ...doc.bridges[0]!.config, id: "new-a", port: await freeUdpPort() } },
      { ...doc.bridges[1]!, config: { ...doc.bridges[1]!.config, id: "new-b", port: first.port } },
      { config: { id: "new-c", name: "x".repeat(40), port: 5999 }, mappings: [] },
    ];
    const preview = await call<Preview>("POST", "/api/bridges/import/preview", { data: mixed });
    assert.equal(preview.status, 200);
    const byId = new Map(preview.body.bridges.map((b) => [b.id, b]));
    assert.equal(byId.get("new-a")?.action, "create");
    assert.equal(byId.get("new-b")?.action, "skip");
    assert.match(byId.get("new-b")?.reasons.join() ?? "", new RegExp(`port ${first.port} is already used`));
    assert.equal(byId.get("new-c")?.action, "skip");
    assert.match(byId.get("new-c")?.reasons.join() ?? "", /invalid: config.name/);
    assert.equal(preview.body.valid, false);
    assert.deepEqual(files(), before, "preview changed nothing");

    for (const data of [
      { ...doc, version: 2 },
      { ...doc, format: "x" },
      { ...doc, bridges: [doc.bridges[0], doc.bridges[0]] },
    ]) {
      const refused = await call<{ error: string }>("POST", "/api/bridges/import/preview", { data });
      assert.equal(refused.status, 400, JSON.stringify(refused.body));
      assert.deepEqual(Object.keys(refused.body), ["error"]);
    }
  });

  it("validates everything before applying anything (400, nothing changed)", async () => {
    const doc = await exported();
    const before = files();
    const bad = structuredClone(doc);
    bad.bridges = [
      { ...doc.bridges[0]!, config: { ...doc.bridges[0]!.config, id: "fine", port: await freeUdpPort() } },
      { ...doc.bridges[1]!, config: { ...doc.bridges[1]!.config, id: "clash", port: second.port } },
    ];
    const refused = await call<{ error: string }>("POST", "/api/bridges/import", { data: bad });
    assert.equal(refused.status, 400);
    assert.match(refused.body.error, /nothing changed.*clash: port/);
    const invalidMapping = structuredClone(doc);
    invalidMapping.bridges[0]!.config.id = "fresh";
    invalidMapping.bridges[0]!.config.port = await freeUdpPort();
    invalidMapping.bridges[0]!.mappings.push({ entityId: "not an entity" });
    for (const body of [
      { data: invalidMapping },
      { data: doc, options: { bridgeIds: ["ghost"] } },
      { data: doc, options: { overwriteExisting: "yes" } },
      { data: [] },
      {},
      "{not json",
    ]) {
      const response = await call<{ error: string }>("POST", "/api/bridges/import", body);
      assert.equal(response.status, 400, JSON.stringify(body).slice(0, 80));
      assert.deepEqual(Object.keys(response.body), ["error"]);
    }
    assert.deepEqual(files(), before);
    assert.equal((await call<BridgeRecord[]>("GET", "/api/matter/bridges")).body.length, 2);
  });

  it("creates new bridges with fresh pairing codes and their mappings, starting them when the file says so", async () => {
    const doc = await exported();
    const source = doc.bridges.find((b) => b.config.id === first.id)!;
    const copy = {
      ...source,
      config: { ...source.config, id: "copied", name: "Copied", port: await freeUdpPort(), autoStart: true },
    };
    const result = await call<{ created: { sourceId: string; id: string }[]; skipped: { id: string }[] }>(
      "POST",
      "/api/bridges/import",
      { data: { ...doc, bridges: [...doc.bridges, copy] }, options: { bridgeIds: ["copied"] } },
    );
    assert.equal(result.status, 200, JSON.stringify(result.body));
    assert.equal(result.body.created.length, 1);
    assert.deepEqual(result.body.skipped.map((s) => s.id).sort(), [first.id, second.id].sort());
    const id = result.body.created[0]!.id;
    const created = await eventually(async () => {
      const record = (await call<BridgeRecord>("GET", `/api/matter/bridges/${id}`)).body;
      return record.status === "running" ? record : null;
    }, 20_000);
    assert.ok(created);
    assert.notEqual(created.commissioning.passcode, first.commissioning.passcode);
    const mappings = await call<{ mappings: { entityId: string }[] }>("GET", `/api/entity-mappings/${id}`);
    assert.deepEqual(
      mappings.body.mappings.map((m) => m.entityId),
      ["light.dining_pendant", "light.kitchen_spots"],
    );
  });

  it("overwrites an existing bridge's configuration and mappings, keeping its id and pairing", async () => {
    const doc = await exported();
    const entry = doc.bridges.find((b) => b.config.id === first.id)!;
    entry.config.name = "Renamed";
    entry.config.composeDevices = false;
    entry.mappings = [
      { entityId: "light.kitchen_spots", customName: "New name", matterDeviceType: null, disabled: false, detached: false },
      { entityId: "sensor.kitchen_spots_power", customName: null, matterDeviceType: null, disabled: false, detached: true },
    ];
    const result = await call<{ overwritten: { id: string }[] }>("POST", "/api/bridges/import", {
      data: { ...doc, bridges: [entry] },
      options: { overwriteExisting: true },
    });
    assert.equal(result.status, 200);
    assert.deepEqual(result.body.overwritten, [{ id: first.id, name: "Renamed" }]);
    const record = (await call<BridgeRecord>("GET", `/api/matter/bridges/${first.id}`)).body;
    assert.equal(record.name, "Renamed");
    assert.equal(record.commissioning.passcode, first.commissioning.passcode);
    assert.equal((record as BridgeRecord & { composeDevices: boolean }).composeDevices, false, "composition off survives");
    const mappings = await call<{ mappings: { entityId: string; customName: string; detached: boolean }[] }>(
      "GET",
      `/api/entity-mappings/${first.id}`,
    );
    assert.deepEqual(
      mappings.body.mappings.map((m) => [m.entityId, m.customName, m.detached]),
      [
        ["light.kitchen_spots", "New name", false],
        ["sensor.kitchen_spots_power", null, true],
      ],
    );
  });
  it("round-trips exposed_to rules (include, exclude, within): the imported bridge selects what the original does", async () => {
    const filter = {
      include: [{ type: "exposed_to", value: "conversation" }],
      exclude: [{ type: "exposed_to", value: "cloud.alexa" }],
      includeHidden: false,
      within: [{ type: "exposed_to", value: "conversation" }],
    };
    const created = await call<BridgeRecord>("POST", "/api/matter/bridges", {
      name: "Assist only",
      port: await freeUdpPort(),
      filter,
      autoStart: false,
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const doc = (await call<ExportDoc>("GET", `/api/bridges/export/${created.body.id}`)).body;
    assert.deepEqual(doc.bridges[0]?.config.filter, filter, "exported as stored");
    const entry = doc.bridges[0]!;
    entry.config = { ...entry.config, id: "assist-copy", name: "Assist copy", port: await freeUdpPort() };
    const result = await call<{ created: { id: string }[] }>("POST", "/api/bridges/import", { data: doc });
    assert.equal(result.status, 200, JSON.stringify(result.body));
    const id = result.body.created[0]!.id;
    const copy = (await call<BridgeRecord & { filter: unknown }>("GET", `/api/matter/bridges/${id}`)).body;
    assert.deepEqual(copy.filter, filter);
    const selected = async (f: unknown) =>
      (await call<{ entities: { entity_id: string }[] }>("POST", "/api/matter/filter-preview", { filter: f })).body.entities
        .map((e) => e.entity_id)
        .sort();
    const entities = await selected(copy.filter);
    assert.ok(entities.includes("light.floor_lamp") && !entities.includes("light.living_room_ceiling"), entities.join());
    assert.deepEqual(entities, await selected(filter));
  });
});
