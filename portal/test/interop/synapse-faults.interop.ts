/**
 * The portal when Synapse fails (docs/INTEROP.md "The portal against Synapse", Faults): Synapse stopped between
 * operations, Synapse dying after it carried out a request whose answer never arrives (a cutting forwarder between
 * the portal and Synapse), a token deleted by someone else during a sign-up, a frozen Synapse, and Synapse's default
 * registration rate limit, which counts every sign-up the portal makes.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { PortalClient } from "../support/portal-client.ts";
import { nextIp, type TestPortal } from "../support/portal-harness.ts";
import { CutProxy } from "./support/cut-proxy.ts";
import { PASSWORD, type PortalOnSynapse, SERVER_NAME, startPortalOnSynapse } from "./support/portal-on-synapse.ts";
import { Synapse } from "./support/synapse.ts";

describe("the portal when Synapse fails", () => {
  let world: PortalOnSynapse;
  let synapse: Synapse;
  let portal: TestPortal;
  let admin: PortalClient;
  let serverId: string;
  before(async () => {
    world = await startPortalOnSynapse("synapse-faults");
    ({ synapse, portal, admin, serverId } = world);
  });
  after(() => world?.stop());

  const tokens = (path = "") => world.tokens(path);
  const onSynapse = (token: string) => world.onSynapse(token);
  const signUp = (username: string, token: string, ip = nextIp(), server = serverId) =>
    portal
      .client({ ip })
      .post("/api/register", { username, password: PASSWORD, confirmPassword: PASSWORD, token, serverId: server });
  const timed = <T>(name: string, work: () => Promise<T>) => world.timed(name, work);

  it("gives clear errors and changes nothing while Synapse is stopped, and works again once it is back", async () => {
    await admin.post(tokens(), { token: "before-outage", uses_allowed: 4, label: "kept" });
    await synapse.stop();
    const create = await admin.post(tokens(), { token: "during-outage", label: "lost" });
    assert.ok(create.status >= 500 && create.status < 600, create.text);
    assert.equal(typeof create.body.error, "string");
    const update = await admin.put(tokens("/before-outage"), { label: "changed", uses_allowed: 1 });
    assert.ok(update.status >= 500, update.text);
    const list = await admin.get(tokens());
    assert.ok(list.status >= 500, list.text);
    const signUpDuring = await signUp("carol", "before-outage");
    assert.equal(signUpDuring.status, 503, signUpDuring.text);
    assert.equal(signUpDuring.body.success, false);
    const diagnostics = await admin.patch(`/api/admin/servers/${serverId}`, { action: "diagnostics" });
    assert.equal(diagnostics.body.diagnostics.homeserverReachable, false);

    await timed("synapse restart after the outage", () => synapse.restart());
    const one = await admin.get(tokens("/before-outage"));
    assert.deepEqual([one.status, one.body.token.label, one.body.token.uses_allowed], [200, "kept", 4], "nothing changed");
    assert.equal((await admin.get(tokens("/during-outage"))).status, 404, "nothing was created");
    const listed = (await admin.get(tokens())).body.tokens as { token: string }[];
    assert.ok(!listed.some((row) => row.token === "during-outage"));
    const after = await signUp("carol", "before-outage");
    assert.deepEqual(after.body, { success: true, userId: "@carol:syn.test" });
    const healthy = await admin.patch(`/api/admin/servers/${serverId}`, { action: "diagnostics" });
    assert.deepEqual(healthy.body.diagnostics.errors, []);
  });

  it("gives clear errors and changes nothing locally when Synapse dies in the middle of a write or a sign-up", async () => {
    const proxy = await CutProxy.start(synapse.url);
    try {
      const cutId = await world.addServer({
        slug: "cut-synapse",
        serverName: SERVER_NAME,
        internalUrl: proxy.url,
        adminToken: synapse.adminToken,
      });
      const cutTokens = (path = "") => `/api/admin/tokens${path}?serverId=${cutId}`;

      // Synapse creates the token, then dies before answering.
      const dies = proxy.cutAfterAnswer(
        (method, path) => method === "POST" && path.endsWith("/registration_tokens/new"),
        () => synapse.stop(),
      );
      const create = await admin.post(cutTokens(), { token: "cut-create", uses_allowed: 2, label: "cut" });
      await dies;
      assert.equal(create.status, 502, create.text);
      assert.equal(create.body.errorCode, "HOMESERVER_UNREACHABLE");
      await timed("synapse restart after a cut", () => synapse.restart());
      const after = (await admin.get(cutTokens("/cut-create"))).body.token;
      assert.deepEqual([after.uses_allowed, after.label], [2, null], "Synapse has the token; the portal stored no label");
      assert.match((await admin.post(cutTokens(), { token: "cut-create" })).text, /already exists/);

      // A sign-up: Synapse takes the token stage (a pending use), then dies before answering.
      await admin.post(cutTokens(), { token: "cut-sign-up", uses_allowed: 1 });
      const stops = proxy.cutAfterAnswer(
        (method, path, body) =>
          method === "POST" && path.startsWith("/_matrix/client/v3/register") && body.includes("registration_token"),
        () => synapse.stop(),
      );
      const interrupted = await portal.client({ ip: nextIp() }).post("/api/register", {
        username: "dave",
        password: PASSWORD,
        confirmPassword: PASSWORD,
        token: "cut-sign-up",
        serverId: cutId,
      });
      await stops;
      assert.deepEqual([interrupted.status, interrupted.body.success], [503, false], interrupted.text);
      assert.match(interrupted.body.error, /not reachable/);
      await synapse.restart();
      const recent = (await admin.get(`/api/admin/stats?serverId=${cutId}`)).body;
      assert.equal(recent.recentRegistrations, 0, "no local registration");
      assert.equal((await synapse.admin("GET", "/_synapse/admin/v1/username_available?username=dave")).status, 200, "no account");
      // Synapse keeps the UIA session (and its pending use) in its database: the one-use token stays taken.
      assert.deepEqual([(await onSynapse("cut-sign-up")).pending, (await onSynapse("cut-sign-up")).completed], [1, 0]);
      const retry = await signUp("dave", "cut-sign-up");
      assert.deepEqual([retry.status, retry.body.error], [403, "This registration token has no uses left."]);

      // Another admin deletes the token while a sign-up with it runs: Synapse makes the account, then fails to book
      // the use (404 "No row found (registration_tokens)"); the portal replays the step and reports the account.
      await admin.post(cutTokens(), { token: "cut-deleted", uses_allowed: 3 });
      const deletes = proxy.beforeForward(
        (method, path, body) =>
          method === "POST" && path.startsWith("/_matrix/client/v3/register") && body.includes("m.login.dummy"),
        async () => {
          assert.equal((await synapse.admin("DELETE", "/_synapse/admin/v1/registration_tokens/cut-deleted")).status, 200);
        },
      );
      const raced = await signUp("erin", "cut-deleted", nextIp(), cutId);
      await deletes;
      assert.deepEqual(raced.body, { success: true, userId: "@erin:syn.test" });
      assert.ok(await synapse.login("erin", PASSWORD), "the account exists and logs in");

      // A frozen Synapse (accepts connections, never answers): the portal answers within its time limit.
      synapse.freeze(true);
      const started = performance.now();
      const frozen = await admin.get(cutTokens("/cut-create")).finally(() => synapse.freeze(false));
      world.timings["token read with Synapse frozen"] = Math.round(performance.now() - started);
      assert.equal(frozen.status, 502, frozen.text);
      assert.ok(performance.now() - started < 15_000);
      assert.equal((await admin.get(cutTokens("/cut-create"))).status, 200, "works again without a portal restart");
    } finally {
      await proxy.close();
    }
  });

  it("waits out Synapse's default registration rate limit, which counts every sign-up the portal makes", async () => {
    // Every sign-up reaches Synapse from the portal's address, so rc_registration (0.17/s, burst 3) limits the
    // portal as a whole: the fourth sign-up in a row is delayed, and the portal waits it out inside the session.
    const limited = await Synapse.start({ name: "synapse-default-limits", serverName: "limits.test", defaultRateLimits: true });
    try {
      const limitsId = await world.addServer({
        slug: "limits-synapse",
        serverName: "limits.test",
        internalUrl: limited.url,
        adminToken: limited.adminToken,
      });
      assert.equal(
        (await admin.post(`/api/admin/tokens?serverId=${limitsId}`, { token: "four-seats", uses_allowed: 4 })).status,
        201,
      );
      const times: number[] = [];
      for (let n = 1; n <= 4; n++) {
        const started = performance.now();
        const reply = await signUp(`limited${n}`, "four-seats", nextIp(), limitsId);
        times.push(Math.round(performance.now() - started));
        assert.deepEqual(reply.body, { success: true, userId: `@limited${n}:limits.test` }, `sign-up ${n}`);
      }
      world.timings["4 sign-ups in a row, default rc_registration (each)"] = times;
      const tokenRow = (await limited.admin("GET", "/_synapse/admin/v1/registration_tokens/four-seats")).body;
      assert.deepEqual([tokenRow.pending, tokenRow.completed], [0, 4]);
    } finally {
      await limited.remove();
    }
  });
});
