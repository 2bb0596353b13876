import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { admin, call, createToken, FakeClock, simulator } from "./test-support.ts";
import { TOKEN_ALPHABET } from "./token-store.ts";

const TOKENS = "/_synapse/admin/v1/registration_tokens";

describe("registration-token admin API", { concurrency: true }, () => {
  it("refuses missing, malformed, unknown and non-admin tokens on every endpoint", async (t) => {
    const hs = await simulator(t);
    const alice = hs.createUser("alice");
    const endpoints: [string, string][] = [
      ["GET", TOKENS],
      ["POST", `${TOKENS}/new`],
      ["GET", `${TOKENS}/abc`],
      ["PUT", `${TOKENS}/abc`],
      ["DELETE", `${TOKENS}/abc`],
    ];
    for (const [method, path] of endpoints) {
      const missing = await call(hs, method, path, { body: {} });
      assert.deepEqual(
        [missing.status, missing.body.errcode, missing.body.error],
        [401, "M_MISSING_TOKEN", "Missing access token"],
      );
      const unknown = await call(hs, method, path, { body: {}, token: "syt_nope" });
      assert.deepEqual(unknown.body, { errcode: "M_UNKNOWN_TOKEN", error: "Invalid access token passed.", soft_logout: false });
      assert.equal(unknown.status, 401);
      const user = await call(hs, method, path, { body: {}, token: alice.accessToken });
      assert.deepEqual([user.status, user.body.errcode, user.body.error], [403, "M_FORBIDDEN", "You are not a server admin"]);
    }
    const basic = await call(hs, "GET", TOKENS, { headers: { Authorization: `Basic ${hs.adminToken}` } });
    assert.deepEqual(
      [basic.status, basic.body.errcode, basic.body.error],
      [401, "M_MISSING_TOKEN", "Invalid Authorization header."],
    );
    const query = await call(hs, "GET", `${TOKENS}?access_token=${hs.adminToken}`);
    assert.equal(query.status, 200);
    const both = await call(hs, "GET", `${TOKENS}?access_token=${hs.adminToken}`, { token: hs.adminToken });
    assert.equal(both.body.errcode, "M_MISSING_TOKEN");
  });

  it("creates tokens with defaults, every field, explicit nulls and the full character set", async (t) => {
    const clock = new FakeClock();
    const hs = await simulator(t, { now: clock.now });
    const empty = await createToken(hs, {});
    assert.match(String(empty.body.token), /^[A-Za-z0-9._~-]{16}$/);
    assert.deepEqual(
      { ...empty.body, token: "x" },
      { token: "x", uses_allowed: null, pending: 0, completed: 0, expiry_time: null },
    );
    const full = "A-Za-z0-9._~".padEnd(64, "x");
    const all = await createToken(hs, { token: full, uses_allowed: 3, expiry_time: clock.time + 1000, length: 3 });
    assert.deepEqual(all.body, { token: full, uses_allowed: 3, pending: 0, completed: 0, expiry_time: clock.time + 1000 });
    const nulls = await createToken(hs, { token: "nulls", uses_allowed: null, expiry_time: null });
    assert.deepEqual([nulls.body.uses_allowed, nulls.body.expiry_time], [null, null]);
    assert.equal((await createToken(hs, { length: 64 })).body.token?.toString().length, 64);
    assert.equal((await createToken(hs, { token: "zero", uses_allowed: 0 })).body.uses_allowed, 0);
    // expiry_time equal to now is not "in the past".
    assert.equal((await createToken(hs, { token: "now", expiry_time: clock.time })).body.expiry_time, clock.time);
  });

  it("rejects every invalid create body with 400 M_INVALID_PARAM and Synapse's message", async (t) => {
    const clock = new FakeClock();
    const hs = await simulator(t, { now: clock.now });
    await createToken(hs, { token: "taken" });
    const cases: [Record<string, unknown>, string][] = [
      [{ token: "x".repeat(65) }, "token must not be empty and must not be longer than 64 characters"],
      [{ token: "" }, "token must not be empty and must not be longer than 64 characters"],
      [{ token: "abc/def" }, "token must consist only of characters matched by the regex [A-Za-z0-9-_]"],
      [{ token: "ünï" }, "token must consist only of characters matched by the regex [A-Za-z0-9-_]"],
      [{ token: 123 }, "token must be a string"],
      [{ token: null }, "token must be a string"],
      [{ length: 0 }, "length must be greater than zero and not greater than 64"],
      [{ length: -5 }, "length must be greater than zero and not greater than 64"],
      [{ length: 65 }, "length must be greater than zero and not greater than 64"],
      [{ length: 8.5 }, "length must be an integer"],
      [{ length: "8" }, "length must be an integer"],
      [{ uses_allowed: -5 }, "uses_allowed must be a non-negative integer or null"],
      [{ uses_allowed: 1.5 }, "uses_allowed must be a non-negative integer or null"],
      [{ uses_allowed: true }, "uses_allowed must be a non-negative integer or null"],
      [{ uses_allowed: "3" }, "uses_allowed must be a non-negative integer or null"],
      [{ expiry_time: clock.time - 1 }, "expiry_time must not be in the past"],
      [{ expiry_time: 1.5 }, "expiry_time must be an integer or null"],
      [{ expiry_time: "tomorrow" }, "expiry_time must be an integer or null"],
      [{ token: "taken" }, "Token already exists: taken"],
    ];
    for (const [body, error] of cases) {
      const reply = await admin(hs, "POST", "/registration_tokens/new", body);
      assert.deepEqual([reply.status, reply.body], [400, { errcode: "M_INVALID_PARAM", error }], JSON.stringify(body));
    }
    const notJson = await call(hs, "POST", `${TOKENS}/new`, { token: hs.adminToken, raw: "{nope" });
    assert.deepEqual([notJson.status, notJson.body], [400, { errcode: "M_NOT_JSON", error: "Content not JSON." }]);
    const array = await call(hs, "POST", `${TOKENS}/new`, { token: hs.adminToken, raw: "[]" });
    assert.deepEqual([array.status, array.body.errcode], [400, "M_BAD_JSON"]);
    assert.equal(hs.tokens().length, 1);
  });

  it("answers 500 M_UNKNOWN when three random draws all collide", async (t) => {
    const hs = await simulator(t);
    for (const char of TOKEN_ALPHABET) await createToken(hs, { token: char });
    const reply = await admin(hs, "POST", "/registration_tokens/new", { length: 1 });
    assert.deepEqual([reply.status, reply.body.errcode], [500, "M_UNKNOWN"]);
    assert.match(String(reply.body.error), /Unable to generate a unique registration token/);
  });

  it("gets, updates and deletes, with 404 M_NOT_FOUND for unknown tokens", async (t) => {
    const clock = new FakeClock();
    const hs = await simulator(t, { now: clock.now });
    await createToken(hs, { token: "abcd", uses_allowed: 3 });
    assert.deepEqual((await admin(hs, "GET", "/registration_tokens/abcd")).body, {
      token: "abcd",
      uses_allowed: 3,
      pending: 0,
      completed: 0,
      expiry_time: null,
    });
    const missing = await admin(hs, "GET", "/registration_tokens/nope");
    assert.deepEqual(
      [missing.status, missing.body],
      [404, { errcode: "M_NOT_FOUND", error: "No such registration token: nope" }],
    );
    const put = (body: unknown, token = "abcd") => admin(hs, "PUT", `/registration_tokens/${token}`, body);
    assert.equal((await put({ uses_allowed: 0 })).body.uses_allowed, 0);
    assert.equal((await put({ uses_allowed: null })).body.uses_allowed, null);
    assert.equal((await put({ expiry_time: clock.time + 5000 })).body.expiry_time, clock.time + 5000);
    assert.deepEqual((await put({ uses_allowed: 7, expiry_time: null })).body, {
      token: "abcd",
      uses_allowed: 7,
      pending: 0,
      completed: 0,
      expiry_time: null,
    });
    assert.equal((await put({})).body.uses_allowed, 7);
    for (const body of [
      { uses_allowed: false },
      { uses_allowed: "1" },
      { expiry_time: false },
      { expiry_time: clock.time - 1 },
    ]) {
      assert.deepEqual([(await put(body)).status, (await put(body)).body.errcode], [400, "M_INVALID_PARAM"]);
    }
    // The body is validated before the token is looked up.
    assert.equal((await put({ uses_allowed: -1 }, "nope")).status, 400);
    assert.equal((await put({ uses_allowed: 1 }, "nope")).status, 404);
    assert.equal((await put({}, "nope")).status, 404);
    const deleted = await admin(hs, "DELETE", "/registration_tokens/abcd");
    assert.deepEqual([deleted.status, deleted.body], [200, {}]);
    const again = await admin(hs, "DELETE", "/registration_tokens/abcd");
    assert.deepEqual([again.status, again.body.errcode], [404, "M_NOT_FOUND"]);
  });

  it("lists with the SQL validity semantics of ?valid=", async (t) => {
    const clock = new FakeClock();
    const hs = await simulator(t, {
      now: clock.now,
      seed: {
        tokens: [
          { token: "unlimited" },
          { token: "one-unused", uses_allowed: 1 },
          { token: "expired", expiry_time: clock.time + 10 },
          { token: "used-up", uses_allowed: 2, pending: 1, completed: 1 },
          { token: "zero", uses_allowed: 0 },
        ],
      },
    });
    clock.advance(20);
    const names = async (query: string) => {
      const reply = await admin(hs, "GET", `/registration_tokens${query}`);
      assert.equal(reply.status, 200);
      return (reply.body.registration_tokens as { token: string }[]).map((token) => token.token);
    };
    assert.deepEqual(await names(""), ["unlimited", "one-unused", "expired", "used-up", "zero"]);
    assert.deepEqual(await names("?valid=true"), ["unlimited", "one-unused"]);
    // uses_allowed 0 is "used up" for the listing (0 <= 0), although registration treats it as unlimited.
    assert.deepEqual(await names("?valid=false"), ["expired", "used-up", "zero"]);
    const bad = await admin(hs, "GET", "/registration_tokens?valid=x");
    assert.deepEqual(
      [bad.status, bad.body],
      [400, { errcode: "M_INVALID_PARAM", error: "Boolean query parameter 'valid' must be one of ['true', 'false']" }],
    );
  });

  it("routes /registration_tokens/new before /<token>: a token named new cannot be managed (405)", async (t) => {
    const hs = await simulator(t);
    await createToken(hs, { token: "new" });
    for (const method of ["GET", "PUT", "DELETE"]) {
      const reply = await admin(hs, method, "/registration_tokens/new", {});
      assert.deepEqual([reply.status, reply.body], [405, { errcode: "M_UNRECOGNIZED", error: "Unrecognized request" }]);
    }
    assert.equal((await admin(hs, "POST", "/registration_tokens", {})).status, 405);
    assert.equal((await admin(hs, "GET", "/registration_tokens/a~b.c_d-e")).status, 404);
  });
});
