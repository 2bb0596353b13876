import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createToken, dummyStage, openSession, register, simulator, tokenStage, tokenState } from "./test-support.ts";

describe("registration username and password rules", { concurrency: true }, () => {
  it("applies the username rules before UIA, lower-casing first", async (t) => {
    const hs = await simulator(t, { exclusiveNamespaces: ["@telegram_.*:demo\\.local"] });
    hs.createUser("taken");
    const invalid = "User ID can only contain characters a-z, 0-9, or '=_-./+'";
    const cases: [unknown, number, string, string][] = [
      ["é", 400, "M_INVALID_USERNAME", invalid],
      ["a:b", 400, "M_INVALID_USERNAME", invalid],
      ["@a", 400, "M_INVALID_USERNAME", invalid],
      ["a b", 400, "M_INVALID_USERNAME", invalid],
      ["", 400, "M_INVALID_USERNAME", "User ID cannot be empty"],
      ["_x", 400, "M_INVALID_USERNAME", "User ID may not begin with _"],
      ["1234", 400, "M_INVALID_USERNAME", "Numeric user IDs are reserved for guest users."],
      ["a".repeat(244), 400, "M_INVALID_USERNAME", "User ID may not be longer than 255 characters"],
      ["TAKEN", 400, "M_USER_IN_USE", "User ID already taken."],
      ["telegram_123", 400, "M_EXCLUSIVE", "This user ID is reserved by an application service."],
      [777, 400, "M_UNKNOWN", "Invalid username"],
      ["a".repeat(513), 400, "M_UNKNOWN", "Invalid username"],
    ];
    for (const [username, status, errcode, error] of cases) {
      const reply = await register(hs, { username, password: "pw" });
      assert.deepEqual([reply.status, reply.body], [status, { errcode, error }], String(username).slice(0, 20));
    }
    assert.equal((await register(hs, { username: "a".repeat(243), password: "pw" })).status, 401);
    assert.equal((await register(hs, { username: "q3._=-/+", password: "pw" })).status, 401);
  });

  it("lets a session retry with another name when the first was taken between stages", async (t) => {
    const hs = await simulator(t);
    await createToken(hs, { token: "welcome", uses_allowed: 1 });
    const session = await openSession(hs, { username: "gina", password: "pw", inhibit_login: true });
    await register(hs, tokenStage(session));
    hs.createUser("gina");
    const clash = await register(hs, dummyStage(session));
    assert.deepEqual([clash.status, clash.body.errcode], [400, "M_USER_IN_USE"]);
    const retry = await register(hs, { username: "gina2", inhibit_login: true, ...dummyStage(session) });
    assert.deepEqual([retry.status, retry.body.user_id], [200, "@gina2:demo.local"]);
    assert.deepEqual(await tokenState(hs, "welcome"), {
      token: "welcome",
      uses_allowed: 1,
      pending: 0,
      completed: 1,
      expiry_time: null,
    });
  });

  it("checks passwords: type, the optional policy codes, and a password somewhere in the session", async (t) => {
    const off = await simulator(t);
    assert.equal((await register(off, { username: "h", password: "a" })).status, 401);
    const hs = await simulator(t, {
      passwordPolicy: {
        minimumLength: 8,
        requireDigit: true,
        requireSymbol: true,
        requireUppercase: true,
        requireLowercase: true,
      },
    });
    const cases: [unknown, string, string][] = [
      ["Ab1!", "M_PASSWORD_TOO_SHORT", "The password must be at least 8 characters long"],
      ["Abcdefg!", "M_PASSWORD_NO_DIGIT", "The password must include at least one digit"],
      ["Abcdefg1", "M_PASSWORD_NO_SYMBOL", "The password must include at least one symbol"],
      ["abcdef1!", "M_PASSWORD_NO_UPPERCASE", "The password must include at least one uppercase letter"],
      ["ABCDEF1!", "M_PASSWORD_NO_LOWERCASE", "The password must include at least one lowercase letter"],
      [666, "M_UNKNOWN", "Invalid password"],
    ];
    for (const [password, errcode, error] of cases) {
      const reply = await register(hs, { username: "henry", password });
      assert.deepEqual([reply.status, reply.body], [400, { errcode, error }]);
    }
    await createToken(hs, { token: "welcome" });
    const session = await openSession(hs, { username: "henry" });
    await register(hs, tokenStage(session));
    const noPassword = await register(hs, dummyStage(session));
    assert.deepEqual(
      [noPassword.status, noPassword.body],
      [400, { errcode: "M_MISSING_PARAM", error: "Missing params: password" }],
    );
    const withPassword = await register(hs, { username: "henry", password: "Abcdef1!", ...dummyStage(session) });
    assert.equal(withPassword.status, 200);
  });
});
