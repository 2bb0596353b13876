import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { HomeserverResponse } from "../homeserver/homeserver-client.ts";
import { discoverAuth } from "./mas-diagnostics.ts";

const answer = (status: number, body: Record<string, unknown>): HomeserverResponse => ({
  status,
  body,
  json: true,
  retryAfterMs: undefined,
});
const none = answer(404, { errcode: "M_UNRECOGNIZED" });

describe("authentication discovery", () => {
  it("reads the issuer from auth_metadata first, then the unstable path, then the client well-known", () => {
    const stable = answer(200, { issuer: "https://auth.a/" });
    const unstable = answer(200, { issuer: "https://auth.b/" });
    assert.deepEqual(discoverAuth(stable, unstable, none), { issuer: "https://auth.a/", source: "auth_metadata" });
    assert.deepEqual(discoverAuth(none, unstable, none), { issuer: "https://auth.b/", source: "auth_metadata (unstable)" });
    for (const key of ["m.authentication", "org.matrix.msc2965.authentication"]) {
      const wellKnown = answer(200, { "m.homeserver": { base_url: "https://m/" }, [key]: { issuer: "https://auth.c/" } });
      assert.deepEqual(discoverAuth(none, none, wellKnown), { issuer: "https://auth.c/", source: "well-known" }, key);
    }
  });

  it("finds no issuer on a homeserver that authenticates itself or does not answer", () => {
    const plain = answer(200, { "m.homeserver": { base_url: "https://m/" } });
    assert.deepEqual(discoverAuth(none, none, plain), { issuer: null, source: null });
    assert.deepEqual(discoverAuth({ unreachable: "refused" }, { unreachable: "refused" }, { unreachable: "refused" }), {
      issuer: null,
      source: null,
    });
  });
});
