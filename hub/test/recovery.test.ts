import assert from "node:assert/strict";
import { createSocket, type Socket } from "node:dgram";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { assertNetworkIsolated } from "../../lib/testing/isolation.ts";
import type { HaSimulator } from "../../simulators/home-assistant/index.ts";
import type { DiagnosticBus } from "../src/diagnostics/diagnostic-bus.ts";
import { type api, type BridgeRecord, startBridgeWorld, waitForStatus } from "./support/bridge-fixture.ts";
import { freeUdpPort, tempDir } from "./support/matter-fixtures.ts";
import { eventually, type TestHub } from "./support/test-context.ts";

type Settings = { autoRecoveryEnabled: boolean; recoveryIntervalMs: number };
type Attempt = { at: string; ok: boolean; error?: string; trigger: string };
type Detailed = {
  recovery: Settings & { nextAttemptAt: string | null };
  bridges: { id: string; status: string; recovery: { enabled: boolean; lastAttempt: Attempt | null; attempts: Attempt[] } }[];
};

describe("automatic recovery: settings, persistence, rescheduling, restarts", { timeout: 90_000 }, () => {
  let sim: HaSimulator;
  let hub: TestHub;
  let call: ReturnType<typeof api>;
  let dataDir: Awaited<ReturnType<typeof tempDir>>;
  const settingsPath = () => join(dataDir.path, "settings.json");
  const detailed = async () => (await call<Detailed>("GET", "/api/health/detailed")).body;
  const secondsUntil = (iso: string | null) => (Date.parse(iso ?? "") - Date.now()) / 1000;

  before(async () => {
    assertNetworkIsolated();
    dataDir = await tempDir("hub-recovery-");
    // Another feature's key: recovery must leave it alone.
    await writeFile(join(dataDir.path, "settings.json"), `${JSON.stringify({ other: { keep: true } })}\n`);
    ({ sim, hub, call } = await startBridgeWorld({ dataDir: dataDir.path }));
  });

  after(async () => {
    await hub?.stop();
    await sim?.close();
    await dataDir?.remove();
  });

  it("serves the defaults and refuses any invalid body with 400 {error}, changing nothing", async () => {
    assert.deepEqual((await call("GET", "/api/settings/recovery")).body, {
      autoRecoveryEnabled: true,
      recoveryIntervalMs: 60_000,
    });
    const before = await readFile(settingsPath(), "utf8");
    for (const body of [
      { autoRecoveryEnabled: true, recoveryIntervalMs: 9999 },
      { autoRecoveryEnabled: true, recoveryIntervalMs: 3_600_001 },
      { autoRecoveryEnabled: true, recoveryIntervalMs: "abc" },
      { autoRecoveryEnabled: true, recoveryIntervalMs: 15_000.5 },
      { autoRecoveryEnabled: false },
      { recoveryIntervalMs: 20_000 },
      { autoRecoveryEnabled: "yes", recoveryIntervalMs: 20_000 },
      null,
      [],
    ]) {
      const response = await call<{ error: string }>("PUT", "/api/settings/recovery", body);
      assert.equal(response.status, 400, JSON.stringify(body));
      assert.deepEqual(Object.keys(response.body), ["error"]);
    }
    const malformed = await hub.app.request("/api/settings/recovery", {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: "{nope",
    });
    assert.equal(malformed.status, 400);
    assert.deepEqual((await call("GET", "/api/settings/recovery")).body, {
      autoRecoveryEnabled: true,
      recoveryIntervalMs: 60_000,
    });
    assert.equal(await readFile(settingsPath(), "utf8"), before, "settings.json untouched");
    assert.ok(Math.abs(secondsUntil((await detailed()).recovery.nextAttemptAt) - 60) < 60, "the default schedule runs");
  });

  it("applies a change at once (rescheduled), keeps other keys of settings.json, and survives a re-create", async () => {
    const slow = await call<Settings>("PUT", "/api/settings/recovery", {
      autoRecoveryEnabled: true,
      recoveryIntervalMs: 3_600_000,
    });
    assert.deepEqual(slow.body, { autoRecoveryEnabled: true, recoveryIntervalMs: 3_600_000 });
    assert.ok(Math.abs(secondsUntil((await detailed()).recovery.nextAttemptAt) - 3600) < 5, "next sweep an hour from now");
    await call("PUT", "/api/settings/recovery", { autoRecoveryEnabled: false, recoveryIntervalMs: 10_000 });
    assert.equal((await detailed()).recovery.nextAttemptAt, null, "off: nothing scheduled");
    assert.deepEqual(JSON.parse(await readFile(settingsPath(), "utf8")), {
      other: { keep: true },
      recovery: { autoRecoveryEnabled: false, recoveryIntervalMs: 10_000 },
    });

    await hub.stop();
    ({ hub, call } = await startBridgeWorld({ dataDir: dataDir.path, sim }));
    assert.deepEqual((await call("GET", "/api/settings/recovery")).body, {
      autoRecoveryEnabled: false,
      recoveryIntervalMs: 10_000,
    });
    await call("PUT", "/api/settings/recovery", { autoRecoveryEnabled: true, recoveryIntervalMs: 3_600_000 });
  });

  it("restarts a failed bridge after Home Assistant reconnects and on the interval, and never a bridge the user stopped", async () => {
    const filter = { include: [{ type: "entity_id", value: "switch.garden_pump" }] };
    const blocked = await freeUdpPort();
    const squatter: Socket = createSocket("udp6");
    await new Promise<void>((resolve) => squatter.bind(blocked, resolve));
    let broken: BridgeRecord;
    try {
      broken = (await call<BridgeRecord>("POST", "/api/matter/bridges", { name: "Broken", port: blocked, filter })).body;
      await waitForStatus(call, broken.id, "failed");
      const parked = (
        await call<BridgeRecord>("POST", "/api/matter/bridges", { name: "Parked", port: await freeUdpPort(), filter })
      ).body;
      await waitForStatus(call, parked.id, "running");
      await call("POST", `/api/matter/bridges/${parked.id}/actions/stop`);

      // Home Assistant drops and comes back: a sweep at once; the port is still taken, so the attempt fails.
      sim.dropConnections();
      const failedAttempt = await eventually(
        async () => (await detailed()).bridges.find((b) => b.id === broken.id)?.recovery.lastAttempt,
        15_000,
      );
      assert.equal(failedAttempt?.ok, false);
      assert.equal(failedAttempt?.trigger, "ha-reconnect");
      assert.match(failedAttempt?.error ?? "", /in use/);
    } finally {
      squatter.close();
    }

    // The port is free; the interval is an hour, so only the live reschedule to 10 s can bring the bridge back in time.
    const started = Date.now();
    await call("PUT", "/api/settings/recovery", { autoRecoveryEnabled: true, recoveryIntervalMs: 10_000 });
    await waitForStatus(call, broken.id, "running", 20_000);
    assert.ok(Date.now() - started >= 9_000, "restarted by the sweep, not before");
    const state = await detailed();
    const entry = state.bridges.find((b) => b.id === broken.id)!;
    assert.deepEqual(
      entry.recovery.attempts.map((a) => [a.ok, a.trigger]),
      [
        [false, "ha-reconnect"],
        [true, "interval"],
      ],
    );
    assert.deepEqual(entry.recovery.lastAttempt, entry.recovery.attempts[1]);
    assert.equal(entry.recovery.enabled, true);
    const parked = state.bridges.find((b) => b.id !== broken.id)!;
    assert.equal(parked.status, "stopped", "a bridge the user stopped stays stopped");
    assert.deepEqual(parked.recovery, { enabled: false, lastAttempt: null, attempts: [] });
    const events = (hub.ctx as unknown as { diagnostics: DiagnosticBus }).diagnostics.recent();
    assert.deepEqual(
      events.filter((e) => e.type === "recovery_attempt").map((e) => [e.bridgeId, e.level]),
      [
        [broken.id, "warn"],
        [broken.id, "info"],
      ],
    );
  });
});
