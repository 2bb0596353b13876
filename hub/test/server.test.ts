import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { freePort, spawnCaptured, waitForHttp } from "../../lib/testing/processes.ts";
import { createBackupFeatures } from "../src/backup/backup-wiring.ts";
import type { HubContext } from "../src/context.ts";
import { createHubApp } from "../src/http/app.ts";
import { createTestHub, type TestHub } from "./support/test-context.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));

/** A data dir of this run only (fixed paths in /tmp were shared by concurrent runs, which then hung). */
const scratchDirs: string[] = [];
const scratchDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  scratchDirs.push(dir);
  return dir;
};

/** The hub's HTTP app as hub.ts composes it (backup, restore and transfer mounted). */
const appOf = (ctx: HubContext) => createHubApp(ctx, createBackupFeatures(ctx, { requestRestart: ctx.requestRestart }));

const hubs: TestHub[] = [];
after(async () => {
  for (const dir of scratchDirs) rmSync(dir, { recursive: true, force: true });
  for (const hub of hubs) await hub.stop();
});

async function testContext(overrides: Partial<HubContext> = {}, env: Record<string, string> = {}): Promise<HubContext> {
  const hub = await createTestHub({ env });
  hubs.push(hub);
  const { ctx } = hub;
  return {
    ...ctx,
    startedAt: Date.now() - 5000,
    health: {
      homeAssistant: () => ({ connected: true }),
      bridges: () => ({ total: 2, running: 2, stopped: 0, failed: 0 }),
    },
    ...overrides,
  };
}

