import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { freePort, spawnCaptured, waitForHttp } from "../../lib/testing/processes.ts";
import { loadOrCreateSecretKey } from "../src/secret-key.ts";
import { removeDataDir, startTestPortal } from "./support/portal-harness.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), "portal-test-"));
after(() => rmSync(dataDir, { recursive: true, force: true }));

function startPortal(env: Record<string, string>) {
  return spawnCaptured(process.execPath, ["--import", "tsx", "portal/src/main.ts"], {
    cwd: root,
    env: { ...process.env, PORTAL_DATA_DIR: join(dataDir, "run"), PORTAL_HOST: "127.0.0.1", ...env },
  });
}

describe("portal server", () => {
  it("exits 1 with one readable line on invalid configuration", async () => {
    const cases = [
      [{ PORTAL_PORT: "-1" }, /PORTAL_PORT must be a port number/],
      [{ PORTAL_SECRET_KEY: "too-short" }, /PORTAL_SECRET_KEY must be 32 bytes/],
      [{ PORTAL_ADMIN_EMAIL: "not-an-email", PORTAL_ADMIN_PASSWORD: "longenough" }, /PORTAL_ADMIN_EMAIL must be an e-mail/],
      [{ PORTAL_ADMIN_EMAIL: "a@b.example", PORTAL_ADMIN_PASSWORD: "short" }, /at least 8 characters/],
      [{ PORTAL_TRUSTED_PROXIES: "127.0.0.1, proxy.local" }, /PORTAL_TRUSTED_PROXIES must be a comma-separated list of IP/],
    ] as const;
    // In parallel: each case is a cold tsx start, and they do not interact.
    await Promise.all(
      cases.map(async ([env, expected]) => {
        const run = startPortal(env);
        assert.equal(await run.exited, 1, run.output());
        const lines = run.output().trim().split("\n");
        assert.equal(lines.length, 1, run.output());
        assert.match(lines[0] ?? "", /^portal: invalid configuration: /);
        assert.match(lines[0] ?? "", expected);
      }),
    );
  });

  it("starts, answers health, and stops with exit 0 on SIGTERM", async () => {
    const port = await freePort();
    const run = startPortal({ PORTAL_PORT: String(port) });
    const response = await waitForHttp(`http://127.0.0.1:${port}/api/health`);
    assert.deepEqual(await response.json(), { status: "ok" });
    run.child.kill("SIGTERM");
    assert.equal(await run.exited, 0, run.output());
  });

  it("answers unknown API paths with 404 in the portal's error shape, and serves the UI elsewhere", async (t) => {
    const portal = await startTestPortal();
    t.after(async () => {
      await portal.stop();
      removeDataDir(portal.dataDir);
    });
    const client = portal.client();
    const response = await client.get("/api/nothing-here");
    assert.equal(response.status, 404);
    assert.deepEqual(response.body, { success: false, error: "Not found: GET /api/nothing-here", errorCode: "NOT_FOUND" });
    const page = await client.get("/signup");
    assert.equal(page.status, 200);
    assert.match(page.text, /<base href="\/">/);
    const health = await client.get("/api/health");
    assert.deepEqual(health.body, { status: "ok" });
  });

  it("generates the secret key once, mode 0600, and reuses it", () => {
    const dir = join(dataDir, "key");
    const first = loadOrCreateSecretKey(undefined, dir);
    assert.equal(first.length, 32);
    assert.equal(statSync(join(dir, "secret.key")).mode & 0o777, 0o600);
    assert.deepEqual(loadOrCreateSecretKey(undefined, dir), first);
    assert.equal(Buffer.from(readFileSync(join(dir, "secret.key"), "utf8").trim(), "base64").length, 32);
    const configured = Buffer.alloc(32, 7);
    assert.deepEqual(loadOrCreateSecretKey(configured, dir), configured);
  });
});
