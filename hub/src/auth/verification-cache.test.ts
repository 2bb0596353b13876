import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { HttpError } from "../../../lib/http-error.ts";
import { hashPassword, isPasswordHash, verifyPassword } from "./password-hash.ts";
import { VerificationCache } from "./verification-cache.ts";

describe("verification cache", () => {
  it("runs the verification once per key while accepted, and again after the TTL without use", async () => {
    let now = 1_000;
    const cache = new VerificationCache({ ttlMs: 60_000, now: () => now });
    let runs = 0;
    const verify = async () => {
      runs++;
      return true;
    };
    assert.equal(await cache.check("k", verify), true);
    assert.equal(await cache.check("k", verify), true);
    assert.equal(runs, 1);
    // Each use extends the trust: a header in use is never sent back to the KDF.
    now += 50_000;
    assert.equal(await cache.check("k", verify), true);
    now += 50_000;
    assert.equal(await cache.check("k", verify), true);
    assert.equal(runs, 1);
    now += 60_001;
    assert.equal(await cache.check("k", verify), true);
    assert.equal(runs, 2);
    cache.clear();
    await cache.check("k", verify);
    assert.equal(runs, 3);
  });

  it("remembers a rejection until it expires or credentials change, and shares one running verification", async () => {
    let now = 1_000;
    const cache = new VerificationCache({ ttlMs: 60_000, rejectTtlMs: 600_000, now: () => now });
    let runs = 0;
    const reject = async () => {
      runs++;
      return false;
    };
    assert.equal(await cache.check("bad", reject), false);
    assert.equal(await cache.check("bad", reject), false);
    assert.equal(cache.verdict("bad"), false);
    assert.equal(runs, 1, "a header already found wrong costs no second KDF run");
    now += 600_001;
    assert.equal(cache.verdict("bad"), undefined);
    assert.equal(await cache.check("bad", reject), false);
    cache.clear();
    assert.equal(cache.verdict("bad"), undefined, "new credentials: every header is checked again");
    assert.equal(runs, 2);

    let release!: (value: boolean) => void;
    let slowRuns = 0;
    const slow = () => {
      slowRuns++;
      return new Promise<boolean>((resolve) => {
        release = resolve;
      });
    };
    const verdicts = Promise.all([cache.check("page", slow), cache.check("page", slow), cache.check("page", slow)]);
    release(true);
    assert.deepEqual(await verdicts, [true, true, true]);
    assert.equal(slowRuns, 1);
  });

  it("refuses with 429 when too many distinct verifications are waiting", async () => {
    const cache = new VerificationCache({ ttlMs: 60_000, maxInFlight: 2 });
    const releases: ((value: boolean) => void)[] = [];
    const pending = () => new Promise<boolean>((resolve) => releases.push(resolve));
    const first = cache.check("a", pending);
    const second = cache.check("b", pending);
    await assert.rejects(cache.check("c", pending), (error: unknown) => error instanceof HttpError && error.status === 429);
    for (const release of releases) release(false);
    assert.deepEqual(await Promise.all([first, second]), [false, false]);
    assert.equal(await cache.check("c", async () => true), true);
  });

  it("drops the oldest accepted key when full", async () => {
    const cache = new VerificationCache({ ttlMs: 60_000, maxEntries: 2 });
    let runs = 0;
    const accept = async () => {
      runs++;
      return true;
    };
    for (const key of ["a", "b", "c", "a"]) await cache.check(key, accept);
    assert.equal(runs, 4);
    await cache.check("c", accept);
    assert.equal(runs, 4);
  });
});

describe("password hashes", () => {
  it("verifies the right password only, and rejects malformed or out-of-bounds hashes", async () => {
    const params = { N: 2 ** 12, r: 8, p: 1 };
    const hash = await hashPassword("correct horse", params);
    assert.ok(isPasswordHash(hash));
    assert.notEqual(hash, await hashPassword("correct horse", params), "random salt");
    assert.equal(await verifyPassword("correct horse", hash), true);
    assert.equal(await verifyPassword("correct hors", hash), false);
    assert.equal(await verifyPassword("correct horse", "correct horse"), false);
    const [, , r, p, salt, key] = hash.split("$");
    for (const tampered of [`scrypt$4194304$${r}$${p}$${salt}$${key}`, `scrypt$1000$${r}$${p}$${salt}$${key}`, `bcrypt$x`]) {
      assert.equal(isPasswordHash(tampered), false, tampered);
      assert.equal(await verifyPassword("correct horse", tampered), false);
    }
  });
});
