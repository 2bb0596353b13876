import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { assertNetworkIsolated } from "../../lib/testing/isolation.ts";
import { createDemoHome, type HaSimulator, startHaSimulator } from "../../simulators/home-assistant/index.ts";
import { api, type BridgeRecord, waitForStatus } from "./support/bridge-fixture.ts";
import { freeUdpPort } from "./support/matter-fixtures.ts";
import { createTestHub, type TestHub } from "./support/test-context.ts";

/** Issue 16's pattern: catastrophic backtracking on a long entity id without `!` (over four minutes for 34 letters). */
const ISSUE_PATTERN = "^[a-z]+\\.([a-z_]+)+!$";
const HOSTILE_ENTITY = `sensor.${"a".repeat(34)}`;

/** A bridge as bridges.json holds it (the store does not validate on load: files from older hubs load as they are). */
function storedBridge(id: string, name: string, port: number, discriminator: number, filter: unknown) {
  const at = "2025-01-01T00:00:00.000Z";
  const common = { priority: 100, serverMode: false, autoStart: true, passcode: 20202021, createdAt: at, updatedAt: at };
  return { id, name, port, filter, discriminator, ...common };
}

describe("regex filter rules on the real hub: linear time, stored rules refused today", { timeout: 120_000 }, () => {
  let sim: HaSimulator;
  let hub: TestHub;
  let call: ReturnType<typeof api>;
  let dataDir: string;

  before(async () => {
    assertNetworkIsolated();
    sim = await startHaSimulator({ token: "t", home: createDemoHome(), motionMs: 0 });
    sim.setState(HOSTILE_ENTITY, "1");
    dataDir = mkdtempSync(join(tmpdir(), "hub-filter-regex-"));
    const bridges = [
      storedBridge("issuepattern", "Issue pattern", await freeUdpPort(), 1001, {
        include: [
          { type: "regex", value: ISSUE_PATTERN },
          { type: "domain", value: "switch" },
        ],
        exclude: [],
        includeHidden: false,
      }),
      storedBridge("lookahead", "Stored lookahead", await freeUdpPort(), 1002, {
        include: [{ type: "domain", value: "lock" }],
        exclude: [{ type: "regex", value: "^lock\\.(?!front)" }],
        includeHidden: false,
      }),
    ];
    writeFileSync(join(dataDir, "bridges.json"), JSON.stringify({ version: 1, bridges }));
    hub = await createTestHub({ ha: { url: sim.url, token: "t" }, dataDir, start: true });
    call = api(hub);
    await hub.homeAssistant.whenLoaded();
  });
  after(async () => {
    await hub?.stop();
    await sim?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("starts a stored bridge with the issue's pattern while HA has a hostile entity id, without freezing", async () => {
    assert.ok(hub.homeAssistant.model.entityIds().has(HOSTILE_ENTITY));
    const running = await waitForStatus(call, "issuepattern", "running");
    assert.ok(running.deviceCount > 0, "the switch rule still exposes devices");
    const preview = await call<{ entities: { entity_id: string }[] }>("POST", "/api/matter/filter-preview", {
      filter: { include: [{ type: "regex", value: ISSUE_PATTERN }] },
    });
    assert.equal(preview.status, 200);
    assert.deepEqual(preview.body.entities, []);
  });

  it("keeps a stored bridge whose rule RE2 refuses down, naming the rule; the hub and other bridges carry on", async () => {
    const failed = await waitForStatus(call, "lookahead", "failed");
    assert.match(failed.statusReason ?? "", /^The filter needs fixing before this bridge can start: exclude rule 1 \(regex/);
    assert.match(failed.statusReason ?? "", /lookahead/);
    assert.equal(failed.deviceCount, 0, "no lock was exposed without its exclusion");
    const health = await call<{ services: { bridges: { running: number; failed: number } } }>("GET", "/api/health");
    assert.equal(health.body.services.bridges.running, 1);
    assert.equal(health.body.services.bridges.failed, 1);

    const fixed = await call<BridgeRecord>("PUT", "/api/matter/bridges/lookahead", {
      filter: { include: [{ type: "domain", value: "lock" }], exclude: [{ type: "pattern", value: "lock.front*" }] },
    });
    assert.equal(fixed.status, 200);
    assert.equal((await call("POST", "/api/matter/bridges/lookahead/actions/start")).status, 200);
    await waitForStatus(call, "lookahead", "running");
  });

  it("answers 400 {error} naming the reason for refused patterns, and changes nothing", async () => {
    const before = await call<BridgeRecord & { filter: unknown }>("GET", "/api/matter/bridges/issuepattern");
    const refused: [string, RegExp][] = [
      ["^(light)\\.\\1$", /backreference/],
      ["(?<=x)y", /lookbehind/],
      ["x".repeat(257), /longer than 256 characters/],
      ["(unclosed", /valid regular expression \(missing closing \)/],
    ];
    for (const [value, reason] of refused) {
      for (const [method, path, body] of [
        ["POST", "/api/matter/filter-preview", { filter: { include: [{ type: "regex", value }] } }],
        ["PUT", "/api/matter/bridges/issuepattern", { filter: { exclude: [{ type: "regex", value }] } }],
        ["POST", "/api/matter/bridges", { name: "New", port: 45999, filter: { include: [{ type: "regex", value }] } }],
      ] as const) {
        const response = await call<{ error: string }>(method, path, body);
        assert.equal(response.status, 400, `${method} ${path} ${value}`);
        assert.deepEqual(Object.keys(response.body), ["error"]);
        assert.match(response.body.error, reason);
      }
    }
    const after = await call<BridgeRecord & { filter: unknown }>("GET", "/api/matter/bridges/issuepattern");
    assert.deepEqual(after.body.filter, before.body.filter);
    const names = (await call<BridgeRecord[]>("GET", "/api/matter/bridges")).body.map((b) => b.name).sort();
    assert.deepEqual(names, ["Issue pattern", "Stored lookahead"]);
  });
});
