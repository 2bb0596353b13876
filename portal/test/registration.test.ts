import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { HomeserverSimulator } from "../../simulators/homeserver/index.ts";
import type { PortalClient } from "./support/portal-client.ts";
import {
  addServer,
  nextIp,
  startPortalWithHomeserver,
  startSimulator,
  stopPortalWithHomeserver,
  type TestPortal,
} from "./support/portal-harness.ts";

const PASSWORD = "correct horse battery";
const signUp = (username: string, token: string, extra: Record<string, unknown> = {}) => ({
  username,
  password: PASSWORD,
  confirmPassword: PASSWORD,
  token,
  ...extra,
});

describe("public registration", () => {
  let portal: TestPortal;
  let hs: HomeserverSimulator;
  let admin: PortalClient;
  let serverId: string;
  before(async () => {
    ({ portal, hs, admin, serverId } = await startPortalWithHomeserver({
      homeserver: {
        serverName: "reg.test",
        passwordPolicy: { minimumLength: 10 },
        exclusiveNamespaces: ["@bridge_.*"],
        seed: {
          tokens: [
            { token: "expired", expiry_time: Date.now() - 60_000 },
            { token: "used-up", uses_allowed: 1, completed: 1 },
            { token: "held", uses_allowed: 1, pending: 1 },
          ],
        },
      },
    }));
  });
  after(() => stopPortalWithHomeserver(portal, hs));

  const createToken = async (body: Record<string, unknown>) => {
    const reply = await admin.post(`/api/admin/tokens?serverId=${serverId}`, body);
    assert.equal(reply.status, 201, reply.text);
  };
  const tokenOnHs = (token: string) => hs.tokens().find((t) => t.token === token);
  const visitor = () => portal.client({ ip: nextIp() });
  const userIds = () => hs.users().map((u) => u.userId);

  it("registers through the UIA flow on the default server and counts the token use once", async () => {
    await createToken({ token: "welcome", uses_allowed: 10 });
    const reply = await visitor().post("/api/register", signUp("Alice", "welcome", { displayName: "Alice A." }));
    assert.equal(reply.status, 200, reply.text);
    assert.deepEqual(reply.body, { success: true, userId: "@alice:reg.test" });
    assert.ok(userIds().includes("@alice:reg.test"));
    assert.deepEqual(tokenOnHs("welcome"), { token: "welcome", uses_allowed: 10, pending: 0, completed: 1, expiry_time: null });
    const register = hs.requests().filter((r) => r.path === "/_matrix/client/v3/register");
    assert.deepEqual(
      register.slice(-3).map((r) => r.status),
      [401, 401, 200],
      "open session, token stage, dummy stage",
    );
    assert.ok(
      hs.requests().some((r) => r.method === "PUT" && r.path === "/_matrix/client/v3/profile/%40alice%3Areg.test/displayname"),
      "the display name is set with the admin token",
    );
    const explicit = await visitor().post("/api/register", signUp("bob", "welcome", { serverId }));
    assert.deepEqual(explicit.body, { success: true, userId: "@bob:reg.test" });
  });

  it("pre-validates username, password and confirmation without touching the homeserver", async () => {
    const before = hs.requests().length;
    const cases: [Record<string, unknown>, string][] = [
      [signUp("", "welcome"), "M_INVALID_USERNAME"],
      [signUp("bad name", "welcome"), "M_INVALID_USERNAME"],
      [signUp("x".repeat(256), "welcome"), "M_INVALID_USERNAME"],
      [signUp("_hidden", "welcome"), "M_INVALID_USERNAME"],
      [{ ...signUp("carol", "welcome"), password: "short", confirmPassword: "short" }, "M_PASSWORD_TOO_SHORT"],
      [{ ...signUp("carol", "welcome"), confirmPassword: "something else" }, "M_INVALID_PARAM"],
      [signUp("carol", ""), "M_MISSING_PARAM"],
      [{ ...signUp("carol", "welcome"), displayName: "d".repeat(256) }, "M_INVALID_PARAM"],
      [{ password: PASSWORD, confirmPassword: PASSWORD, token: "welcome" }, "M_MISSING_PARAM"],
      [signUp("u".repeat(250), "welcome"), "M_INVALID_USERNAME"],
    ];
    for (const [body, code] of cases) {
      const reply = await visitor().post("/api/register", body);
      assert.equal(reply.status, 400, JSON.stringify(body).slice(0, 60));
      assert.equal(reply.body.success, false);
      assert.equal(reply.body.errorCode, code, JSON.stringify(body).slice(0, 60));
      assert.equal(typeof reply.body.error, "string");
    }
    const notJson = await visitor().request("POST", "/api/register", { raw: "{oops" });
    assert.deepEqual(notJson.body, { success: false, error: "The request body is not JSON", errorCode: "M_NOT_JSON" });
    assert.equal(hs.requests().length, before, "no request reached the homeserver");
  });

  it("refuses unknown, expired, used-up and held tokens with M_UNAUTHORIZED, opening no UIA session", async () => {
    const registerCalls = () => hs.requests().filter((r) => r.path === "/_matrix/client/v3/register").length;
    const before = registerCalls();
    for (const [token, message] of [
      ["no-such-token", /not valid/],
      ["expired", /expired/],
      ["used-up", /no uses left/],
      ["held", /no uses left/],
      ["bad token!", /not valid/],
    ] as const) {
      const reply = await visitor().post("/api/register", signUp("dave", token));
      assert.equal(reply.status, 403, token);
      assert.equal(reply.body.errorCode, "M_UNAUTHORIZED");
      assert.match(reply.body.error, message);
    }
    assert.equal(registerCalls(), before);
    assert.equal(userIds().includes("@dave:reg.test"), false);
  });

  it("refuses tokens that are no plain path segment before any homeserver call (validate-token and sign-up)", async () => {
    const before = hs.requests().length;
    for (const token of [".", "..", "%2e%2e", "a/b", "../registration_tokens", "a?b", "a#b", "..%2f"]) {
      const check = await visitor().post("/api/register/validate-token", { token, serverId });
      assert.equal(check.status, 200, token);
      assert.deepEqual(check.body.valid, false, token);
      const reply = await visitor().post("/api/register", signUp("mallory", token));
      assert.equal(reply.status, 403, token);
      assert.equal(reply.body.errorCode, "M_UNAUTHORIZED");
    }
    assert.equal(hs.requests().length, before, "no call at all, so none with the admin token");
  });

  it("refuses a token disabled through the portal although Synapse would accept uses_allowed 0", async () => {
    await createToken({ token: "switched-off", uses_allowed: 5 });
    await admin.patch(`/api/admin/tokens/switched-off?serverId=${serverId}`);
    const synapse = await fetch(`${hs.url}/_matrix/client/v1/register/m.login.registration_token/validity?token=switched-off`);
    assert.deepEqual(await synapse.json(), { valid: true }, "Synapse: uses_allowed 0 is unlimited");
    const reply = await visitor().post("/api/register", signUp("erin", "switched-off"));
    assert.equal(reply.status, 403);
    assert.deepEqual(reply.body, {
      success: false,
      error: "This registration token has been disabled.",
      errorCode: "M_UNAUTHORIZED",
    });
    assert.equal(userIds().includes("@erin:reg.test"), false);
  });

  it("maps homeserver refusals to readable errors with their Matrix codes, leaving no use pending", async () => {
    await createToken({ token: "mapping", uses_allowed: 1 });
    const cases: [string, Record<string, unknown>, number, string, RegExp][] = [
      ["alice", {}, 400, "M_USER_IN_USE", /already taken/],
      ["bridge_fred", {}, 400, "M_EXCLUSIVE", /reserved/],
      ["fred", { password: "abcdefgh9", confirmPassword: "abcdefgh9" }, 400, "M_PASSWORD_TOO_SHORT", /too short for this server/],
    ];
    for (const [username, extra, status, code, message] of cases) {
      const reply = await visitor().post("/api/register", signUp(username, "mapping", extra));
      assert.equal(reply.status, status, reply.text);
      assert.equal(reply.body.success, false);
      assert.equal(reply.body.errorCode, code);
      assert.match(reply.body.error, message);
    }
    assert.deepEqual(tokenOnHs("mapping"), { token: "mapping", uses_allowed: 1, pending: 0, completed: 0, expiry_time: null });
    const ok = await visitor().post("/api/register", signUp("fred", "mapping"));
    assert.equal(ok.status, 200, "the one use is still there");
  });

  it("applies the server rules: unknown 404, disabled 403, closed 403, delegated auth and open flows refused", async () => {
    const unknown = await visitor().post("/api/register", signUp("gina", "welcome", { serverId: "nope" }));
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.errorCode, "M_NOT_FOUND");

    const other = await startSimulator({ serverName: "other.test" });
    const mas = await startSimulator({ serverName: "mas.test", delegatedAuth: true });
    const open = await startSimulator({
      serverName: "open.test",
      registrationRequiresToken: false,
      seed: { tokens: [{ token: "t" }] },
    });
    try {
      const disabled = await addServer(admin, other, { enable: false });
      const refused = await visitor().post("/api/register", signUp("gina", "welcome", { serverId: disabled.id }));
      assert.equal(refused.status, 403);
      assert.equal(refused.body.errorCode, "M_FORBIDDEN");

      const closed = await addServer(admin, other);
      await admin.put(`/api/admin/servers/${closed.id}`, { registrationMode: "closed" });
      const closedReply = await visitor().post("/api/register", signUp("gina", "welcome", { serverId: closed.id }));
      assert.equal(closedReply.status, 403);
      assert.match(closedReply.body.error, /closed/);
      const closedCheck = await visitor().post("/api/register/validate-token", { token: "welcome", serverId: closed.id });
      assert.equal(closedCheck.status, 403);

      const masServer = await addServer(admin, mas);
      const masReply = await visitor().post("/api/register", signUp("gina", "t", { serverId: masServer.id }));
      assert.equal(masReply.status, 403);
      assert.equal(masReply.body.errorCode, "M_FORBIDDEN");

      const openServer = await addServer(admin, open);
      const openReply = await visitor().post("/api/register", signUp("gina", "t", { serverId: openServer.id }));
      assert.equal(openReply.status, 503);
      assert.match(openReply.body.error, /not available/);
      assert.equal(open.users().length, 1, "only the simulator's admin: no token-less account was created");
    } finally {
      await Promise.all([other.close(), mas.close(), open.close()]);
    }
  });

  it("waits out the homeserver's rate limit inside the session, and reports it when too long", async () => {
    const limited = await startSimulator({ serverName: "slow.test", rateLimit: { perSecond: 2, burst: 1 } });
    try {
      const server = await addServer(admin, limited);
      await admin.post(`/api/admin/tokens?serverId=${server.id}`, { token: "busy", uses_allowed: 10 });
      const first = await visitor().post("/api/register", signUp("one", "busy", { serverId: server.id }));
      assert.equal(first.status, 200, first.text);
      const second = await visitor().post("/api/register", signUp("two", "busy", { serverId: server.id }));
      assert.equal(second.status, 200, second.text);
      assert.ok(
        limited.requests().some((r) => r.status === 429),
        "the homeserver did say 429 once",
      );

      limited.setRateLimit({ perSecond: 0.01, burst: 1 });
      const refused = await visitor().post("/api/register", signUp("three", "busy", { serverId: server.id }));
      assert.equal(refused.status, 429);
      assert.equal(refused.body.errorCode, "M_LIMIT_EXCEEDED");
      assert.ok(Number(refused.headers.get("retry-after")) > 10);
      const token = limited.tokens().find((t) => t.token === "busy");
      assert.equal(token?.pending, 0, "no use was left pending");
      assert.equal(token?.completed, 2);
    } finally {
      await limited.close();
    }
  });

  it("limits sign-ups to 15 per 15 minutes per client IP", async () => {
    const client = visitor();
    for (let i = 0; i < 15; i++) {
      const reply = await client.post("/api/register", signUp("", "welcome"));
      assert.equal(reply.status, 400);
    }
    const limited = await client.post("/api/register", signUp("henry", "welcome"));
    assert.equal(limited.status, 429);
    assert.equal(limited.body.success, false);
    assert.equal(limited.body.errorCode, "M_LIMIT_EXCEEDED");
    assert.match(limited.body.error, /Too many sign-up attempts/);
    assert.ok(Number(limited.headers.get("retry-after")) > 800);
    assert.equal(
      (await visitor().post("/api/register", signUp("henry", "welcome"))).status,
      200,
      "other addresses are not affected",
    );
  });

  it("creates exactly one account when concurrent sign-ups race for a one-use token", async () => {
    await createToken({ token: "last-seat", uses_allowed: 1 });
    const names = Array.from({ length: 8 }, (_, i) => `racer${i}`);
    const replies = await Promise.all(names.map((name) => visitor().post("/api/register", signUp(name, "last-seat"))));
    const winners = replies.filter((reply) => reply.status === 200);
    assert.equal(winners.length, 1, JSON.stringify(replies.map((r) => r.body)));
    for (const loser of replies.filter((reply) => reply.status !== 200)) {
      assert.equal(loser.status, 403);
      assert.equal(loser.body.errorCode, "M_UNAUTHORIZED");
    }
    const created = userIds().filter((id) => id.startsWith("@racer"));
    assert.deepEqual(created, [winners[0]?.body.userId]);
    assert.deepEqual(tokenOnHs("last-seat"), {
      token: "last-seat",
      uses_allowed: 1,
      pending: 0,
      completed: 1,
      expiry_time: null,
    });
  });

  it("reports the account Synapse made when the token is deleted during the sign-up (the completing stage fails after it)", async () => {
    // Synapse 1.163 (docs/INTEROP.md "The portal against Synapse"): the account is created, then using the deleted
    // token fails with 404 "No row found (registration_tokens)"; a replay in the session returns the user.
    await createToken({ token: "vanishing", uses_allowed: 3 });
    let registers = 0;
    const tokenStage = hs.holdResponses(
      (r) => r.method === "POST" && r.path === "/_matrix/client/v3/register" && ++registers === 2,
    );
    const reply = visitor().post("/api/register", signUp("dora", "vanishing"));
    while (tokenStage.held() === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const deleted = await fetch(`${hs.url}/_synapse/admin/v1/registration_tokens/vanishing`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${hs.adminToken}` },
    });
    assert.equal(deleted.status, 200);
    tokenStage.release();
    const answer = await reply;
    assert.ok(userIds().includes("@dora:reg.test"), "the homeserver made the account");
    assert.deepEqual([answer.status, answer.body], [200, { success: true, userId: "@dora:reg.test" }]);
  });
});