describe("hub server", () => {
  it("exits 1 with one readable line on invalid configuration", async () => {
    for (const [env, expected] of [
      [{ HUB_PORT: "70000" }, /HUB_PORT must be between/],
      [{ HUB_PORT: "http" }, /HUB_PORT must be a port number/],
      [{ HUB_LOG_LEVEL: "loud" }, /HUB_LOG_LEVEL must be one of trace, debug/],
      [{ HA_URL: "http://ha.local:8123" }, /HA_TOKEN is required/],
      [{ HUB_AUTH_USERNAME: "admin" }, /HUB_AUTH_USERNAME and HUB_AUTH_PASSWORD/],
    ] as const) {
      const run = spawnCaptured(process.execPath, ["--import", "tsx", "hub/src/main.ts"], {
        cwd: root,
        env: { ...process.env, HUB_DATA_DIR: scratchDir("hub-invalid-"), ...env },
      });
      assert.equal(await run.exited, 1, run.output());
      const lines = run.output().trim().split("\n");
      assert.equal(lines.length, 1, `one line, got: ${run.output()}`);
      assert.match(lines[0] ?? "", /^hub: invalid configuration: /);
      assert.match(lines[0] ?? "", expected);
    }
  });

  it("starts, answers health, and stops with exit 0 on SIGTERM", async (t) => {
    const port = await freePort();
    const run = spawnCaptured(process.execPath, ["--import", "tsx", "hub/src/main.ts"], {
      cwd: root,
      env: { ...process.env, HUB_PORT: String(port), HUB_HOST: "127.0.0.1", HUB_DATA_DIR: scratchDir("hub-start-") },
    });
    // A hub left behind by a failed assertion would hold its port and data dir for every later run.
    t.after(() => run.child.kill("SIGKILL"));
    // A cold tsx start on a loaded 2-core machine can take longer than the helper's 20 s default.
    const response = await waitForHttp(`http://127.0.0.1:${port}/api/health`, 60_000);
    const body = (await response.json()) as { status: string; demo: boolean };
    assert.equal(body.demo, true);
    assert.match(run.output(), /DEMO MODE/);
    run.child.kill("SIGTERM");
    assert.equal(await run.exited, 0, run.output());
  });

  it("answers the health record with the spec's fields", async () => {
    const app = appOf(await testContext());
    const response = await app.request("/api/health");
    assert.equal(response.status, 200);
    const body = (await response.json()) as Record<string, unknown>;
    assert.equal(body.status, "healthy");
    assert.equal(body.version, "9.9.9");
    assert.ok(typeof body.uptime === "number" && body.uptime >= 5);
    assert.ok(!Number.isNaN(Date.parse(String(body.timestamp))));
    assert.deepEqual(body.services, {
      homeAssistant: { connected: true },
      bridges: { total: 2, running: 2, stopped: 0, failed: 0 },
    });
    assert.equal((await app.request("/api/health/live")).status, 200);
  });

  it("reports degraded with 200 and unhealthy with 503", async () => {
    const degraded = appOf(
      await testContext({
        health: { homeAssistant: () => ({ connected: false }), bridges: () => ({ total: 1, running: 1, stopped: 0, failed: 0 }) },
      }),
    );
    const d = await degraded.request("/api/health");
    assert.equal(d.status, 200);
    assert.equal(((await d.json()) as { status: string }).status, "degraded");
    assert.equal((await degraded.request("/api/health/ready")).status, 503);
    const unhealthy = appOf(
      await testContext({
        health: { homeAssistant: () => ({ connected: true }), bridges: () => ({ total: 2, running: 0, stopped: 0, failed: 2 }) },
      }),
    );
    const u = await unhealthy.request("/api/health");
    assert.equal(u.status, 503);
    assert.equal(((await u.json()) as { status: string }).status, "unhealthy");
  });

  it("answers unknown API paths with 404 and the error shape", async () => {
    const app = appOf(await testContext());
    const response = await app.request("/api/does-not-exist", { method: "POST" });
    assert.equal(response.status, 404);
    assert.deepEqual(await response.json(), { error: "Not found: POST /api/does-not-exist" });
  });

  it("serves index.html with the ingress base, and refuses hostile ingress headers", async () => {
    const app = appOf(await testContext());
    const plain = await (await app.request("/")).text();
    assert.match(plain, /<head[^>]*><base href="\/">/);
    const ingress = await app.request("/", { headers: { "X-Ingress-Path": "/api/hassio_ingress/abc" } });
    assert.equal(ingress.status, 200);
    assert.match(await ingress.text(), /<base href="\/api\/hassio_ingress\/abc\/">/);
    // A deep link in the SPA gets the same page.
    const deep = await app.request("/bridges/x", { headers: { "X-Ingress-Path": "/api/hassio_ingress/abc" } });
    assert.match(await deep.text(), /<base href="\/api\/hassio_ingress\/abc\/">/);
    for (const hostile of [
      '/api/hassio_ingress/abc"><script>alert(1)</script>',
      "/api/hassio_ingress/<script>",
      "/api/hassio_ingress/a'b",
      "/api/../../etc",
      "javascript:alert(1)",
      "//evil.example/x",
    ]) {
      const response = await app.request("/", { headers: { "X-Ingress-Path": hostile } });
      assert.equal(response.status, 400, hostile);
      const text = await response.text();
      assert.deepEqual(JSON.parse(text), { error: "Invalid X-Ingress-Path header" });
      assert.ok(!text.includes("script") && !text.includes("evil"), "not reflected");
    }
  });

  it("only answers allow-listed addresses when an allow-list is configured", async () => {
    const app = appOf(await testContext({}, { HUB_ALLOWED_IPS: "172.30.32.2" }));
    const env = { incoming: { socket: { remoteAddress: "192.168.1.20", remoteFamily: "IPv4" } } };
    const refused = await app.request("/api/health", {}, env);
    assert.equal(refused.status, 403);
    assert.match(((await refused.json()) as { error: string }).error, /ingress proxy/);
    const proxy = { incoming: { socket: { remoteAddress: "::ffff:172.30.32.2", remoteFamily: "IPv6" } } };
    assert.equal((await app.request("/api/health", {}, proxy)).status, 200);
  });
});
