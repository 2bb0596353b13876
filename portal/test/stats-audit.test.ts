import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { HomeserverSimulator } from "../../simulators/homeserver/index.ts";
import type { PortalClient } from "./support/portal-client.ts";
import {
  ADMIN_EMAIL,
  addServer,
  nextIp,
  startPortalWithHomeserver,
  stopPortalWithHomeserver,
  type TestPortal,
} from "./support/portal-harness.ts";

describe("dashboard statistics and audit log", () => {
  let portal: TestPortal;
  let hs: HomeserverSimulator;
  let admin: PortalClient;
  let serverId: string;
  before(async () => {
    ({ portal, hs, admin, serverId } = await startPortalWithHomeserver({
      homeserver: {
        serverName: "stats.test",
        seed: {
          tokens: [
            { token: "expired", expiry_time: Date.now() - 1000 },
            { token: "used-up", uses_allowed: 2, completed: 2 },
            { token: "held", uses_allowed: 1, pending: 1 },
            { token: "zero", uses_allowed: 0 },
          ],
        },
      },
    }));
  });
  after(() => stopPortalWithHomeserver(portal, hs));

  it("counts tokens by state and the portal's recent sign-ups", async () => {
    const tokens = `/api/admin/tokens?serverId=${serverId}`;
    await admin.post(tokens, { token: "open" });
    await admin.post(tokens, { token: "limited", uses_allowed: 5 });
    await admin.post(tokens, { token: "off", uses_allowed: 5 });
    await admin.patch(`/api/admin/tokens/off?serverId=${serverId}`);
    for (const username of ["stat1", "stat2"]) {
      const reply = await portal
        .client({ ip: nextIp() })
        .post("/api/register", { username, password: "long enough", confirmPassword: "long enough", token: "open" });
      assert.equal(reply.status, 200, reply.text);
    }
    const stats = await admin.get(`/api/admin/stats?serverId=${serverId}`);
    assert.equal(stats.status, 200);
    assert.deepEqual(stats.body, {
      totalTokens: 7,
      validTokens: 2,
      expiredTokens: 1,
      exhaustedTokens: 2,
      disabledTokens: 2,
      recentRegistrations: 2,
    });
    portal.clockOffset = 8 * 24 * 60 * 60 * 1000;
    try {
      // Eight days on, the old session has expired too: log in again.
      const later = await (await portal.admin()).get(`/api/admin/stats?serverId=${serverId}`);
      assert.equal(later.status, 200, later.text);
      assert.equal(later.body.recentRegistrations, 0, "older than 7 days");
    } finally {
      portal.clockOffset = 0;
      // That login swept the (then expired) earlier sessions.
      admin = await portal.admin();
    }
    assert.equal((await admin.get("/api/admin/stats")).status, 400);
    assert.equal((await admin.get("/api/admin/stats?serverId=nope")).status, 404);
  });

  it("pages the audit log newest first, with total, limit, offset and a server filter", async () => {
    const other = await addServer(admin, hs, { enable: false });
    for (let i = 0; i < 55; i++) {
      const reply = await admin.put(`/api/admin/servers/${other.id}`, { notes: `edit ${i}` });
      assert.equal(reply.status, 200);
    }
    const page = await admin.get(`/api/admin/audit?serverId=${other.id}`);
    assert.equal(page.status, 200);
    assert.equal(page.body.total, 56);
    assert.equal(page.body.logs.length, 50, "default limit 50");
    const first = page.body.logs[0];
    assert.deepEqual(Object.keys(first).sort(), [
      "action",
      "actor",
      "createdAt",
      "detail",
      "id",
      "ip",
      "serverId",
      "serverName",
      "target",
      "targetGone",
      "targetName",
    ]);
    assert.deepEqual([first.targetName, first.targetGone, first.serverName], [other.name, false, other.name]);
    assert.equal(first.action, "server.updated");
    assert.equal(first.actor, ADMIN_EMAIL);
    assert.equal(first.serverId, other.id);
    assert.equal(typeof first.id, "string");
    assert.match(first.ip, /^10\.77\./);
    const ids = page.body.logs.map((entry: { id: string }) => Number(entry.id));
    assert.deepEqual(
      ids,
      [...ids].sort((a, b) => b - a),
      "reverse chronological",
    );
    const times = page.body.logs.map((entry: { createdAt: string }) => entry.createdAt);
    assert.deepEqual(times, [...times].sort().reverse());

    const rest = await admin.get(`/api/admin/audit?serverId=${other.id}&offset=50`);
    assert.equal(rest.body.logs.length, 6);
    assert.equal(rest.body.logs.at(-1).action, "server.created");
    const two = await admin.get(`/api/admin/audit?serverId=${other.id}&limit=2&offset=1`);
    assert.deepEqual(
      two.body.logs.map((entry: { id: string }) => entry.id),
      page.body.logs.slice(1, 3).map((entry: { id: string }) => entry.id),
    );

    const all = await admin.get("/api/admin/audit?limit=200");
    assert.ok(all.body.total > 56);
    assert.ok(all.body.logs.some((entry: { serverId: string }) => entry.serverId === serverId));
    assert.deepEqual((await admin.get("/api/admin/audit?serverId=unknown")).body, { logs: [], total: 0 });
    for (const query of ["limit=0", "limit=201", "limit=abc", "offset=-1", "offset=1.5"]) {
      const reply = await admin.get(`/api/admin/audit?${query}`);
      assert.equal(reply.status, 400, query);
      assert.equal(reply.body.errorCode, "BAD_REQUEST");
    }
  });
});
