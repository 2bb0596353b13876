import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Hono } from "hono";
import { isAddressOrRange } from "../config.ts";
import { createOriginResolver, normalizeIp, type RequestOrigin } from "./client-ip.ts";

/** Resolves one request as if it came from `peer` over a socket (the env @hono/node-server provides). */
async function resolve(
  trusted: string[],
  peer: string,
  headers: Record<string, string> = {},
  url = "http://portal.test/x",
  originOf = createOriginResolver(trusted),
) {
  let seen: RequestOrigin | undefined;
  const app = new Hono().get("/x", (c) => {
    seen = originOf(c);
    return c.text("ok");
  });
  await app.request(url, { headers: { host: "portal.test", ...headers } }, { incoming: { socket: { remoteAddress: peer } } });
  assert.ok(seen);
  return seen;
}

describe("client IP and origin", () => {
  it("uses the socket address and ignores X-Forwarded-* from untrusted peers", async () => {
    const origin = await resolve([], "203.0.113.9", {
      "x-forwarded-for": "198.51.100.1",
      "x-forwarded-host": "evil.test",
      "x-forwarded-proto": "https",
    });
    assert.deepEqual(origin, { ip: "203.0.113.9", host: "portal.test", secure: false });
  });

  it("honours X-Forwarded-For from a trusted proxy, skipping trusted hops from the right", async () => {
    const origin = await resolve(["10.0.0.0/8", "127.0.0.1"], "::ffff:127.0.0.1", {
      "x-forwarded-for": "198.51.100.66, 198.51.100.1, 10.1.2.3",
      "x-forwarded-host": "Portal.Example.org",
      "x-forwarded-proto": "https",
    });
    assert.deepEqual(origin, { ip: "198.51.100.1", host: "portal.example.org", secure: true });
  });

  it("says a request over HTTPS is secure, and one over HTTP is not, without a proxy", async () => {
    assert.equal((await resolve([], "203.0.113.9", {}, "https://portal.test/x")).secure, true);
    assert.equal((await resolve([], "203.0.113.9", {}, "http://portal.test/x")).secure, false);
  });

  it("answers the same for a trusted address on every request (the answers it keeps)", async () => {
    const originOf = createOriginResolver(["10.0.0.0/8"]);
    for (let i = 0; i < 3; i++) {
      const origin = await resolve([], "10.1.2.3", { "x-forwarded-for": "198.51.100.1" }, undefined, originOf);
      assert.equal(origin.ip, "198.51.100.1");
      const direct = await resolve([], "198.51.100.1", { "x-forwarded-for": "10.9.9.9" }, undefined, originOf);
      assert.equal(direct.ip, "198.51.100.1", "an untrusted peer stays untrusted");
    }
  });

  it("stops at a malformed hop and keeps the last address it could trust", async () => {
    const origin = await resolve(["127.0.0.1"], "127.0.0.1", { "x-forwarded-for": "not-an-ip" });
    assert.equal(origin.ip, "127.0.0.1");
  });

  it("reports the first request with a forwarding header from an untrusted peer, once", async () => {
    const reports: string[] = [];
    const originOf = createOriginResolver(["10.0.0.0/8"], (peer, header) => reports.push(`${peer} ${header}`));
    const from = (peer: string, headers: Record<string, string> = {}) => resolve([], peer, headers, undefined, originOf);
    await from("203.0.113.9");
    await from("10.1.2.3", { "x-forwarded-for": "198.51.100.1" });
    assert.deepEqual(reports, [], "direct requests and trusted proxies are fine");
    const origin = await from("::ffff:192.0.2.7", { forwarded: "for=198.51.100.2" });
    assert.equal(origin.ip, "192.0.2.7", "the header is still ignored");
    await from("192.0.2.7", { "x-forwarded-for": "198.51.100.3" });
    await from("192.0.2.8", { "x-real-ip": "198.51.100.4" });
    assert.deepEqual(reports, ["192.0.2.7 forwarded"]);
  });

  it("normalises IPv4-mapped IPv6 addresses", () => {
    assert.equal(normalizeIp("::ffff:192.0.2.7"), "192.0.2.7");
    assert.equal(normalizeIp("2001:DB8::1"), "2001:db8::1");
  });

  it("accepts IP addresses and CIDR ranges in PORTAL_TRUSTED_PROXIES", () => {
    for (const good of ["127.0.0.1", "10.0.0.0/8", "::1", "fd00::/8", "172.30.32.2/32"])
      assert.equal(isAddressOrRange(good), true, good);
    for (const bad of ["", "localhost", "10.0.0.0/33", "::1/129", "1.2.3.4/8/1", "10.0.0.0/x"])
      assert.equal(isAddressOrRange(bad), false, bad);
  });
});
