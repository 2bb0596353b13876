import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { assertNetworkIsolated } from "../../lib/testing/isolation.ts";
import type { HaSimulator } from "../../simulators/home-assistant/index.ts";
import type { DiagnosticBus } from "../src/diagnostics/diagnostic-bus.ts";
import {
  api,
  type BridgeRecord,
  devicesOf,
  type NodeId,
  startBridgeWorld,
  startController,
  waitForStatus,
} from "./support/bridge-fixture.ts";
import { freeUdpPort } from "./support/matter-fixtures.ts";
import { createTestHub, eventually, type TestHub } from "./support/test-context.ts";

type Detailed = {
  status: string;
  version: string;
  homeAssistant: { connected: boolean; state: string; version: string | null; entities: number };
  recovery: { autoRecoveryEnabled: boolean; recoveryIntervalMs: number; nextAttemptAt: string | null } | null;
  counts: Record<string, number>;
  bridges: Record<string, unknown>[];
};

describe("health: /detailed with controller vendors, /live, /ready, and command diagnostics", { timeout: 90_000 }, () => {
  let sim: HaSimulator;
  let hub: TestHub;
  let call: ReturnType<typeof api>;
  let bridge: BridgeRecord;
  let controller: Awaited<ReturnType<typeof startController>>;
  let nodeId: NodeId;

  before(async () => {
    assertNetworkIsolated();
    ({ sim, hub, call } = await startBridgeWorld());
    const filter = {
      include: ["switch.garden_pump", "light.kitchen_spots", "person.alex"].map((value) => ({ type: "entity_id", value })),
    };
    const created = await call<BridgeRecord>("POST", "/api/matter/bridges", {
      name: "Health",
      port: await freeUdpPort(),
      filter,
    });
    assert.equal(created.status, 201);
    bridge = await waitForStatus(call, created.body.id, "running");
    controller = await startController("health controller");
    nodeId = await controller.controller.commission(bridge.commissioning.manualPairingCode, { ip: "::1", port: bridge.port });
  });

  after(async () => {
    await controller?.close();
    await hub?.stop();
    await sim?.close();
  });

  it("reports each bridge with status, fabrics and their controller vendor, entity diagnostics and recovery", async () => {
    const { status, body } = (await eventually(async () => {
      const response = await call<Detailed>("GET", "/api/health/detailed");
      return (response.body.bridges[0]?.fabrics as unknown[] | undefined)?.length === 1 ? response : undefined;
    }))!;
    assert.equal(status, 200);
    assert.equal(body.status, "healthy");
    assert.equal(body.version, "9.9.9");
    assert.equal(body.homeAssistant.connected, true);
    assert.equal(body.homeAssistant.state, "connected");
    assert.equal(typeof body.homeAssistant.version, "string");
    assert.ok(body.homeAssistant.entities > 10);
    assert.equal(body.recovery?.autoRecoveryEnabled, true);
    assert.equal(body.recovery?.recoveryIntervalMs, 60_000);
    assert.deepEqual(body.counts, { total: 1, running: 1, stopped: 0, failed: 0 });
    const [entry] = body.bridges;
    assert.deepEqual(
      Object.keys(entry ?? {}).sort(),
      [
        "commissioned",
        "controllerWarnings",
        "controllers",
        "deviceCount",
        "failedEntities",
        "fabrics",
        "id",
        "name",
        "port",
        "recovery",
        "skippedEntities",
        "status",
        "statusReason",
      ].sort(),
    );
    assert.equal(entry?.id, bridge.id);
    assert.equal(entry?.status, "running");
    assert.equal(entry?.statusReason, null);
    assert.equal(entry?.port, bridge.port);
    assert.equal(entry?.deviceCount, 2);
    assert.deepEqual(entry?.fabrics, [{ fabricIndex: 1, vendorId: 0xfff1, vendor: "Test vendor", label: "health controller" }]);
    assert.deepEqual(entry?.failedEntities, []);
    assert.equal(entry?.skippedEntities, 1, "person.alex has no Matter device type");
    assert.deepEqual(entry?.recovery, { enabled: true, lastAttempt: null, attempts: [] });
  });

  it("publishes pairing and each controller command with its result and duration", async () => {
    // `ctx.diagnostics` (hub.ts wiring), reached through a cast so that this file type-checks before the wiring lands.
    const events = () => (hub.ctx as unknown as { diagnostics: DiagnosticBus }).diagnostics.recent();
    const paired = events().find((e) => e.type === "bridge_commissioned" && e.bridgeId === bridge.id);
    assert.ok(paired, "commissioning was published");
    assert.match(paired.message, /health controller \(Test vendor\)/);
    const endpoint = (await devicesOf(call, bridge.id)).get("switch.garden_pump")?.endpointNumber ?? 0;
    await controller.controller.invoke(nodeId, endpoint, "onOff", "on");
    const ok = (await eventually(() => events().find((e) => e.type === "command" && e.entityId === "switch.garden_pump")))!;
    assert.equal(ok.level, "info");
    assert.equal(ok.data?.action, "switch.turn_on");
    assert.equal(ok.data?.ok, true);
    assert.equal(typeof ok.data?.durationMs, "number");

    sim.setServiceBehavior({ fail: { code: "home_assistant_error", message: "pump jammed" } });
    try {
      await controller.controller.invoke(nodeId, endpoint, "onOff", "off").catch(() => undefined);
      const failed = (await eventually(() => events().find((e) => e.type === "command" && e.data?.ok === false)))!;
      assert.equal(failed.level, "warn");
      assert.equal(failed.data?.code, "home_assistant_error");
      assert.match(failed.message, /pump jammed/);
    } finally {
      sim.setServiceBehavior(undefined);
    }
  });

  it("keeps /live and /ready: alive always, ready only with Home Assistant connected", async () => {
    assert.deepEqual((await call("GET", "/api/health/live")).body, { status: "alive" });
    assert.deepEqual((await call("GET", "/api/health/ready")).body, { status: "ready" });
    const offline = await createTestHub(); // HA at a closed port, never started
    try {
      const offlineCall = api(offline);
      const ready = await offlineCall<{ error: string }>("GET", "/api/health/ready");
      assert.equal(ready.status, 503);
      assert.match(ready.body.error, /not connected/);
      assert.equal((await offlineCall("GET", "/api/health/live")).status, 200);
      const detailed = await offlineCall<Detailed>("GET", "/api/health/detailed");
      assert.equal(detailed.status, 200, "a diagnostics page answers even when the hub is not healthy");
      assert.equal(detailed.body.status, "degraded");
      assert.equal(detailed.body.homeAssistant.connected, false);
      assert.deepEqual(detailed.body.bridges, []);
    } finally {
      await offline.stop();
    }
  });
});
