import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { HomeserverSimulator } from "../../simulators/homeserver/index.ts";
import type { PortalClient } from "./support/portal-client.ts";
import {
  nextIp,
  removeDataDir,
  startPortalWithHomeserver,
  startTestPortal,
  stopPortalWithHomeserver,
  type TestPortal,
} from "./support/portal-harness.ts";

/** What the web UI asks beyond the spec: username availability, audit filters, the demo flag (docs/portal.md). */
describe("endpoints for the web UI", () => {
  let portal: TestPortal;
  let hs: HomeserverSimulator;
  let admin: PortalClient;
  let serverId: string;
  before(async () => {
    ({ portal, hs, admin, serverId } = await startPortalWithHomeserver({
      homeserver: {
        serverName: "ui.test",
        exclusiveNamespaces: ["@bridge_.*"],
        seed: { users: [{ localpart: "alice" }] },
      },
    }));
  });
  after(() => stopPortalWithHomeserver(portal, hs));

  const available = (username: string, client = portal.client({ ip: nextIp() }), server = serverId) =>
    client.get(`/api/register/username-available?username=${encodeURIComponent(username)}&serverId=${server}`);

  it("tells whether a username can be registered, with the code sign-up would end with", async () => {
    assert.deepEqual((await available("Bob")).body, { available: true, username: "bob" }, "lower-cased like sign-up");
    const taken = await available("alice");
    assert.equal(taken.status, 200);
    assert.equal(taken.body.available, false);
    assert.equal(taken.body.errorCode, "M_USER_IN_USE");
    assert.match(taken.body.error, /already taken/);
    assert.equal((await available("bridge_x")).body.errorCode, "M_EXCLUSIVE");
    const local = await available("_hidden");
    assert.deepEqual(local.body, { available: false, errorCode: "M_INVALID_USERNAME", error: "Usernames may not begin with _" });
    assert.equal((await available("12345")).body.errorCode, "M_INVALID_USERNAME");
    assert.equal((await available("a b")).body.errorCode, "M_INVALID_USERNAME");
    // Nothing was created by asking.
    assert.deepEqual(
      hs
        .users()
        .map((user) => user.userId)
        .filter((id) => id !== "@admin:ui.test"),
      ["@alice:ui.test"],
    );
  });

  it("answers for the default server without serverId, 404 for an unknown one and 400 without a username", async () => {
    const client = portal.client({ ip: nextIp() });
    assert.equal((await client.get("/api/register/username-available?username=carol")).body.available, true);
    const unknown = await available("carol", client, "nope");
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.errorCode, "M_NOT_FOUND");
    const missing = await client.get("/api/register/username-available");
    assert.equal(missing.status, 400);
    assert.equal(missing.body.success, false);
  });

  it("rate-limits availability checks per client IP (60 per 15 minutes)", async () => {
    const client = portal.client({ ip: nextIp() });
    for (let i = 0; i < 60; i++) assert.equal((await available(`user${i}x`, client)).status, 200);
    const refused = await available("one-more", client);
    assert.equal(refused.status, 429);
    assert.equal(refused.body.errorCode, "M_LIMIT_EXCEEDED");
    assert.ok(Number(refused.headers.get("retry-after")) > 0);
    assert.equal((await available("one-more")).status, 200, "another visitor is not affected");
  });

  it("filters the audit log by action (exact or resource prefix) and by administrator", async () => {
    await admin.post(`/api/admin/tokens?serverId=${serverId}`, { token: "audit-a" });
    await admin.patch(`/api/admin/tokens/audit-a?serverId=${serverId}`);

    const byPrefix = await admin.get(`/api/admin/audit?serverId=${serverId}&action=token`);
    assert.deepEqual(
      byPrefix.body.logs.map((entry: { action: string }) => entry.action),
      ["token.disabled", "token.created"],
    );
    assert.equal(byPrefix.body.total, 2);
    const exact = await admin.get(`/api/admin/audit?action=token.disabled`);
    assert.deepEqual(
      exact.body.logs.map((entry: { target: string }) => entry.target),
      ["audit-a"],
    );
    const server = await admin.get(`/api/admin/audit?action=server&limit=200`);
    assert.ok(server.body.logs.length >= 2);
    assert.ok(server.body.logs.every((entry: { action: string }) => entry.action.startsWith("server.")));
    assert.equal((await admin.get("/api/admin/audit?action=serv")).body.total, 0, "a prefix matches whole segments only");
    const byActor = await admin.get("/api/admin/audit?actor=ROOT@portal.test&limit=1");
    assert.equal(byActor.body.logs[0].actor, "root@portal.test");
    assert.equal((await admin.get("/api/admin/audit?actor=nobody@portal.test")).body.total, 0);
    const bad = await admin.get("/api/admin/audit?action=token%25");
    assert.equal(bad.status, 400);
    assert.match(bad.body.error, /action/);
  });

  it("serves the UI for the sign-up page and /admin alike, with a strict CSP and no framing", async () => {
    for (const path of ["/", "/admin", "/?server=x&token=y"]) {
      const page = await portal.client().get(path);
      assert.equal(page.status, 200);
      assert.match(page.headers.get("content-type") ?? "", /^text\/html/);
      assert.match(page.text, /<base href="\/">/);
      assert.match(page.headers.get("content-security-policy") ?? "", /default-src 'self'.*frame-ancestors 'none'/);
      assert.equal(page.headers.get("x-frame-options"), "DENY");
    }
    const api = await portal.client().get("/api/health");
    assert.equal(api.headers.get("content-security-policy"), null, "API answers keep their own headers");
  });

  it("says in the session answer whether the portal runs in demo mode", async () => {
    assert.equal((await portal.client().get("/api/auth/session")).body.demo, false);
    const demo = await startTestPortal({ env: { PORTAL_DEMO: "1" } });
    try {
      assert.deepEqual((await demo.client().get("/api/auth/session")).body, { authenticated: false, demo: true });
      const session = await (await demo.admin()).get("/api/auth/session");
      assert.equal(session.body.demo, true);
      assert.equal(session.body.authenticated, true);
    } finally {
      await demo.stop();
      removeDataDir(demo.dataDir);
    }
  });
});
