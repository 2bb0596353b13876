import assert from "node:assert/strict";
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { Hono } from "hono";
import { requestLog } from "../../../lib/request-log.ts";
import { memoryLogger } from "../../../lib/testing/fixtures.ts";
import { hubErrorHandler } from "../http/errors.ts";
import { authSettingsRoutes } from "./auth-settings.routes.ts";
import { basicAuth } from "./basic-auth.middleware.ts";
import { BasicAuth, type BasicAuthOptions } from "./basic-auth.ts";
import { BASIC_CHALLENGE, basicAuthorization } from "./basic-header.ts";
import { EnvCredentials } from "./env-credentials.ts";

const ENV = { username: "admin", password: "env-Passw0rd!" };
const envCredentials = () => new EnvCredentials(ENV.username, ENV.password);
const SETTINGS = { username: "owner", password: "settings-pässword-42" };
/** Everything written by every logger in this file, checked for leaked secrets at the end. */
const memory = memoryLogger("debug");

async function hubApp(options: Partial<BasicAuthOptions> & { dataDir: string }) {
  const auth = await BasicAuth.load({ log: memory.log.child({ component: "auth" }), ...options });
  const app = new Hono();
  app.onError(hubErrorHandler(memory.log));
  app.use(requestLog(memory.log));
  app.use(basicAuth(auth, { publicPaths: ["/api/health/live"] }));
  app.get("/api/health/live", (c) => c.json({ status: "alive" }));
  app.get("/api/thing", (c) => c.json({ ok: true }));
  app.route("/api/settings/auth", authSettingsRoutes(auth));
  return { auth, app };
}

async function assertRejected(response: Response, what: string) {
  assert.equal(response.status, 401, what);
  assert.equal(response.headers.get("WWW-Authenticate"), BASIC_CHALLENGE, what);
  assert.deepEqual(await response.json(), { error: "Authentication required" }, what);
}

const put = (body: unknown, authorization?: string) => ({
  method: "PUT",
  headers: { "Content-Type": "application/json", ...(authorization ? { Authorization: authorization } : {}) },
  body: JSON.stringify(body),
});

