import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  addServer,
  nextIp,
  removeDataDir,
  startSimulator,
  startTestPortal,
} from "./support/portal-harness.ts";

const DEMO_ENV = { PORTAL_DEMO: "1", PORTAL_ADMIN_EMAIL: undefined, PORTAL_ADMIN_PASSWORD: undefined };

/** The password from the one DEMO warn line, which must be the only line that holds it. */
function demoPassword(lines: string[]): string {
  const line = lines.find((text) => text.includes("DEMO MODE: portal admin login"));
  assert.ok(line, "the demo login is logged");
  const entry = JSON.parse(line);
  assert.equal(entry.level, "warn");
  const password = /admin@demo\.local \/ (\S+) /.exec(entry.msg)?.[1];
  assert.ok(password && password.length >= 16);
  assert.equal(lines.filter((text) => text.includes(password)).length, 1, "printed once");
  return password;
}

describe("demo mode", () => {
  it("runs the simulator as the default enabled server, with demo tokens and a demo admin", async () => {
    const portal = await startTestPortal({ env: DEMO_ENV });
    const dataDir = portal.dataDir;
    let restarted: Awaited<ReturnType<typeof startTestPortal>> | undefined;
    try {
      const password = demoPassword(portal.logs());
      const admin = portal.client({ ip: nextIp() });
      await admin.login("admin@demo.local", password);
      const servers = (await admin.get("/api/admin/servers")).body.servers;
      assert.equal(servers.length, 2, "the demo homeserver and the demo MAS server");
      const [server, masServer] = servers;
      assert.deepEqual(
        [masServer.name, masServer.kind, masServer.enabled, masServer.isDefault],
        ["Demo MAS server (simulated)", "mas", true, false],
      );
      const masTokens = (await admin.get(`/api/admin/tokens?serverId=${masServer.id}`)).body.tokens;
      assert.deepEqual(
        masTokens.map((t: { token: string; label: string; state: string }) => [t.token, t.label, t.state]),
        [["demo-mas-welcome", "Demo (MAS): open invitation", "valid"]],
      );
      const masCheck = await admin.get(`/api/admin/diagnostics?serverId=${masServer.id}`);
      assert.deepEqual(masCheck.body.diagnostics.errors, []);
      assert.equal(masCheck.body.diagnostics.kind, "mas");
      assert.equal(server.name, "Demo homeserver (simulated)");
      assert.equal(server.enabled, true);
      assert.equal(server.isDefault, true);
      assert.equal(server.status, "active");
      assert.match(server.internalUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
      const tokens = (await admin.get(`/api/admin/tokens?serverId=${server.id}`)).body.tokens;
      assert.deepEqual(
        tokens.map((t: { token: string; label: string; valid: boolean }) => [t.token, t.label, t.valid]),
        [
          ["demo-welcome", "Demo: open invitation", true],
          ["demo-single-use", "Demo: one sign-up", true],
        ],
      );
      const signUp = await portal.client({ ip: nextIp() }).post("/api/register", {
        username: "visitor",
        password: "demo-pass-1",
        confirmPassword: "demo-pass-1",
        token: "demo-single-use",
      });
      assert.deepEqual(signUp.body, { success: true, userId: "@visitor:demo.local" });
      assert.equal((await admin.get(`/api/admin/diagnostics?serverId=${server.id}`)).body.diagnostics.errors.length, 0);

      await portal.stop();
      restarted = await startTestPortal({ dataDir, env: DEMO_ENV });
      const newPassword = demoPassword(restarted.logs());
      assert.notEqual(newPassword, password);
      const old = await restarted.client({ ip: nextIp() }).post("/api/auth/login", { email: "admin@demo.local", password });
      assert.equal(old.status, 401);
      const again = restarted.client({ ip: nextIp() });
      await again.login("admin@demo.local", newPassword);
      const after = (await again.get("/api/admin/servers")).body.servers;
      assert.equal(after.length, 2, "the demo server records are reused");
      assert.equal(after[0].id, server.id);
      assert.equal(after[1].id, masServer.id);
      assert.notEqual(after[1].masUrl, masServer.masUrl, "pointing at the new MAS simulator");
      const masAgain = (await again.get(`/api/admin/tokens?serverId=${masServer.id}`)).body.tokens;
      assert.deepEqual(
        masAgain.map((t: { token: string; completed: number }) => [t.token, t.completed]),
        [["demo-mas-welcome", 0]],
      );
      assert.notEqual(after[0].internalUrl, server.internalUrl, "pointing at the new simulator");
      const fresh = (await again.get(`/api/admin/tokens?serverId=${server.id}`)).body.tokens;
      assert.equal(fresh.find((t: { token: string }) => t.token === "demo-single-use").completed, 0);
    } finally {
      await (restarted ?? portal).stop();
      removeDataDir(dataDir);
    }
  });

  it("refuses to repoint a real server that happens to use the demo slug", async () => {
    const real = await startTestPortal();
    const hs = await startSimulator();
    try {
      await addServer(await real.admin(), hs, { fields: { slug: "demo", name: "Production" } });
      await real.stop();
      await assert.rejects(
        startTestPortal({ dataDir: real.dataDir, env: { PORTAL_DEMO: "1" } }),
        /slug "demo" belongs to the managed server "Production"/,
      );
    } finally {
      await hs.close();
      removeDataDir(real.dataDir);
    }
  });

  it("uses PORTAL_ADMIN_* when given and then logs no password", async () => {
    const portal = await startTestPortal({ env: { PORTAL_DEMO: "1" } });
    try {
      assert.equal(
        portal.logs().some((line) => line.includes("portal admin login")),
        false,
      );
      assert.equal(
        portal.logs().some((line) => line.includes(ADMIN_PASSWORD)),
        false,
      );
      const admin = await portal.admin();
      assert.equal((await admin.get("/api/admin/servers")).body.servers[0].slug, "demo");
      const demoLogin = await portal
        .client({ ip: nextIp() })
        .post("/api/auth/login", { email: "admin@demo.local", password: "x" });
      assert.equal(demoLogin.status, 401);
      assert.equal((await portal.client().post("/api/auth/login", { email: ADMIN_EMAIL, password: ADMIN_PASSWORD })).status, 200);
    } finally {
      await portal.stop();
      removeDataDir(portal.dataDir);
    }
  });
});
