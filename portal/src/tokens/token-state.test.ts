import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { masTokenState } from "./token-state.ts";

describe("the portal's verdict on MAS tokens", () => {
  const now = Date.UTC(2026, 0, 1);
  const base = { revoked_at: null, expiry_time: null, uses_allowed: null, completed: 0 };
  it("maps revoked to disabled and applies MAS's own boundaries", () => {
    assert.equal(masTokenState(base, now), "valid");
    assert.equal(masTokenState({ ...base, revoked_at: now - 1, expiry_time: now - 1 }, now), "disabled", "revoked first");
    assert.equal(masTokenState({ ...base, expiry_time: now }, now), "expired", "MAS: now >= expires_at");
    assert.equal(masTokenState({ ...base, expiry_time: now + 1 }, now), "valid");
    assert.equal(masTokenState({ ...base, uses_allowed: 2, completed: 2 }, now), "exhausted");
    assert.equal(masTokenState({ ...base, uses_allowed: 0 }, now), "exhausted", "MAS accepts a limit of 0: never usable");
  });
});
