import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { HomeserverSimulator } from "../../simulators/homeserver/index.ts";
import { allResponses } from "./support/portal-client.ts";
import {
  ADMIN_PASSWORD,
  addServer,
  nextIp,
  removeDataDir,
  startSimulator,
  startTestPortal,
  storedBytes,
  type TestPortal,
} from "./support/portal-harness.ts";
import { onPostgres } from "./support/test-database.ts";

const USER_PASSWORD = "user-password-Q9!zz";
const ROTATED_TOKEN = "syt_rotated_but_wrong_0123456789";

describe("secrets", () => {
  let portal: TestPortal;
  let hs: HomeserverSimulator;
  let dataDir: string;
  let serverId: string;
  let cookie: string | undefined;
  before(async () => {
    [portal, hs] = await Promise.all([startTestPortal(), startSimulator({ serverName: "secrets.test" })]);
    dataDir = portal.dataDir;
  });
  after(async () => {
    await portal.stop();
    await hs.close();
    removeDataDir(dataDir);
  });

  it("keeps the admin token, passwords and the session cookie out of every response, log line and the database file", async () => {
    const admin = await portal.admin();
    cookie = decodeURIComponent(admin.cookie ?? "");
    const server = await addServer(admin, hs, { fields: { slug: "secret-server" } });
    serverId = server.id;
    const tokens = `/api/admin/tokens?serverId=${serverId}`;
    await admin.post(tokens, { token: "secret-test", uses_allowed: 3, label: "l" });
    await admin.get(tokens);
    await admin.put(`/api/admin/tokens/secret-test?serverId=${serverId}`, { note: "n" });
    await admin.get(`/api/admin/servers/${serverId}`);
    await admin.get("/api/admin/servers");
    await admin.put(`/api/admin/servers/${serverId}`, { notes: "edited" });
    await admin.patch(`/api/admin/servers/${serverId}`, { action: "diagnostics" });
    await admin.get(`/api/admin/diagnostics?serverId=${serverId}`);
    await admin.get(`/api/admin/stats?serverId=${serverId}`);
    const visitor = portal.client({ ip: nextIp() });
    const signUp = { username: "keeper", password: USER_PASSWORD, confirmPassword: USER_PASSWORD, token: "secret-test" };
    assert.equal((await visitor.post("/api/register", signUp)).status, 200);
    await visitor.post("/api/register", { ...signUp, confirmPassword: "mismatch!" });
    await visitor.post("/api/register/validate-token", { token: "secret-test" });
    await visitor.get("/api/server/resolve?slug=secret-server");
    // A wrong token rotated in and out: failures are where secrets like to leak.
    await admin.patch(`/api/admin/servers/${serverId}`, { action: "rotate_token", adminToken: ROTATED_TOKEN });
    assert.equal((await admin.get(tokens)).status, 502);
    await admin.patch(`/api/admin/servers/${serverId}`, { action: "diagnostics" });
    await admin.patch(`/api/admin/servers/${serverId}`, { action: "rotate_token", adminToken: hs.adminToken });
    await admin.get("/api/admin/audit?limit=200");
    await portal.client({ ip: nextIp() }).post("/api/auth/login", { email: "root@portal.test", password: `${ADMIN_PASSWORD}x` });

    const secrets = [hs.adminToken, ROTATED_TOKEN, ADMIN_PASSWORD, USER_PASSWORD];
    const responses = allResponses.join("\n");
    assert.ok(responses.length > 5000, "the responses were recorded");
    for (const secret of secrets) assert.equal(responses.includes(secret), false, `a response contains ${secret.slice(0, 6)}…`);

    const logs = portal.logs().join("\n");
    assert.match(logs, /"msg":"homeserver call"/, "debug logging of homeserver calls is on");
    assert.match(logs, /"msg":"account registered"/);
    for (const secret of [...secrets, cookie])
      assert.equal(logs.includes(secret), false, `a log line contains ${secret.slice(0, 6)}…`);
    assert.equal(logs.includes(cookie.split(":")[3] ?? "-"), false);

    const { bytes, files } = await storedBytes(dataDir);
    if (!onPostgres)
      assert.ok(
        files.some((file) => file.endsWith("-wal")),
        "WAL mode",
      );
    assert.ok(bytes.includes("secret-server"), "the scan sees the stored rows");
    assert.ok(bytes.includes("v1:"), "the admin token is stored sealed");
    for (const secret of [...secrets, cookie]) {
      assert.equal(bytes.includes(secret), false, `the database holds ${secret.slice(0, 6)}… in plaintext`);
    }
  });

  it("uses the stored admin token after a restart with the same key", async () => {
    await portal.stop();
    portal = await startTestPortal({ dataDir });
    const admin = await portal.admin();
    const reply = await admin.get(`/api/admin/tokens?serverId=${serverId}`);
    assert.equal(reply.status, 200, reply.text);
    assert.ok(reply.body.tokens.some((t: { token: string; label: string }) => t.token === "secret-test" && t.label === "l"));
    const old = portal.client({ ip: nextIp() });
    old.cookie = encodeURIComponent(cookie ?? "");
    assert.equal((await old.get("/api/admin/servers")).status, 200, "sessions survive a restart too");
  });

  it("says clearly when the key changed and the stored token cannot be decrypted", async () => {
    await portal.stop();
    portal = await startTestPortal({ dataDir, env: { PORTAL_SECRET_KEY: Buffer.alloc(32, 0x11).toString("base64") } });
    const old = portal.client({ ip: nextIp() });
    old.cookie = encodeURIComponent(cookie ?? "");
    assert.equal((await old.get("/api/admin/servers")).status, 401, "a cookie sealed with the old key is refused");
    const admin = await portal.admin();
    const reply = await admin.get(`/api/admin/tokens?serverId=${serverId}`);
    assert.equal(reply.status, 500);
    assert.equal(reply.body.errorCode, "SECRET_UNREADABLE");
    const rotated = await admin.patch(`/api/admin/servers/${serverId}`, { action: "rotate_token", adminToken: hs.adminToken });
    assert.equal(rotated.status, 200);
    assert.equal((await admin.get(`/api/admin/tokens?serverId=${serverId}`)).status, 200, "rotating the token repairs it");
  });
});
