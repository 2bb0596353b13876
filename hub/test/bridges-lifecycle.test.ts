import assert from "node:assert/strict";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { assertNetworkIsolated } from "../../lib/testing/isolation.ts";
import type { HaSimulator } from "../../simulators/home-assistant/index.ts";
import {
  type api,
  type BridgeRecord,
  devicesOf,
  startBridgeWorld,
  startController,
  waitForStatus,
} from "./support/bridge-fixture.ts";
import { freeUdpPort } from "./support/matter-fixtures.ts";
import { eventually, type TestHub } from "./support/test-context.ts";

const lightsOnly = {
  include: [
    { type: "entity_id", value: "light.kitchen_spots" },
    { type: "entity_id", value: "switch.garden_pump" },
  ],
};

describe("bridge lifecycle over the API", { timeout: 180_000 }, () => {
  let sim: HaSimulator;
  let hub: TestHub;
  let call: ReturnType<typeof api>;
  const created: string[] = [];
  /** The data dir a hub restart took over (createTestHub only removes the ones it made itself). */
  let restartedDataDir: string | undefined;

  before(async () => {
    assertNetworkIsolated();
    ({ sim, hub, call } = await startBridgeWorld());
  });
  after(async () => {
    await hub?.stop();
    await sim?.close();
    if (restartedDataDir) rmSync(restartedDataDir, { recursive: true, force: true });
  });

  const create = async (body: Record<string, unknown>) => {
    const response = await call<BridgeRecord>("POST", "/api/matter/bridges", body);
    assert.equal(response.status, 201, JSON.stringify(response.body));
    created.push(response.body.id);
    return response.body;
  };

  it("validates bridge input with 400 {error} and answers unknown bridges with 404 {error}", async () => {
    const port = await freeUdpPort();
    for (const body of [
      {},
      { name: "", port },
      { name: "x".repeat(33), port },
      { name: "ok", port: 80 },
      { name: "ok", port: 70000 },
      { name: "ok", port: "5540" },
      { name: "ok", port, filter: { include: [{ type: "colour", value: "red" }] } },
      { name: "ok", port, filter: { include: [{ type: "regex", value: "(" }] } },
    ]) {
      const response = await call<{ error: string }>("POST", "/api/matter/bridges", body);
      assert.equal(response.status, 400, JSON.stringify(body));
      assert.deepEqual(Object.keys(response.body), ["error"]);
    }
    const bad = await hub.app.request("/api/matter/bridges", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{nope",
    });
    assert.equal(bad.status, 400);
    for (const [method, path] of [
      ["GET", "/api/matter/bridges/nope"],
      ["PUT", "/api/matter/bridges/nope"],
      ["DELETE", "/api/matter/bridges/nope"],
      ["POST", "/api/matter/bridges/nope/actions/start"],
      ["POST", "/api/matter/bridges/nope/clone"],
      ["GET", "/api/matter/bridges/nope/devices"],
      ["GET", "/api/entity-mappings/nope"],
    ] as const) {
      const response = await call<{ error: string }>(method, path, method === "PUT" ? { name: "x" } : undefined);
      assert.equal(response.status, 404, `${method} ${path}`);
      assert.match(response.body.error, /not found/i);
    }
    assert.equal(list().length, 0, "nothing was created");
  });

  const list = () => created;

  it("creates, refuses a port clash, clones with a fresh port, and deletes with 204", async () => {
    const nextPort = async () => (await call<{ port: number }>("GET", "/api/matter/next-port")).body.port;
    const port = await nextPort();
    assert.ok(port >= 5540);
    const first = await create({ name: "Living room", port, filter: lightsOnly });
    // The lowest port no bridge uses and nothing else holds: past the new bridge's, past one taken by another program.
    const second = await nextPort();
    assert.ok(second > port, `${second} after ${port}`);
    const { createSocket } = await import("node:dgram");
    const squatter = createSocket("udp6");
    await new Promise<void>((resolve) => squatter.bind(second, resolve));
    try {
      assert.ok((await nextPort()) > second, "a port bound by another program is skipped");
    } finally {
      await new Promise<void>((resolve) => squatter.close(() => resolve()));
    }
    assert.equal(await nextPort(), second, "and offered again once free");
    assert.equal(first.status === "starting" || first.status === "running", true);
    const clash = await call<{ error: string }>("POST", "/api/matter/bridges", { name: "Other", port });
    assert.equal(clash.status, 400);
    assert.match(clash.body.error, /already used/);
    const clone = await call<BridgeRecord>("POST", `/api/matter/bridges/${first.id}/clone`);
    assert.equal(clone.status, 201);
    created.push(clone.body.id);
    assert.notEqual(clone.body.port, first.port);
    assert.notEqual(clone.body.id, first.id);
    assert.match(clone.body.name, /copy/);
    assert.notEqual(clone.body.commissioning.passcode, first.commissioning.passcode);
    await waitForStatus(call, clone.body.id, "running");
    // What the bridge owns in the data dir (bridges/bridge-files.ts) goes with it.
    const owned = ["matter/ID", "matter/ID.controllers.json", "identities/ID.json"].map((path) =>
      join(hub.dataDir, path.replace("ID", clone.body.id)),
    );
    assert.ok(existsSync(owned[0] as string) && existsSync(owned[2] as string), "the running clone has its storage");
    const removed = await hub.app.request(`/api/matter/bridges/${clone.body.id}`, { method: "DELETE" });
    assert.equal(removed.status, 204);
    assert.equal((await call("GET", `/api/matter/bridges/${clone.body.id}`)).status, 404);
    assert.deepEqual(
      owned.filter((path) => existsSync(path)),
      [],
      "nothing of the deleted bridge is left",
    );
    created.splice(created.indexOf(clone.body.id), 1);
  });

  it("stops and starts one bridge, and all bridges, in priority order; a failing bridge does not stop the others", async () => {
    const [first] = created;
    assert.ok(first);
    await waitForStatus(call, first, "running");
    const blocker = await freeUdpPort();
    // A second bridge whose port is taken by something else: it fails with a reason, the first keeps running.
    const { createSocket } = await import("node:dgram");
    const squatter = createSocket("udp6");
    await new Promise<void>((resolve) => squatter.bind(blocker, resolve));
    try {
      const broken = await create({ name: "Broken", port: blocker, filter: lightsOnly, priority: 5 });
      const failed = await waitForStatus(call, broken.id, "failed");
      assert.match(failed.statusReason ?? "", /port|in use|EADDRINUSE/i);
      assert.equal((await call<BridgeRecord>("GET", `/api/matter/bridges/${first}`)).body.status, "running");
      const health = await call<{ status: string; services: { bridges: Record<string, number> } }>("GET", "/api/health");
      assert.equal(health.body.status, "degraded");
      assert.equal(health.body.services.bridges.failed, 1);
      assert.equal(health.body.services.bridges.running, 1);
      await call("DELETE", `/api/matter/bridges/${broken.id}`);
      created.splice(created.indexOf(broken.id), 1);
    } finally {
      squatter.close();
    }

    const stopped = await call<{ bridge: BridgeRecord }>("POST", `/api/matter/bridges/${first}/actions/stop`);
    assert.equal(stopped.status, 200);
    assert.equal(stopped.body.bridge.status, "stopped");
    const started = await call<{ bridge: BridgeRecord }>("POST", `/api/matter/bridges/${first}/actions/start`);
    assert.equal(started.body.bridge.status, "running");
    const second = await create({ name: "Second", port: await freeUdpPort(), filter: lightsOnly, priority: 1 });
    await waitForStatus(call, second.id, "running");
    const priorities = await call<BridgeRecord[]>("PUT", "/api/matter/bridges/priorities", {
      updates: [
        { id: first, priority: 0 },
        { id: second.id, priority: 10 },
      ],
    });
    assert.equal(priorities.status, 200);
    assert.deepEqual(
      priorities.body.map((b) => b.id),
      [first, second.id],
    );
    assert.equal((await call("PUT", "/api/matter/bridges/priorities", { updates: [{ id: "nope", priority: 1 }] })).status, 404);
    const stopAll = await call<{ bridges: BridgeRecord[] }>("POST", "/api/matter/bridges/actions/stop-all");
    assert.ok(stopAll.body.bridges.every((b) => b.status === "stopped"));
    const startAll = await call<{ bridges: BridgeRecord[] }>("POST", "/api/matter/bridges/actions/start-all");
    assert.ok(startAll.body.bridges.every((b) => b.status === "running"));
    const restartAll = await call<{ results: { ok: boolean }[] }>("POST", "/api/matter/bridges/actions/restart-all");
    assert.ok(restartAll.body.results.every((r) => r.ok));
    assert.equal((await call("POST", `/api/matter/bridges/${first}/actions/explode`)).status, 400);
    const numbers = async () =>
      [...(await devicesOf(call, first))].map(([entityId, device]) => `${entityId}@${device.endpointNumber}`).sort();
    const before = await numbers();
    assert.equal(before.length, 2);
    for (const action of ["refresh", "force-sync", "restart"]) {
      const result: { status: number; body: { bridge: BridgeRecord; sync?: Record<string, unknown> } } = await call<{
        bridge: BridgeRecord;
        sync?: Record<string, unknown>;
      }>("POST", `/api/matter/bridges/${first}/actions/${action}`);
      assert.equal(result.status, 200, action);
      assert.equal(result.body.bridge.status, "running", action);
      assert.equal(result.body.bridge.deviceCount, 2, action);
      assert.deepEqual(await numbers(), before, `${action} keeps every device on its endpoint`);
      if (action === "force-sync") {
        // In sync already: HA re-read, every device checked, nothing had to be corrected.
        assert.deepEqual(result.body.sync, { devices: 2, missedChanges: 0, correctedAttributes: 0, haStateReread: true });
      }
    }
    await call("POST", `/api/matter/bridges/${first}/actions/stop`);
    const forceSyncStopped = await call<{ error: string }>("POST", `/api/matter/bridges/${first}/actions/force-sync`);
    assert.equal(forceSyncStopped.status, 400, "nothing to sync on a stopped bridge");
    assert.match(forceSyncStopped.body.error, /running/);
    await call("POST", `/api/matter/bridges/${first}/actions/start`);
  });

  it("pairs a second controller through the commissioning window, and a factory reset removes every fabric", async () => {
    const [id] = created;
    assert.ok(id);
    const bridge = await waitForStatus(call, id, "running");
    const one = await startController("controller one");
    const two = await startController("controller two", 2);
    try {
      const nodeOne = await one.controller.commission(bridge.commissioning.manualPairingCode, { ip: "::1", port: bridge.port });
      const window = await call<{ commissioningWindow: { manualPairingCode: string } }>(
        "POST",
        `/api/matter/bridges/${id}/actions/open-commissioning-window`,
      );
      assert.equal(window.status, 200);
      const nodeTwo = await two.controller.commission(window.body.commissioningWindow.manualPairingCode, {
        ip: "::1",
        port: bridge.port,
      });
      const paired = await waitForStatus(call, id, "running");
      assert.deepEqual(paired.commissioning.fabrics.map((f) => f.label).sort(), ["controller one", "controller two"]);
      const endpoint = (await devicesOf(call, id)).get("switch.garden_pump")?.endpointNumber ?? 0;
      sim.clearCalls();
      await two.controller.invoke(nodeTwo, endpoint, "onOff", "toggle");
      await sim.waitForCall((c) => c.entityIds.includes("switch.garden_pump"));
      assert.ok(nodeOne);

      const oldCode = paired.commissioning.manualPairingCode;
      const reset = await call<{ bridge: BridgeRecord }>("POST", `/api/matter/bridges/${id}/actions/factory-reset`);
      assert.equal(reset.status, 200);
      const fresh = await waitForStatus(call, id, "running");
      assert.equal(fresh.commissioning.commissioned, false);
      assert.deepEqual(fresh.commissioning.fabrics, []);
      assert.notEqual(fresh.commissioning.manualPairingCode, oldCode, "new pairing state");
      // And it can be paired again with the new code.
      const three = await startController("controller three");
      try {
        await three.controller.commission(fresh.commissioning.manualPairingCode, { ip: "127.0.0.1", port: fresh.port });
        assert.equal((await waitForStatus(call, id, "running")).commissioning.fabrics.length, 1);
      } finally {
        await three.close();
      }
    } finally {
      await one.close();
      await two.close();
    }
  });

  it("keeps a bridge running when one entity cannot be built, names the reason, and retries when HA fixes it", async () => {
    // A fan integration reporting 150 %: matter.js refuses PercentSetting above 100 (constraint "max 100").
    sim.setState("fan.broken_fan", "on", { percentage: 150, supported_features: 1, friendly_name: "Broken fan" });
    const bridge = await create({
      name: "One bad entity",
      port: await freeUdpPort(),
      filter: { include: [...lightsOnly.include, { type: "entity_id", value: "fan.broken_fan" }] },
    });
    const running = await waitForStatus(call, bridge.id, "running");
    assert.equal(running.deviceCount, 2, "the light and the switch are exposed");
    const devices = await devicesOf(call, bridge.id);
    const fan = devices.get("fan.broken_fan");
    assert.equal(fan?.endpointNumber, null);
    assert.match(fan?.failed ?? "", /percentSetting.*max 100/, "the reason names the attribute and the limit");
    assert.ok(devices.get("switch.garden_pump")?.endpointNumber, "the others have their endpoints");
    type Detailed = { bridges: { id: string; failedEntities: { entityId: string; reason: string }[] }[] };
    const health = async () =>
      (await call<Detailed>("GET", "/api/health/detailed")).body.bridges.find((b) => b.id === bridge.id)?.failedEntities;
    assert.deepEqual(await health(), [{ entityId: "fan.broken_fan", reason: fan?.failed }]);
    // HA reports a valid percentage again: the fan is exposed without a refresh or restart.
    sim.setState("fan.broken_fan", "on", { percentage: 40 });
    await eventually(async () => (await devicesOf(call, bridge.id)).get("fan.broken_fan")?.endpointNumber, 5000);
    assert.equal((await devicesOf(call, bridge.id)).get("fan.broken_fan")?.failed, null);
    assert.deepEqual(await health(), []);
    await call("DELETE", `/api/matter/bridges/${bridge.id}`);
    created.splice(created.indexOf(bridge.id), 1);
  });

  it("exposes two entities of one integration that share a unique id in two domains as two devices", async () => {
    // HA's demo integration does this (button.push and event.push are both `push`); HA keys its registry on
    // domain, platform and unique id, so any integration may.
    const now = new Date().toISOString();
    for (const [entityId, state] of [
      ["button.push", "unknown"],
      ["event.push", "unknown"],
    ] as const) {
      sim.addEntity(
        {
          entity_id: entityId,
          id: `reg-${entityId}`,
          unique_id: "push",
          platform: "demo",
          device_id: null,
          area_id: null,
          config_entry_id: null,
          disabled_by: null,
          hidden_by: null,
          entity_category: null,
          has_entity_name: false,
          name: null,
          original_name: "Push",
          icon: null,
          labels: [],
        },
        {
          entity_id: entityId,
          state,
          attributes: { friendly_name: "Push", ...(entityId.startsWith("event.") && { event_types: ["press"] }) },
          last_changed: now,
          last_updated: now,
          context: { id: `c-${entityId}`, parent_id: null, user_id: null },
        },
      );
    }
    // States and registry entries arrive apart (registry events are read back per burst): wait for both.
    const known = (id: string) => hub.homeAssistant.model.states.has(id) && hub.homeAssistant.model.entities.has(id);
    await eventually(() => known("event.push") && known("button.push"));
    const bridge = await create({
      name: "Push",
      port: await freeUdpPort(),
      filter: { include: [{ type: "platform", value: "demo" }] },
    });
    const running = await waitForStatus(call, bridge.id, "running");
    const devices = await devicesOf(call, bridge.id);
    const button = devices.get("button.push")?.endpointNumber;
    const event = devices.get("event.push")?.endpointNumber;
    assert.ok(button && event, `both are exposed: ${JSON.stringify([...devices.values()])}`);
    assert.notEqual(button, event);
    assert.equal(running.deviceCount, 2);
    await call("DELETE", `/api/matter/bridges/${bridge.id}`);
    created.splice(created.indexOf(bridge.id), 1);
  });

  it("runs a server-mode bridge as a standalone node without an aggregator", async () => {
    const port = await freeUdpPort();
    const bridge = await create({
      name: "Vacuum",
      port,
      serverMode: true,
      filter: { include: [{ type: "entity_id", value: "vacuum.roborock_s8" }] },
    });
    const running = await waitForStatus(call, bridge.id, "running");
    assert.equal(running.deviceCount, 1);
    const { controller, close } = await startController("server mode");
    try {
      const nodeId = await controller.commission(running.commissioning.manualPairingCode, { ip: "::1", port });
      const parts = await controller.partsList(nodeId, 0);
      assert.equal(parts.length, 1);
      assert.ok((await controller.deviceTypes(nodeId, parts[0] as number)).includes(0x0074));
      assert.ok(!(await controller.deviceTypes(nodeId, parts[0] as number)).includes(0x000e), "no aggregator");
    } finally {
      await close();
    }
  });

  it("starts bridges in priority order, both on start-all and when the hub starts", async () => {
    // Created in name order, prioritised in another: Bravo (0), Charlie (1), Alpha (2).
    const ids: Record<string, string> = {};
    for (const [name, priority] of [
      ["Alpha", 2],
      ["Bravo", 0],
      ["Charlie", 1],
    ] as const) {
      ids[name] = (await create({ name, port: await freeUdpPort(), filter: lightsOnly, priority })).id;
      await waitForStatus(call, ids[name] as string, "running");
    }
    const expected = ["Bravo", "Charlie", "Alpha"].map((name) => ids[name]);
    /** The order in which the three bridges reported `starting` after diagnostic event `since`. */
    const startOrder = (since: number) =>
      hub.ctx.diagnostics
        .recent()
        .filter((e) => e.id > since && e.type === "bridge_starting" && expected.includes(e.bridgeId as string))
        .map((e) => e.bridgeId);
    await call("POST", "/api/matter/bridges/actions/stop-all");
    const mark = hub.ctx.diagnostics.recent().at(-1)?.id ?? 0;
    const started = await call<{ results: { id: string; ok: boolean }[] }>("POST", "/api/matter/bridges/actions/start-all");
    assert.ok(started.body.results.every((r) => r.ok));
    assert.deepEqual(startOrder(mark), expected, "start-all");
    assert.deepEqual(
      started.body.results.map((r) => r.id).filter((id) => expected.includes(id)),
      expected,
    );

    // A hub restart starts them in the same order.
    const dataDir = hub.dataDir;
    await hub.stop({ keepData: true });
    ({ hub, call } = await startBridgeWorld({ dataDir, sim }));
    restartedDataDir = dataDir;
    for (const id of expected) await waitForStatus(call, id as string, "running");
    assert.deepEqual(startOrder(0), expected, "hub start");
  });
});
