import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import { CreateServerBody, ServerActionBody, UpdateServerBody } from "./servers.schema.ts";

const valid = {
  name: "Example",
  slug: "example-1",
  serverName: "example.org",
  internalUrl: "http://synapse:8008/",
  publicUrl: "https://matrix.example.org",
  adminToken: "syt_abc",
};

const ok = (schema: v.GenericSchema, input: unknown) => v.safeParse(schema, input).success;

describe("managed server validators", () => {
  it("accepts a minimal server, trims URLs' trailing slash and defaults optional fields to null", () => {
    const result = v.parse(CreateServerBody, valid);
    assert.equal(result.internalUrl, "http://synapse:8008");
    assert.equal(result.notes, null);
    assert.equal(result.publicDomain, null);
  });

  it("holds every field to its limit", () => {
    const cases: [string, unknown, boolean][] = [
      ["name", "x".repeat(200), true],
      ["name", "x".repeat(201), false],
      ["name", "   ", false],
      ["slug", "a".repeat(100), true],
      ["slug", "a".repeat(101), false],
      ["slug", "Upper", false],
      ["slug", "with space", false],
      ["serverName", `${"a".repeat(250)}.org`, true],
      ["serverName", "a".repeat(501), false],
      ["serverName", "example.org:8448", true],
      ["serverName", "[::1]:8448", true],
      ["serverName", "exa mple.org", false],
      ["internalUrl", "ftp://x", false],
      ["internalUrl", "not a url", false],
      ["internalUrl", "https://user:pw@x.org", false],
      ["publicUrl", "https://x.org/?q=1", false],
      ["adminToken", "t".repeat(10000), true],
      ["adminToken", "t".repeat(10001), false],
      ["adminToken", "with space", false],
      ["adminToken", "", false],
      ["notes", "n".repeat(5000), true],
      ["notes", "n".repeat(5001), false],
      ["notes", null, true],
      ["publicDomain", "join.example.org", true],
      ["publicDomain", `${"d".repeat(63)}.${"d".repeat(63)}.${"d".repeat(63)}.${"d".repeat(61)}`, true],
      ["publicDomain", "d".repeat(501), false],
      ["publicDomain", "bad_domain", false],
      ["routePrefix", "/join", true],
      ["routePrefix", "/org/team", true],
      ["routePrefix", `/${"p".repeat(99)}`, true],
      ["routePrefix", `/${"p".repeat(100)}`, false],
      ["routePrefix", "join", false],
      ["routePrefix", "/join/", false],
      ["routePrefix", "/../x", false],
      ["brandingProfileId", "b".repeat(101), false],
    ];
    for (const [field, value, expected] of cases) {
      assert.equal(ok(CreateServerBody, { ...valid, [field]: value }), expected, `${field}=${String(value).slice(0, 30)}`);
    }
  });

  it("requires the create fields and refuses unknown ones", () => {
    for (const field of Object.keys(valid)) {
      const { [field as keyof typeof valid]: _, ...rest } = valid;
      assert.equal(ok(CreateServerBody, rest), false, field);
    }
    assert.equal(ok(CreateServerBody, { ...valid, status: "active" }), false);
  });

  it("updates any subset, clears with null, and refuses the admin token and empty bodies", () => {
    assert.equal(ok(UpdateServerBody, { notes: null, publicDomain: null }), true);
    assert.equal(ok(UpdateServerBody, { registrationMode: "closed", managedMode: "guided" }), true);
    assert.equal(ok(UpdateServerBody, { registrationMode: "open" }), false);
    assert.equal(ok(UpdateServerBody, { name: null }), false);
    assert.equal(ok(UpdateServerBody, {}), false);
    const refused = v.safeParse(UpdateServerBody, { adminToken: "x" });
    assert.equal(refused.success, false);
    assert.match(refused.issues?.[0]?.message ?? "", /rotate_token/);
  });

  it("knows the PATCH actions", () => {
    for (const action of ["enable", "disable", "set_default", "diagnostics"])
      assert.equal(ok(ServerActionBody, { action }), true);
    assert.equal(ok(ServerActionBody, { action: "rotate_token", adminToken: "new" }), true);
    assert.equal(ok(ServerActionBody, { action: "rotate_token" }), false);
    assert.equal(ok(ServerActionBody, { action: "explode" }), false);
    assert.equal(ok(ServerActionBody, { action: "enable", extra: 1 }), false);
  });
});
