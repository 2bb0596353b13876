import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type OpenedCookie, OpenedCookies } from "./opened-cookies.ts";

describe("OpenedCookies", () => {
  const opener = () => {
    const calls: string[] = [];
    const open = (cookie: string): OpenedCookie | undefined => {
      calls.push(cookie);
      return cookie.startsWith("good") ? { exp: 1_000, idHash: `hash-of-${cookie}` } : undefined;
    };
    return { calls, open };
  };

  it("opens a cookie once and answers the same payload after that", () => {
    const { calls, open } = opener();
    const cookies = new OpenedCookies(open);
    assert.deepEqual(cookies.get("good-1"), { exp: 1_000, idHash: "hash-of-good-1" });
    assert.deepEqual(cookies.get("good-1"), { exp: 1_000, idHash: "hash-of-good-1" });
    assert.deepEqual(calls, ["good-1"]);
  });

  it("keeps nothing for a cookie that does not open: each try costs its decryption", () => {
    const { calls, open } = opener();
    const cookies = new OpenedCookies(open);
    assert.equal(cookies.get("forged"), undefined);
    assert.equal(cookies.get("forged"), undefined);
    assert.deepEqual(calls, ["forged", "forged"]);
  });

  it("starts afresh past its bound, and still answers every cookie right", () => {
    const { calls, open } = opener();
    const cookies = new OpenedCookies(open, 2);
    cookies.get("good-1");
    cookies.get("good-2");
    cookies.get("good-3"); // full: the set starts again with this one
    assert.equal(cookies.get("good-3")?.idHash, "hash-of-good-3");
    assert.equal(cookies.get("good-1")?.idHash, "hash-of-good-1");
    assert.deepEqual(calls, ["good-1", "good-2", "good-3", "good-1"]);
  });
});