describe("HTTP Basic authentication", () => {
  let dataDir: string;

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "hub-auth-"));
  });

  after(async () => {
    await rm(dataDir, { recursive: true, force: true });
    const logged = memory.lines().join("\n");
    assert.ok(logged.length > 0);
    for (const secret of [ENV.password, SETTINGS.password, "wrong-password", "authorization"]) {
      assert.ok(!logged.toLowerCase().includes(secret.toLowerCase()), `${secret} was logged`);
    }
    const sent = [ENV, SETTINGS, { ...ENV, username: "root" }, { ...ENV, password: "wrong-password" }];
    for (const { username, password } of sent) {
      assert.ok(!logged.includes(basicAuthorization(username, password).slice(6)), "an Authorization header was logged");
    }
  });

  it("lets everything through when no credentials are configured", async () => {
    const { app } = await hubApp({ dataDir: join(dataDir, "open") });
    assert.equal((await app.request("/api/thing")).status, 200);
    assert.deepEqual(await (await app.request("/api/settings/auth")).json(), { enabled: false, username: null, source: "none" });
  });

  it("with environment credentials, refuses missing, wrong and malformed headers", async () => {
    const { app } = await hubApp({ dataDir: join(dataDir, "env"), env: envCredentials() });
    const refused: [string, Record<string, string>][] = [
      ["no header", {}],
      ["wrong user", { Authorization: basicAuthorization("root", ENV.password) }],
      ["wrong password", { Authorization: basicAuthorization(ENV.username, "wrong-password") }],
      ["password prefix", { Authorization: basicAuthorization(ENV.username, ENV.password.slice(0, -1)) }],
      ["malformed base64", { Authorization: "Basic !!!not-base64!!!" }],
      ["truncated base64", { Authorization: "Basic YWRtaW46" + "x" }],
      ["no colon", { Authorization: `Basic ${Buffer.from("admin").toString("base64")}` }],
      ["bearer scheme", { Authorization: `Bearer ${ENV.password}` }],
    ];
    for (const [what, headers] of refused) await assertRejected(await app.request("/api/thing", { headers }), what);
    const good = { Authorization: basicAuthorization(ENV.username, ENV.password) };
    assert.equal((await app.request("/api/thing", { headers: good })).status, 200);
    assert.equal(
      (await app.request("/api/thing", { headers: { Authorization: good.Authorization.replace("Basic", "basic") } })).status,
      200,
    );
    // The container's health check has no credentials.
    assert.equal((await app.request("/api/health/live")).status, 200);
    await assertRejected(await app.request("/api/health/live/x"), "only the exact public path is open");
    const status = await app.request("/api/settings/auth", { headers: good });
    assert.deepEqual(await status.json(), { enabled: true, username: "admin", source: "env" });
  });

  it("stores settings-page credentials hashed (mode 0600), enforces them, and keeps them across a reload", async () => {
    const dir = join(dataDir, "settings");
    const { app } = await hubApp({ dataDir: dir });
    const invalid = await app.request("/api/settings/auth", put({ username: "a:b", password: "short" }));
    assert.equal(invalid.status, 400);
    const error = ((await invalid.json()) as { error: string }).error;
    assert.match(error, /username: must not contain a colon/);
    assert.match(error, /password: must be at least 8 characters/);
    assert.ok(!error.includes("short"));

    const set = await app.request("/api/settings/auth", put(SETTINGS));
    assert.equal(set.status, 200);
    assert.deepEqual(await set.json(), { enabled: true, username: "owner", source: "settings" });
    const file = join(dir, "auth.json");
    const text = await readFile(file, "utf8");
    assert.ok(!text.includes(SETTINGS.password));
    const stored = JSON.parse(text) as { username: string; passwordHash: string };
    assert.deepEqual(Object.keys(stored).sort(), ["passwordHash", "username"]);
    assert.match(stored.passwordHash, /^scrypt\$32768\$8\$1\$[\w-]+\$[\w-]+$/);
    assert.equal((await stat(file)).mode & 0o777, 0o600);

    const good = { Authorization: basicAuthorization(SETTINGS.username, SETTINGS.password) };
    await assertRejected(await app.request("/api/thing"), "settings credentials apply at once");
    await assertRejected(
      await app.request("/api/thing", { headers: { Authorization: basicAuthorization("owner", "wrong-password") } }),
      "wrong password",
    );
    assert.equal((await app.request("/api/thing", { headers: good })).status, 200);

    const reloaded = await hubApp({ dataDir: dir });
    assert.deepEqual(reloaded.auth.status, { enabled: true, username: "owner", source: "settings" });
    await assertRejected(await reloaded.app.request("/api/thing"), "after reload");
    assert.equal((await reloaded.app.request("/api/thing", { headers: good })).status, 200);

    const cleared = await reloaded.app.request("/api/settings/auth", { method: "DELETE", headers: good });
    assert.deepEqual(await cleared.json(), { enabled: false, username: null, source: "none" });
    await assert.rejects(stat(file), { code: "ENOENT" });
    assert.equal((await reloaded.app.request("/api/thing")).status, 200);
  });

  it("gives the environment precedence over the settings file and refuses changes then", async () => {
    const dir = join(dataDir, "both");
    const { app: settingsApp } = await hubApp({ dataDir: dir });
    assert.equal((await settingsApp.request("/api/settings/auth", put(SETTINGS))).status, 200);

    const { app } = await hubApp({ dataDir: dir, env: envCredentials() });
    const good = { Authorization: basicAuthorization(ENV.username, ENV.password) };
    assert.deepEqual(await (await app.request("/api/settings/auth", { headers: good })).json(), {
      enabled: true,
      username: "admin",
      source: "env",
    });
    await assertRejected(
      await app.request("/api/thing", { headers: { Authorization: basicAuthorization(SETTINGS.username, SETTINGS.password) } }),
      "settings credentials are ignored",
    );
    for (const init of [
      put({ username: "x", password: "long-enough" }, good.Authorization),
      { method: "DELETE", headers: good },
    ]) {
      const response = await app.request("/api/settings/auth", init);
      assert.equal(response.status, 400);
      assert.match(((await response.json()) as { error: string }).error, /managed by environment/);
    }
  });

  it("refuses to start on a corrupt settings file instead of opening the API", async () => {
    const dir = join(dataDir, "corrupt");
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, "auth.json"), JSON.stringify({ username: "x", passwordHash: "plaintext" }));
    await assert.rejects(BasicAuth.load({ dataDir: dir, log: memory.log }), /auth\.json is invalid/);
  });
});
