import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  admin,
  call,
  createToken,
  dummyStage,
  FakeClock,
  openSession,
  register,
  registerWithToken,
  simulator,
  tokenStage,
  tokenState,
} from "./test-support.ts";
import { SESSION_LIFETIME_MS, SWEEP_INTERVAL_MS } from "./uia-session.ts";

describe("registration token accounting", { concurrency: true }, () => {
  it("reserves a limited token for the session that passed the stage", async (t) => {
    const hs = await simulator(t);
    await createToken(hs, { token: "welcome", uses_allowed: 1 });
    const one = await openSession(hs, { username: "one", password: "pw", inhibit_login: true });
    const two = await openSession(hs, { username: "two", password: "pw", inhibit_login: true });
    assert.equal((await register(hs, tokenStage(one))).body.errcode, undefined);
    assert.equal((await register(hs, tokenStage(one))).body.errcode, undefined);
    assert.equal((await tokenState(hs, "welcome")).pending, 1);
    assert.equal((await register(hs, tokenStage(two))).body.errcode, "M_UNAUTHORIZED");
    assert.equal((await register(hs, dummyStage(one))).status, 200);
    assert.deepEqual(await tokenState(hs, "welcome"), {
      token: "welcome",
      uses_allowed: 1,
      pending: 0,
      completed: 1,
      expiry_time: null,
    });
    assert.equal((await register(hs, tokenStage(two))).body.errcode, "M_UNAUTHORIZED");
  });

  it("lets exactly one of two simultaneous registrations have a one-use token", async (t) => {
    const hs = await simulator(t);
    await createToken(hs, { token: "welcome", uses_allowed: 1 });
    const results = await Promise.all(["racer1", "racer2", "racer3"].map((name) => registerWithToken(hs, name, "welcome")));
    assert.equal(results.filter((reply) => reply.status === 200).length, 1);
    assert.equal(results.filter((reply) => reply.body.errcode === "M_UNAUTHORIZED").length, 2);
    assert.equal(hs.users().filter((user) => user.userId.startsWith("@racer")).length, 1);
    assert.deepEqual(await tokenState(hs, "welcome"), {
      token: "welcome",
      uses_allowed: 1,
      pending: 0,
      completed: 1,
      expiry_time: null,
    });
    const sameName = await Promise.all([1, 2].map(() => registerWithToken(hs, "twin", "welcome")));
    assert.ok(sameName.every((reply) => reply.status !== 200));
  });

  it("treats uses_allowed 0 as unlimited at registration time (Synapse quirk)", async (t) => {
    const hs = await simulator(t);
    await createToken(hs, { token: "zero", uses_allowed: 0 });
    for (const name of ["z1", "z2", "z3"]) assert.equal((await registerWithToken(hs, name, "zero")).status, 200);
    assert.deepEqual(await tokenState(hs, "zero"), {
      token: "zero",
      uses_allowed: 0,
      pending: 0,
      completed: 3,
      expiry_time: null,
    });
    const validity = await call(hs, "GET", "/_matrix/client/v1/register/m.login.registration_token/validity?token=zero");
    assert.deepEqual(validity.body, { valid: true });
    const invalid = await admin(hs, "GET", "/registration_tokens?valid=false");
    assert.deepEqual(
      (invalid.body.registration_tokens as { token: string }[]).map((token) => token.token),
      ["zero"],
    );
  });

  it("refuses an expired token, and the same session passes once the expiry is extended", async (t) => {
    const clock = new FakeClock();
    const hs = await simulator(t, { now: clock.now });
    await createToken(hs, { token: "welcome", expiry_time: clock.time + 1000 });
    const session = await openSession(hs, { username: "late", password: "pw", inhibit_login: true });
    clock.advance(1000);
    assert.equal((await register(hs, tokenStage(session))).body.errcode, undefined, "expiry_time == now is still valid");
    const other = await openSession(hs, { username: "later", password: "pw", inhibit_login: true });
    clock.advance(1);
    assert.equal((await register(hs, tokenStage(other))).body.errcode, "M_UNAUTHORIZED");
    await admin(hs, "PUT", "/registration_tokens/welcome", { expiry_time: clock.time + 60_000 });
    assert.equal((await register(hs, tokenStage(other))).body.errcode, undefined);
    assert.equal((await register(hs, dummyStage(other))).status, 200);
  });

  it("gives pending uses back when abandoned sessions expire after 48 h", async (t) => {
    const clock = new FakeClock();
    const hs = await simulator(t, { now: clock.now });
    await createToken(hs, { token: "welcome", uses_allowed: 2 });
    await createToken(hs, { token: "doomed" });
    const abandoned = await openSession(hs, { username: "gone", password: "pw", inhibit_login: true });
    const finished = await openSession(hs, { username: "stays", password: "pw", inhibit_login: true });
    const orphan = await openSession(hs, { username: "orphan", password: "pw", inhibit_login: true });
    await register(hs, tokenStage(abandoned));
    await register(hs, tokenStage(finished));
    await register(hs, dummyStage(finished));
    await register(hs, tokenStage(orphan, "doomed"));
    await admin(hs, "DELETE", "/registration_tokens/doomed");
    assert.deepEqual(await tokenState(hs, "welcome"), {
      token: "welcome",
      uses_allowed: 2,
      pending: 1,
      completed: 1,
      expiry_time: null,
    });

    clock.advance(SESSION_LIFETIME_MS - 1);
    assert.equal(hs.expireSessions(), 0);
    clock.advance(SWEEP_INTERVAL_MS);
    // The next request runs the 5-minute sweep; the deleted token's session is dropped without error.
    assert.deepEqual(await tokenState(hs, "welcome"), {
      token: "welcome",
      uses_allowed: 2,
      pending: 0,
      completed: 1,
      expiry_time: null,
    });
    const expired = await register(hs, dummyStage(abandoned));
    assert.deepEqual([expired.status, expired.body.error], [400, `Unknown session ID: ${abandoned}`]);
  });

  it("creates the account but answers 404 when the token was deleted mid-session; a replay then succeeds", async (t) => {
    const hs = await simulator(t);
    await createToken(hs, { token: "welcome" });
    const session = await openSession(hs, { username: "unlucky", password: "pw", inhibit_login: true });
    await register(hs, tokenStage(session));
    await admin(hs, "DELETE", "/registration_tokens/welcome");
    const failed = await register(hs, dummyStage(session));
    assert.deepEqual([failed.status, failed.body], [404, { errcode: "M_UNKNOWN", error: "No row found (registration_tokens)" }]);
    assert.ok(hs.users().some((user) => user.userId === "@unlucky:demo.local"));
    const replay = await register(hs, dummyStage(session));
    assert.deepEqual([replay.status, replay.body.user_id], [200, "@unlucky:demo.local"]);
  });

  it("rate-limits account creation per IP: 429 with retry_after_ms and Retry-After, then lets it pass", async (t) => {
    const clock = new FakeClock();
    const hs = await simulator(t, { now: clock.now, rateLimit: { perSecond: 0.17, burst: 3 } });
    await createToken(hs, { token: "welcome" });
    for (const name of ["r1", "r2", "r3"]) assert.equal((await registerWithToken(hs, name, "welcome")).status, 200);
    const limited = await register(hs, { username: "r4", password: "pw" });
    assert.equal(limited.status, 429);
    assert.deepEqual(limited.body, { errcode: "M_LIMIT_EXCEEDED", error: "Too Many Requests", retry_after_ms: 5882 });
    assert.equal(limited.headers.get("retry-after"), "6");
    // retry_after_ms is truncated (5882.35 → 5882): the header, rounded up, is what makes the retry pass.
    clock.advance(5882);
    assert.equal((await register(hs, { username: "r4", password: "pw" })).body.retry_after_ms, 0);
    clock.advance(6000 - 5882);
    assert.equal((await registerWithToken(hs, "r4", "welcome")).status, 200);
    hs.setRateLimit(false);
    assert.equal((await registerWithToken(hs, "r5", "welcome")).status, 200);
  });
});
