import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import type { HomeserverSimulator } from "../../simulators/homeserver/index.ts";
import { png } from "./support/images.ts";
import type { PortalClient } from "./support/portal-client.ts";
import { ADMIN_EMAIL, ADMIN_PASSWORD, addServer, nextIp, startSimulator } from "./support/portal-harness.ts";
import {
  type PortalProcess,
  type SharedDatabase,
  sameBrowser,
  sharedDatabase,
  sharedDatabaseKind,
  startPortalProcess,
} from "./support/portal-processes.ts";

const REGISTER = "/_matrix/client/v3/register";
const password = "correct horse battery";
const signUp = (username: string, token: string) => ({ username, password, confirmPassword: password, token });

/**
 * Issue 24: two portal processes on one database (one SQLite file, or PostgreSQL with PORTAL_TEST_DATABASE_URL), as
 * behind a reverse proxy that sends each request to either. What one instance does, the other must honour at once.
 */
describe(`two portal instances on one database (${sharedDatabaseKind()})`, () => {
  let database: SharedDatabase;
  let a: PortalProcess;
  let b: PortalProcess;
  let hs: HomeserverSimulator;
  let adminA: PortalClient;
  let serverId: string;
  const registerCalls = () => hs.requests().filter((r) => r.method === "POST" && r.path === REGISTER).length;

  before(async () => {
    database = await sharedDatabase();
    hs = await startSimulator({ serverName: "instances.test" });
    a = await startPortalProcess({ name: "A", database, index: 0 });
    b = await startPortalProcess({ name: "B", database, index: 1 });
    adminA = a.client({ ip: nextIp() });
    await adminA.login(ADMIN_EMAIL, ADMIN_PASSWORD);
    serverId = (await addServer(adminA, hs)).id;
  });
  after(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await hs?.close();
    for (const dir of new Set([a?.dataDir, b?.dataDir])) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("gives exactly one account for 10 concurrent sign-ups with a one-use token spread over both", async () => {
    const tokens = `/api/admin/tokens?serverId=${serverId}`;
    // One sign-up alone first: how many /register calls one flow makes.
    assert.equal((await adminA.post(tokens, { token: "alone", uses_allowed: 1 })).status, 201);
    const beforeAlone = registerCalls();
    assert.equal((await b.client({ ip: nextIp() }).post("/api/register", signUp("alone", "alone"))).status, 200);
    const oneFlow = registerCalls() - beforeAlone;

    assert.equal((await adminA.post(tokens, { token: "last-seat", uses_allowed: 1 })).status, 201);
    const beforeRace = registerCalls();
    const replies = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        (i % 2 === 0 ? a : b).client({ ip: nextIp() }).post("/api/register", signUp(`racer${i}`, "last-seat")),
      ),
    );
    const winners = replies.filter((reply) => reply.status === 200);
    assert.equal(winners.length, 1, JSON.stringify(replies.map((reply) => reply.body)));
    for (const loser of replies.filter((reply) => reply.status !== 200)) {
      assert.deepEqual([loser.status, loser.body.errorCode], [403, "M_UNAUTHORIZED"]);
    }
    assert.deepEqual(
      hs
        .users()
        .map((user) => user.userId)
        .filter((id) => id.startsWith("@racer")),
      [winners[0]?.body.userId],
    );
    // The losers waited for the winner (on either instance) and were refused by the portal's own check: none of
    // them reached the homeserver's registration at all.
    assert.equal(registerCalls() - beforeRace, oneFlow);
  });

  it("shows a write made through A on B at once: token lists, servers, branding images", async () => {
    const adminB = sameBrowser(adminA, b.url);
    const tokens = `/api/admin/tokens?serverId=${serverId}`;
    const listed = async () => ((await adminB.get(tokens)).body.tokens as { token: string; label: string }[]).map((t) => t.token);
    assert.equal((await listed()).includes("written-on-a"), false, "B keeps a list now");
    assert.equal((await adminA.post(tokens, { token: "written-on-a", label: "From A" })).status, 201);
    assert.ok((await listed()).includes("written-on-a"), "B's kept list did not hide A's write");

    assert.equal((await adminB.get(`/api/admin/servers/${serverId}`)).body.server.name.startsWith("Test server"), true);
    assert.equal((await adminA.put(`/api/admin/servers/${serverId}`, { name: "Renamed on A" })).status, 200);
    assert.equal((await adminB.get(`/api/admin/servers/${serverId}`)).body.server.name, "Renamed on A");
    assert.equal((await b.client().get(`/api/server/resolve?serverId=${serverId}`)).body.server.name, "Renamed on A");

    const profile = (await adminA.post("/api/admin/branding", { name: "Shared look" })).body.profile;
    const form = new FormData();
    form.set("purpose", "logo");
    form.set("file", new Blob([new Uint8Array(png())], { type: "image/png" }), "logo.png");
    const uploaded = await adminA.upload(`/api/admin/branding/${profile.id}/assets`, form);
    assert.equal(uploaded.status, 201, uploaded.text);
    const served = await fetch(`${b.url}${uploaded.body.asset.url}`);
    assert.equal(served.status, 200, "B serves the image A stored");
    assert.deepEqual(Buffer.from(await served.arrayBuffer()), png());
  });

  it("rejects on B a session logged out on A, on the very next request", async () => {
    const browser = a.client({ ip: nextIp() });
    await browser.login(ADMIN_EMAIL, ADMIN_PASSWORD);
    const onB = sameBrowser(browser, b.url);
    assert.equal((await onB.get("/api/admin/servers")).status, 200, "B knows the session (and keeps it now)");
    const copy = onB.cookie;
    assert.equal((await browser.post("/api/auth/logout")).status, 200);
    onB.cookie = copy; // a copy of the cookie, kept by someone who stole it
    assert.equal((await onB.get("/api/admin/servers")).status, 401);
    assert.equal((await onB.get("/api/auth/session")).body.authenticated, false);
  });

  it("counts the rate limits of both together: sign-ups per address, failed logins per account", async () => {
    const ip = nextIp();
    for (let i = 0; i < 15; i++) {
      const reply = await (i % 2 === 0 ? a : b).client({ ip }).post("/api/register", signUp("", "none"));
      assert.equal(reply.status, 400, "refused as invalid, and counted");
    }
    for (const instance of [a, b]) {
      const limited = await instance.client({ ip }).post("/api/register", signUp("late", "none"));
      assert.deepEqual([limited.status, limited.body.errorCode], [429, "M_LIMIT_EXCEEDED"], instance.name);
    }

    const account = "someone@instances.test";
    for (let i = 0; i < 5; i++) {
      const reply = await (i % 2 === 0 ? a : b)
        .client({ ip: nextIp() })
        .post("/api/auth/login", { email: account, password: "wrong-1234" });
      assert.equal(reply.status, 401);
    }
    for (const instance of [a, b]) {
      const locked = await instance.client({ ip: nextIp() }).post("/api/auth/login", { email: account, password: "wrong-1234" });
      assert.equal(locked.status, 429, `${instance.name}: the account is locked for every instance`);
    }
  });
});
