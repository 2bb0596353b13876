import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  call,
  createToken,
  dummyStage,
  openSession,
  REGISTER,
  register,
  simulator,
  tokenStage,
  tokenState,
} from "./test-support.ts";

const FLOWS = [{ stages: ["m.login.registration_token", "m.login.dummy"] }];

describe("interactive-auth /register", { concurrency: true }, () => {
  it("runs the token flow: flows, completed growing, pending then completed, a logged-in account", async (t) => {
    const hs = await simulator(t);
    await createToken(hs, { token: "welcome", uses_allowed: 2 });
    const first = await register(hs, { username: "Alice", password: "correct horse", initial_device_display_name: "Phone" });
    assert.equal(first.status, 401);
    assert.deepEqual(first.body, { session: first.body.session, flows: FLOWS, params: {} });
    const session = String(first.body.session);

    const token = await register(hs, tokenStage(session));
    assert.deepEqual([token.status, token.body.completed, token.body.errcode], [401, ["m.login.registration_token"], undefined]);
    assert.deepEqual(await tokenState(hs, "welcome"), {
      token: "welcome",
      uses_allowed: 2,
      pending: 1,
      completed: 0,
      expiry_time: null,
    });

    const done = await register(hs, dummyStage(session));
    assert.equal(done.status, 200);
    assert.equal(done.body.user_id, "@alice:demo.local");
    assert.equal(done.body.home_server, "demo.local");
    assert.match(String(done.body.device_id), /^[A-Z]{10}$/);
    assert.match(String(done.body.access_token), /^syt_/);
    assert.deepEqual(await tokenState(hs, "welcome"), {
      token: "welcome",
      uses_allowed: 2,
      pending: 0,
      completed: 1,
      expiry_time: null,
    });
    const whoami = await call(hs, "GET", "/_matrix/client/v3/account/whoami", { token: String(done.body.access_token) });
    assert.deepEqual(whoami.body, { user_id: "@alice:demo.local", is_guest: false, device_id: done.body.device_id });
  });

  it("returns no access_token or device_id with inhibit_login, and replays the final request idempotently", async (t) => {
    const hs = await simulator(t);
    await createToken(hs, { token: "welcome" });
    const session = await openSession(hs, { username: "bob", password: "pw", inhibit_login: true });
    await register(hs, tokenStage(session));
    const done = await register(hs, dummyStage(session));
    assert.deepEqual([done.status, done.body], [200, { user_id: "@bob:demo.local", home_server: "demo.local" }]);
    const replay = await register(hs, dummyStage(session));
    assert.deepEqual([replay.status, replay.body], [200, done.body]);
    const withName = await register(hs, { username: "bob", inhibit_login: true, ...dummyStage(session) });
    assert.deepEqual(withName.body, done.body);
    assert.equal((await tokenState(hs, "welcome")).completed, 1);
    assert.equal(hs.users().filter((user) => user.userId === "@bob:demo.local").length, 1);
    const other = await register(hs, { username: "carol", ...dummyStage(session) });
    assert.deepEqual([other.status, other.body.error], [400, "A different user ID has already been registered for this session"]);
  });

  it("merges token stage errors into the 401 body and never counts a token twice", async (t) => {
    const hs = await simulator(t);
    await createToken(hs, { token: "welcome" });
    await createToken(hs, { token: "other" });
    const session = await openSession(hs, { username: "dave", password: "pw" });
    const expectations: [Record<string, unknown>, string, string][] = [
      [tokenStage(session, "wrong"), "M_UNAUTHORIZED", "Invalid registration token"],
      [{ auth: { type: "m.login.registration_token", session } }, "M_MISSING_PARAM", "Missing registration token"],
      [tokenStage(session, 42), "M_INVALID_PARAM", "Registration token must be a string"],
    ];
    for (const [body, errcode, error] of expectations) {
      const reply = await register(hs, body);
      assert.deepEqual([reply.status, reply.body], [401, { session, flows: FLOWS, params: {}, completed: [], errcode, error }]);
    }
    assert.equal((await register(hs, tokenStage(session))).body.errcode, undefined);
    assert.equal((await register(hs, tokenStage(session))).body.errcode, undefined);
    assert.equal((await tokenState(hs, "welcome")).pending, 1);
    const changed = await register(hs, tokenStage(session, "other"));
    assert.deepEqual([changed.body.errcode, changed.body.error], ["M_INVALID_PARAM", "Registration token has changed"]);
    assert.deepEqual(changed.body.completed, ["m.login.registration_token"]);
    assert.equal((await tokenState(hs, "other")).pending, 0);
  });

  it("does not enforce stage order", async (t) => {
    const hs = await simulator(t);
    await createToken(hs, { token: "welcome" });
    const session = await openSession(hs, { username: "erin", password: "pw", inhibit_login: true });
    assert.deepEqual((await register(hs, dummyStage(session))).body.completed, ["m.login.dummy"]);
    const done = await register(hs, tokenStage(session));
    assert.deepEqual([done.status, done.body.user_id], [200, "@erin:demo.local"]);
  });

  it("binds a session to its URI and method, and refuses unknown sessions", async (t) => {
    const hs = await simulator(t);
    await createToken(hs, { token: "welcome" });
    const session = await openSession(hs, { username: "frank", password: "pw" });
    const forbidden = { errcode: "M_UNKNOWN", error: "Requested operation has changed during the UI authentication session." };
    const r0 = await register(hs, tokenStage(session), "/_matrix/client/r0/register");
    assert.deepEqual([r0.status, r0.body], [403, forbidden]);
    const query = await register(hs, tokenStage(session), `${REGISTER}?kind=user`);
    assert.deepEqual([query.status, query.body], [403, forbidden]);
    assert.equal((await tokenState(hs, "welcome")).pending, 0);
    const r0Session = await openSession(hs, { username: "frank", password: "pw" }, "/_matrix/client/r0/register");
    assert.equal((await register(hs, tokenStage(r0Session), "/_matrix/client/r0/register")).body.errcode, undefined);
    const unknown = await register(hs, tokenStage("nope"));
    assert.deepEqual([unknown.status, unknown.body], [400, { errcode: "M_UNKNOWN", error: "Unknown session ID: nope" }]);
  });

  it("refuses an access token, disabled registration, guests and unknown kinds", async (t) => {
    const hs = await simulator(t);
    const withToken = await call(hs, "POST", REGISTER, { body: { username: "i" }, token: hs.adminToken });
    assert.deepEqual([withToken.status, withToken.body.errcode], [400, "M_UNKNOWN"]);
    assert.match(String(withToken.body.error), /An access token should not be provided/);
    const appservice = await call(hs, "POST", REGISTER, { body: { type: "m.login.application_service", username: "i" } });
    assert.equal(appservice.status, 400);
    const asToken = await call(hs, "POST", REGISTER, {
      body: { type: "m.login.application_service", username: "i" },
      token: "x",
    });
    assert.deepEqual([asToken.status, asToken.body.errcode], [401, "M_UNKNOWN_TOKEN"]);
    assert.deepEqual((await register(hs, {}, `${REGISTER}?kind=guest`)).body, {
      errcode: "M_UNKNOWN",
      error: "Guest access is disabled",
    });
    assert.equal((await register(hs, {}, `${REGISTER}?kind=bot`)).body.errcode, "M_UNRECOGNIZED");
    assert.equal((await call(hs, "POST", REGISTER, { raw: "not json" })).body.errcode, "M_NOT_JSON");
    const disabled = await simulator(t, { registrationEnabled: false });
    const reply = await register(disabled, { username: "i", password: "pw" });
    assert.deepEqual([reply.status, reply.body], [403, { errcode: "M_FORBIDDEN", error: "Registration has been disabled" }]);
  });

  it("offers only the dummy flow when no token is required, and numbers nameless accounts", async (t) => {
    const hs = await simulator(t, { registrationRequiresToken: false });
    const first = await register(hs, { password: "pw", inhibit_login: true });
    assert.deepEqual(first.body.flows, [{ stages: ["m.login.dummy"] }]);
    const done = await register(hs, dummyStage(String(first.body.session)));
    assert.deepEqual([done.status, done.body.user_id], [200, "@1:demo.local"]);
    const tokenType = await register(hs, { password: "pw", ...tokenStage(String(first.body.session)) });
    assert.deepEqual([tokenType.status, tokenType.body.errcode], [400, "M_INVALID_PARAM"]);
  });
});
