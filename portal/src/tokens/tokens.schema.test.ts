import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import { tokenState } from "./token-state.ts";
import { CreateTokenBody, TokenString, UpdateTokenBody } from "./tokens.schema.ts";

const ok = (schema: v.GenericSchema, input: unknown) => v.safeParse(schema, input).success;

describe("registration token validators", () => {
  it("takes Synapse's token alphabet up to 64 characters, except the unmanageable name `new`", () => {
    assert.equal(ok(TokenString, "Az09._~-"), true);
    assert.equal(ok(TokenString, "x".repeat(64)), true);
    assert.equal(ok(TokenString, "x".repeat(65)), false);
    assert.equal(ok(TokenString, "a/b"), false);
    assert.equal(ok(TokenString, "é"), false);
    assert.equal(ok(TokenString, ""), false);
    assert.equal(ok(TokenString, "new"), false);
  });

  it("bounds creation fields", () => {
    const cases: [Record<string, unknown>, boolean][] = [
      [{}, true],
      [{ token: "" }, true],
      [{ token: "abc", uses_allowed: 5, expiry_time: 1_900_000_000_000, label: "l", note: "n" }, true],
      [{ length: 8 }, true],
      [{ length: 64 }, true],
      [{ length: 7 }, false],
      [{ length: 65 }, false],
      [{ length: 8.5 }, false],
      [{ uses_allowed: null }, true],
      [{ uses_allowed: 0 }, false],
      [{ uses_allowed: 1.5 }, false],
      [{ uses_allowed: "3" }, false],
      [{ expiry_time: 1.5 }, false],
      [{ expiry_time: -1 }, false],
      [{ label: "l".repeat(255) }, true],
      [{ label: "l".repeat(256) }, false],
      [{ note: "n".repeat(1000) }, true],
      [{ note: "n".repeat(1001) }, false],
      [{ pending: 3 }, false],
    ];
    for (const [body, expected] of cases) assert.equal(ok(CreateTokenBody, body), expected, JSON.stringify(body).slice(0, 60));
  });

  it("updates with at least one field", () => {
    assert.equal(ok(UpdateTokenBody, {}), false);
    assert.equal(ok(UpdateTokenBody, { label: null }), true);
    assert.equal(ok(UpdateTokenBody, { uses_allowed: null, expiry_time: null }), true);
    assert.equal(ok(UpdateTokenBody, { uses_allowed: 0 }), false);
  });
});

describe("the portal's token validity rule", () => {
  const base = { token: "t", uses_allowed: null, pending: 0, completed: 0, expiry_time: null };
  const now = 1_000_000;
  it("follows Synapse except that uses_allowed 0 and the local flag mean disabled", () => {
    assert.equal(tokenState(base, false, now), "valid");
    assert.equal(tokenState(base, true, now), "disabled");
    assert.equal(tokenState({ ...base, uses_allowed: 0 }, false, now), "disabled");
    assert.equal(tokenState({ ...base, expiry_time: now - 1 }, false, now), "expired");
    assert.equal(tokenState({ ...base, expiry_time: now }, false, now), "valid", "expiry == now is still valid, as in Synapse");
    assert.equal(tokenState({ ...base, uses_allowed: 2, pending: 1, completed: 1 }, false, now), "exhausted");
    assert.equal(tokenState({ ...base, uses_allowed: 2, pending: 1 }, false, now), "valid");
  });
});
