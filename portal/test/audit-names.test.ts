import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { HomeserverSimulator } from "../../simulators/homeserver/index.ts";
import { LOGIN_AUDIT_BUDGET } from "../src/audit/login-audit.ts";
import type { PortalClient } from "./support/portal-client.ts";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  addServer,
  nextIp,
  startPortalWithHomeserver,
  stopPortalWithHomeserver,
  storedBytes,
  type TestPortal,
} from "./support/portal-harness.ts";

interface Entry {
  action: string;
  actor: string;
  target: string;
  targetName: string | null;
  targetGone: boolean;
  serverName: string | null;
  ip: string;
  detail: Record<string, unknown> | null;
}

describe("audit log: names instead of ids, and admin logins", () => {
  let portal: TestPortal;
  let hs: HomeserverSimulator;
  let admin: PortalClient;
  before(async () => {
    ({ portal, hs, admin } = await startPortalWithHomeserver({ homeserver: { serverName: "names.test" }, server: false }));
  });
  after(() => stopPortalWithHomeserver(portal, hs));

  const entries = async (query: string): Promise<Entry[]> => {
    const reply = await admin.get(`/api/admin/audit?limit=200&${query}`);
    assert.equal(reply.status, 200, reply.text);
    return reply.body.logs;
  };

  it("names servers, tokens, bots, profiles and integrations, renamed or deleted, resolved when the log is read", async () => {
    const main = await addServer(admin, hs, { fields: { name: "Main homeserver" } });
    const server = await addServer(admin, hs, { fields: { name: "Side homeserver" } });
    const tokens = `/api/admin/tokens?serverId=${server.id}`;
    assert.equal((await admin.post(tokens, { token: "dana-invite", label: "Invitation for Dana" })).status, 201);
    assert.equal((await admin.post(tokens, { token: "bare" })).status, 201);
    const bot = (await admin.post(`/api/admin/bots?serverId=${server.id}`, { templateId: "welcome", displayName: "Greeter" }))
      .body.bot;
    const profile = (await admin.post("/api/admin/branding", { name: "Acme look" })).body.profile;
    const integration = (await admin.post(`/api/admin/integrations?serverId=${server.id}`, { catalogId: "heisenbridge" })).body
      .integration;

    // Renamed: every entry, old ones too, shows the current name.
    assert.equal((await admin.put(`/api/admin/servers/${server.id}`, { name: "Side server (renamed)" })).status, 200);
    const serverEntries = await entries(`serverId=${server.id}`);
    const created = serverEntries.find((entry) => entry.action === "server.created");
    assert.deepEqual([created?.target, created?.targetName, created?.targetGone], [server.id, "Side server (renamed)", false]);
    assert.ok(serverEntries.every((entry) => entry.serverName === "Side server (renamed)"));
    const named = (action: string, target: string) =>
      serverEntries.find((entry) => entry.action === action && entry.target === target)?.targetName;
    assert.equal(named("token.created", "dana-invite"), "Invitation for Dana", "a token by its label");
    assert.equal(named("token.created", "bare"), null, "a token without a label is its own name");
    assert.equal(named("bot.created", bot.id), "Greeter");
    assert.equal(named("integration.installed", integration.id), integration.name);
    const branding = (await entries("action=branding")).find((entry) => entry.target === profile.id);
    assert.equal(branding?.targetName, "Acme look");
    assert.equal(branding?.serverName, null, "branding is portal-wide");

    // Deleted: the last known name stays, marked as gone.
    assert.equal((await admin.delete(`/api/admin/tokens/dana-invite?serverId=${server.id}`)).status, 200);
    assert.equal((await admin.delete(`/api/admin/bots/${bot.id}`)).status, 200);
    assert.equal((await admin.delete(`/api/admin/integrations/${integration.id}`)).status, 200);
    assert.equal((await admin.delete(`/api/admin/branding/${profile.id}`)).status, 200);
    assert.equal((await admin.patch(`/api/admin/servers/${main.id}`, { action: "set_default" })).status, 200);
    assert.equal((await admin.patch(`/api/admin/servers/${server.id}`, { action: "disable" })).status, 200);
    assert.equal((await admin.delete(`/api/admin/servers/${server.id}`)).status, 200);

    const after = await entries(`serverId=${server.id}`);
    const gone = (action: string) => after.find((entry) => entry.action === action);
    for (const [action, name] of [
      ["server.deleted", "Side server (renamed)"],
      ["token.deleted", "Invitation for Dana"],
      ["bot.deleted", "Greeter"],
      ["integration.uninstalled", integration.name],
    ] as const) {
      assert.deepEqual([gone(action)?.targetName, gone(action)?.targetGone], [name, true], action);
    }
    assert.ok(
      after.every((entry) => entry.serverName === "Side server (renamed)"),
      "a deleted server's entries keep its name",
    );
    const deletedProfile = (await entries("action=branding.deleted")).find((entry) => entry.target === profile.id);
    assert.deepEqual([deletedProfile?.targetName, deletedProfile?.targetGone], ["Acme look", true]);
  });

  it("audits admin logins, failed ones too, with the client address and never the password", async () => {
    const ip = nextIp();
    await portal.client({ ip }).login(ADMIN_EMAIL, ADMIN_PASSWORD);
    const wrongIp = nextIp();
    const wrong = await portal.client({ ip: wrongIp }).post("/api/auth/login", { email: ADMIN_EMAIL, password: "Guess-1234" });
    assert.equal(wrong.status, 401);
    const typo = "hunter2-typed-into-the-email-field";
    const unknown = await portal.client({ ip: wrongIp }).post("/api/auth/login", { email: typo, password: "Guess-5678" });
    assert.equal(unknown.status, 401);

    const logins = await entries("action=auth.login");
    const success = logins.find((entry) => entry.action === "auth.login" && entry.ip === ip);
    assert.deepEqual([success?.actor, success?.target, success?.targetName], [ADMIN_EMAIL, ADMIN_EMAIL, "root"]);
    const failed = logins.filter((entry) => entry.action === "auth.login.failed" && entry.ip === wrongIp);
    assert.deepEqual(
      failed.map((entry) => [entry.actor, entry.target, entry.detail?.reason]),
      [
        ["anonymous", "(unknown account)", "unknown_account"],
        ["anonymous", ADMIN_EMAIL, "wrong_password"],
      ],
    );
    // The database and its write-ahead log, where recent writes are until a checkpoint.
    const stored = (await storedBytes(portal.dataDir)).bytes.toString("latin1");
    const everything = JSON.stringify(await entries("")) + stored;
    for (const secret of ["Guess-1234", "Guess-5678", ADMIN_PASSWORD, typo]) {
      assert.equal(everything.includes(secret), false, `${secret} is in neither the log nor the database`);
    }

    // Locked out after five failures: the refusals are failed logins too.
    const lockIp = nextIp();
    for (let i = 0; i < 6; i++) {
      await portal.client({ ip: lockIp }).post("/api/auth/login", { email: "nobody@names.test", password: `Wrong-${i}` });
    }
    const locked = (await entries("action=auth.login.failed")).filter((entry) => entry.ip === lockIp);
    assert.equal(locked[0]?.detail?.reason, "rate_limited");
    assert.equal(locked.length, 6);
  });

  it("writes a flood of failed logins as a bounded number of entries and a summary, not one per request", async () => {
    const before = await admin.get("/api/admin/audit?action=auth.login.failed&limit=1");
    const start = before.body.total as number;
    // A fresh window, so that the budget is known whatever the tests above used.
    portal.clockOffset += LOGIN_AUDIT_BUDGET.windowMs;
    const flood = 60;
    for (let i = 0; i < flood; i++) {
      const reply = await portal
        .client({ ip: nextIp() })
        .post("/api/auth/login", { email: `flood${i}@names.test`, password: "x1x1x1x1" });
      assert.equal(reply.status, 401);
    }
    const during = (await admin.get("/api/admin/audit?action=auth.login.failed&limit=1")).body.total - start;
    assert.equal(during, LOGIN_AUDIT_BUDGET.entries, "one entry each up to the budget, the rest only counted");

    // The next window: the count of the last one is written as one summary.
    portal.clockOffset += LOGIN_AUDIT_BUDGET.windowMs;
    await portal.client({ ip: nextIp() }).post("/api/auth/login", { email: "late@names.test", password: "x1x1x1x1" });
    const summary = (await entries("action=auth.login.failed.summary"))[0];
    assert.equal(summary?.actor, "anonymous");
    assert.equal(summary?.ip, "(many)");
    assert.deepEqual(
      [summary?.detail?.attempts, summary?.detail?.accounts, summary?.detail?.addresses, summary?.detail?.rateLimited],
      [flood - LOGIN_AUDIT_BUDGET.entries, flood - LOGIN_AUDIT_BUDGET.entries, flood - LOGIN_AUDIT_BUDGET.entries, 0],
    );
    const total = (await admin.get("/api/admin/audit?action=auth.login.failed&limit=1")).body.total - start;
    assert.equal(total, LOGIN_AUDIT_BUDGET.entries + 2, "the budget, the summary, and the first failure of the new window");
  });
});
