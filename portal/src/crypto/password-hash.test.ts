import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DEFAULT_SCRYPT, hashPassword, needsRehash, verifyPassword } from "./password-hash.ts";

const CHEAP = { ln: 10, r: 8, p: 1 };

describe("password hashing (scrypt)", () => {
  it("stores the default parameters in the hash and verifies it", async () => {
    const stored = await hashPassword("correct horse battery staple");
    assert.match(stored, /^\$scrypt\$ln=15,r=8,p=3\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    assert.equal(await verifyPassword("correct horse battery staple", stored), true);
    assert.equal(await verifyPassword("correct horse battery stapler", stored), false);
    assert.equal(needsRehash(stored), false);
    assert.deepEqual(DEFAULT_SCRYPT, { ln: 15, r: 8, p: 3 });
  });

  it("salts every hash", async () => {
    assert.notEqual(await hashPassword("same", CHEAP), await hashPassword("same", CHEAP));
  });

  it("verifies with the parameters stored in the hash and flags old ones for re-hashing", async () => {
    const cheap = await hashPassword("pw-12345", CHEAP);
    assert.match(cheap, /^\$scrypt\$ln=10,r=8,p=1\$/);
    assert.equal(await verifyPassword("pw-12345", cheap), true);
    assert.equal(needsRehash(cheap), true);
    assert.equal(needsRehash(cheap, CHEAP), false);
  });

  it("treats Unicode compositions alike (NFC)", async () => {
    const stored = await hashPassword("caf\u00e9-pass", CHEAP);
    assert.equal(await verifyPassword("cafe\u0301-pass", stored), true);
  });

  it("refuses malformed hashes and absurd parameters instead of burning CPU", async () => {
    const good = await hashPassword("pw-12345", CHEAP);
    for (const bad of ["", "plain", good.replace("ln=10", "ln=30"), good.replace("p=1", "p=99"), good.slice(0, -5)]) {
      assert.equal(await verifyPassword("pw-12345", bad), false, bad);
      assert.equal(needsRehash(bad), true);
    }
  });
});
