import assert from "node:assert/strict";
import type { LookupAddress } from "node:dns";
import type { LookupFunction } from "node:net";
import { describe, it } from "node:test";
import { isOutboundEntry, OutboundPolicy, OutboundRefused } from "./outbound-policy.ts";

/** A resolver with fixed answers, standing in for DNS. */
function fixedResolver(answers: Record<string, LookupAddress[]>): LookupFunction {
  return (hostname, options, callback) => {
    const found = answers[hostname] ?? [];
    if (options.all) return (callback as (e: null, a: LookupAddress[]) => void)(null, found);
    const first = found[0];
    if (!first) return callback(Object.assign(new Error("ENOTFOUND"), { code: "ENOTFOUND" }), "", 4);
    callback(null, first.address, first.family);
  };
}

function lookupWith(policy: OutboundPolicy, answers: Record<string, LookupAddress[]>, hostname: string, all: boolean) {
  return new Promise<{ error: Error | null; address: unknown }>((resolve) => {
    policy.lookup(fixedResolver(answers))(hostname, { all }, (error, address) => resolve({ error, address }));
  });
}

describe("OutboundPolicy", () => {
  it("refuses link-local and metadata addresses by default, in every spelling; keeps loopback and private", () => {
    const policy = new OutboundPolicy();
    for (const host of [
      "169.254.169.254",
      "169.254.1.1",
      "[fe80::1]",
      "fe80::abcd",
      "fd00:ec2::254",
      "100.100.100.200",
      "::ffff:169.254.169.254",
      "[::ffff:a9fe:a9fe]",
      "64:ff9b::169.254.169.254",
      "metadata.google.internal",
      "Metadata.Google.Internal.",
    ]) {
      assert.match(policy.refuseHost(host) ?? "", /link-local|metadata/, host);
    }
    for (const host of [
      "127.0.0.1",
      "[::1]",
      "10.0.0.1",
      "192.168.1.2",
      "172.16.0.1",
      "fd12::1",
      "100.64.0.1",
      "synapse",
      "matrix.example.org",
    ]) {
      assert.equal(policy.refuseHost(host), undefined, host);
    }
  });

  it("adds PORTAL_OUTBOUND_DENY entries: addresses, ranges, names and *.domain", () => {
    const policy = new OutboundPolicy({ allow: [], deny: ["10.0.0.0/8", "::1", "evil.example", "*.internal.example"] });
    assert.match(policy.refuseHost("10.9.9.9") ?? "", /PORTAL_OUTBOUND_DENY/);
    assert.match(policy.refuseHost("[::1]") ?? "", /PORTAL_OUTBOUND_DENY/);
    assert.match(policy.refuseHost("EVIL.example") ?? "", /PORTAL_OUTBOUND_DENY/);
    assert.match(policy.refuseHost("a.b.internal.example") ?? "", /PORTAL_OUTBOUND_DENY/);
    assert.equal(policy.refuseHost("internal.example"), undefined, "*.domain is for names below it");
    assert.equal(policy.refuseHost("11.0.0.1"), undefined);
  });

  it("with PORTAL_OUTBOUND_ALLOW calls only what it names; only an entry inside a built-in range lifts it", () => {
    const policy = new OutboundPolicy({ allow: ["10.0.0.0/8", "synapse.lan", "0.0.0.0/0", "169.254.7.0/24"], deny: [] });
    assert.equal(policy.refuseAddress("10.1.1.1", undefined), undefined);
    assert.equal(policy.refuseAddress("192.168.1.1", "synapse.lan"), undefined, "allowed by the name the URL used");
    assert.equal(policy.refuseAddress("169.254.7.9", undefined), undefined, "the operator's named exception");
    assert.match(policy.refuseAddress("169.254.169.254", undefined) ?? "", /refused by default/, "0.0.0.0/0 lifts nothing");
    const strict = new OutboundPolicy({ allow: ["10.0.0.0/8"], deny: ["10.6.6.6"] });
    assert.match(
      strict.refuseAddress("127.0.0.1", "localhost") ?? "",
      /localhost \(127\.0\.0\.1\) is not in PORTAL_OUTBOUND_ALLOW/,
    );
    assert.match(strict.refuseAddress("10.6.6.6", undefined) ?? "", /PORTAL_OUTBOUND_DENY/, "deny wins over allow");
  });

  it("checks every address a name resolves to, in the lookup the connection uses", async () => {
    const policy = new OutboundPolicy();
    const answers: Record<string, LookupAddress[]> = {
      "rebound.test": [{ address: "169.254.169.254", family: 4 }],
      "mixed.test": [
        { address: "127.0.0.1", family: 4 },
        { address: "fe80::1", family: 6 },
      ],
      "fine.test": [
        { address: "127.0.0.1", family: 4 },
        { address: "::1", family: 6 },
      ],
    };
    for (const all of [false, true]) {
      const rebound = await lookupWith(policy, answers, "rebound.test", all);
      assert.ok(rebound.error instanceof OutboundRefused);
      assert.match(rebound.error.message, /rebound\.test \(169\.254\.169\.254\) is a link-local/);
      const fine = await lookupWith(policy, answers, "fine.test", all);
      assert.equal(fine.error, null);
      assert.deepEqual(fine.address, all ? answers["fine.test"] : "127.0.0.1");
    }
    const mixed = await lookupWith(policy, answers, "mixed.test", true);
    assert.ok(mixed.error instanceof OutboundRefused, "one refused address refuses the name");
  });

  it("accepts as entries IP addresses, CIDR ranges, host names and *.domain only", () => {
    for (const entry of ["10.0.0.0/8", "::1", "fd00::/8", "169.254.7.7", "synapse", "matrix.example.org", "*.example.org"]) {
      assert.equal(isOutboundEntry(entry), true, entry);
    }
    for (const entry of ["10.0.0.0/33", "::/129", "http://x", "a b", "*", "*.", "10.0.0.0/8/1", "ex*ample.org", "-bad.example"]) {
      assert.equal(isOutboundEntry(entry), false, entry);
    }
  });
});
