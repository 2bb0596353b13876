import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DEFAULT_REGISTRATION_RATE_LIMIT } from "./options.ts";
import { admin, call, createToken, FakeClock, openSession, register, simulator } from "./test-support.ts";

const WHOAMI = "/_matrix/client/v3/account/whoami";
const VALIDITY = "/_matrix/client/v1/register/m.login.registration_token/validity";
const AVAILABLE = "/_matrix/client/v3/register/available";

describe("account, discovery and server behaviour", { concurrency: true }, () => {
  it("answers whoami for valid tokens and the Synapse auth errors otherwise", async (t) => {
    const hs = await simulator(t, { seed: { users: [{ localpart: "bot", accessToken: "bot-token" }] } });
    const me = await call(hs, "GET", WHOAMI, { token: hs.adminToken });
    assert.deepEqual(me.body, { user_id: "@admin:demo.local", is_guest: false, device_id: me.body.device_id });
    assert.equal(
      (await call(hs, "GET", "/_matrix/client/r0/account/whoami?access_token=bot-token")).body.user_id,
      "@bot:demo.local",
    );
    assert.equal((await call(hs, "GET", WHOAMI)).body.errcode, "M_MISSING_TOKEN");
    const unknown = await call(hs, "GET", WHOAMI, { token: "nope" });
    assert.deepEqual([unknown.status, unknown.body.errcode, unknown.body.soft_logout], [401, "M_UNKNOWN_TOKEN", false]);
  });

  it("serves versions, server_version and health, and 404/405/400 like Synapse for the rest", async (t) => {
    const hs = await simulator(t, { serverVersion: "1.157.1" });
    const versions = await call(hs, "GET", "/_matrix/client/versions");
    assert.ok((versions.body.versions as string[]).includes("v1.2"));
    assert.match(String(versions.headers.get("cache-control")), /max-age=600/);
    assert.equal((await call(hs, "GET", "/_matrix/client/versions", { token: "bad" })).status, 401);
    assert.deepEqual((await call(hs, "GET", "/_synapse/admin/v1/server_version")).body, { server_version: "1.157.1" });
    assert.deepEqual((await call(hs, "GET", "/health")).body, { text: "OK" });
    const unknown = await call(hs, "GET", "/_matrix/client/v3/nothing");
    assert.deepEqual([unknown.status, unknown.body], [404, { errcode: "M_UNRECOGNIZED", error: "Unrecognized request" }]);
    const metadata = await call(hs, "GET", "/_matrix/client/v1/auth_metadata");
    assert.deepEqual([metadata.status, metadata.body.errcode], [404, "M_UNRECOGNIZED"]);
    assert.equal((await call(hs, "DELETE", "/_matrix/client/versions")).status, 405);
    assert.equal((await call(hs, "GET", "/_matrix/client/v3/register")).status, 405);
    const preflight = await call(hs, "OPTIONS", "/_matrix/client/v3/register");
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get("access-control-allow-origin"), "*");
    assert.deepEqual(hs.requests().slice(0, 2), [
      { method: "GET", path: "/_matrix/client/versions", status: 200 },
      { method: "GET", path: "/_matrix/client/versions", status: 401 },
    ]);
  });

  it("checks username availability with the username rules, without lower-casing", async (t) => {
    const hs = await simulator(t, { exclusiveNamespaces: ["@irc_"] });
    hs.createUser("taken");
    const check = async (username: string) =>
      (await call(hs, "GET", `${AVAILABLE}?username=${encodeURIComponent(username)}`)).body;
    assert.deepEqual(await check("free"), { available: true });
    assert.equal((await check("taken")).errcode, "M_USER_IN_USE");
    assert.equal((await check("Taken")).errcode, "M_INVALID_USERNAME");
    assert.equal((await check("irc_joe")).errcode, "M_EXCLUSIVE");
    assert.deepEqual(await check("é"), { errcode: "M_UNKNOWN", error: "Query parameter 'username' must be ascii" });
    const missing = await call(hs, "GET", AVAILABLE);
    assert.deepEqual(missing.body, { errcode: "M_MISSING_PARAM", error: "Missing string query parameter 'username'" });
    assert.deepEqual((await admin(hs, "GET", "/username_available?username=taken")).body.errcode, "M_USER_IN_USE");
    assert.deepEqual((await admin(hs, "GET", "/username_available?username=free")).body, { available: true });
    const closed = await simulator(t, { registrationEnabled: false });
    assert.deepEqual((await call(closed, "GET", `${AVAILABLE}?username=x`)).body.errcode, "M_FORBIDDEN");
    assert.deepEqual((await admin(closed, "GET", "/username_available?username=x")).body, { available: true });
  });

  it("delays bursts of availability checks and refuses the one that finds two already waiting", async (t) => {
    const hs = await simulator(t, { rateLimit: DEFAULT_REGISTRATION_RATE_LIMIT });
    const started = performance.now();
    const replies = await Promise.all(["a1", "a2", "a3", "a4"].map((name) => call(hs, "GET", `${AVAILABLE}?username=${name}`)));
    const limited = replies.filter((reply) => reply.status === 429);
    assert.equal(limited.length, 1);
    assert.deepEqual(limited[0]?.body, { errcode: "M_LIMIT_EXCEEDED", error: "Too Many Requests", retry_after_ms: 2000 });
    assert.equal(limited[0]?.headers.get("retry-after"), "2");
    assert.ok(performance.now() - started >= 900, "the second and third checks were delayed by about a second");
  });

  it("answers token validity without consuming, counting pending uses, rate limited like Synapse", async (t) => {
    const clock = new FakeClock();
    const hs = await simulator(t, { now: clock.now, rateLimit: DEFAULT_REGISTRATION_RATE_LIMIT });
    await createToken(hs, { token: "welcome", uses_allowed: 1 });
    const valid = async (token: string) => (await call(hs, "GET", `${VALIDITY}?token=${token}`)).body;
    assert.deepEqual(await valid("welcome"), { valid: true });
    assert.deepEqual(await valid("unknown"), { valid: false });
    const session = await openSession(hs, { username: "v", password: "pw" });
    await register(hs, { auth: { type: "m.login.registration_token", token: "welcome", session } });
    assert.deepEqual(await valid("welcome"), { valid: false }, "the pending use fills the token");
    assert.deepEqual((await call(hs, "GET", VALIDITY)).body.errcode, "M_MISSING_PARAM");
    assert.equal((await call(hs, "GET", `${VALIDITY}?token=x`)).status, 200, "the fifth call is the last of the burst");
    const limited = await call(hs, "GET", `${VALIDITY}?token=welcome`);
    assert.deepEqual([limited.status, limited.body.retry_after_ms], [429, 10_000]);
    assert.equal(limited.headers.get("retry-after"), "10");
    clock.advance(10_000);
    assert.equal(
      (await call(hs, "GET", `/_matrix/client/unstable/register/m.login.registration_token/validity?token=x`)).status,
      200,
    );
    assert.equal((await call(hs, "GET", `/_matrix/client/v3/register/m.login.registration_token/validity?token=x`)).status, 404);
    const closed = await simulator(t, { registrationEnabled: false });
    assert.equal((await call(closed, "GET", `${VALIDITY}?token=x`)).status, 403);
  });
});
