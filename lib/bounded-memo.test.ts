import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { BoundedMemo } from "./bounded-memo.ts";

// Its first use: session cookies opened once (portal/src/auth/auth.service.ts); a cookie that does not open is a
// forged one.
describe("BoundedMemo", () => {
  const opener = () => {
    const calls: string[] = [];
    const open = (cookie: string): { exp: number; idHash: string } | undefined => {
      calls.push(cookie);
      return cookie.startsWith("good") ? { exp: 1_000, idHash: `hash-of-${cookie}` } : undefined;
    };
    return { calls, open };
  };

  it("opens a cookie once and answers the same payload after that", () => {
    const { calls, open } = opener();
    const memo = new BoundedMemo<string, { exp: number; idHash: string }>();
    const cookies = { get: (cookie: string) => memo.get(cookie, open) };
    assert.deepEqual(cookies.get("good-1"), { exp: 1_000, idHash: "hash-of-good-1" });
    assert.deepEqual(cookies.get("good-1"), { exp: 1_000, idHash: "hash-of-good-1" });
    assert.deepEqual(calls, ["good-1"]);
  });

  it("keeps nothing for a cookie that does not open: each try costs its decryption", () => {
    const { calls, open } = opener();
    const memo = new BoundedMemo<string, { exp: number; idHash: string }>();
    const cookies = { get: (cookie: string) => memo.get(cookie, open) };
    assert.equal(cookies.get("forged"), undefined);
    assert.equal(cookies.get("forged"), undefined);
    assert.deepEqual(calls, ["forged", "forged"]);
  });

  it("starts afresh past its bound, and still answers every cookie right", () => {
    const { calls, open } = opener();
    const memo = new BoundedMemo<string, { exp: number; idHash: string }>(2);
    const cookies = { get: (cookie: string) => memo.get(cookie, open) };
    cookies.get("good-1");
    cookies.get("good-2");
    cookies.get("good-3"); // full: the set starts again with this one
    assert.equal(cookies.get("good-3")?.idHash, "hash-of-good-3");
    assert.equal(cookies.get("good-1")?.idHash, "hash-of-good-1");
    assert.deepEqual(calls, ["good-1", "good-2", "good-3", "good-1"]);
  });

  it("keeps a false answer too (only undefined is worked out again)", () => {
    let checks = 0;
    const memo = new BoundedMemo<string, boolean>();
    const trusted = (ip: string) =>
      memo.get(ip, () => {
        checks++;
        return false;
      });
    assert.equal(trusted("198.51.100.1"), false);
    assert.equal(trusted("198.51.100.1"), false);
    assert.equal(checks, 1);
  });
});
