import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { describe, it } from "node:test";
import { cutUtf8, hashedId } from "./matter-strings.ts";

const bytes = (text: string) => Buffer.byteLength(text, "utf8");

describe("Matter strings", () => {
  it("cuts to the byte limit without splitting a character", () => {
    assert.equal(cutUtf8("Kitchen", 32), "Kitchen");
    const umlauts = "Ölförderpumpe über dem Küchenschrank";
    const cut = cutUtf8(umlauts, 32);
    assert.ok(bytes(cut) <= 32);
    assert.ok(umlauts.startsWith(cut));
    assert.equal(cutUtf8("Küche Deckenlicht über dem Esstisch"), "Küche Deckenlicht über dem Ess", "32 bytes by default");
    const emoji = `${"a".repeat(30)}😀😀`;
    assert.equal(cutUtf8(emoji, 32), "a".repeat(30), "a 4-byte character that does not fit is dropped whole");
    assert.equal(bytes(cutUtf8("é".repeat(40), 64)), 64, "each caller keeps its limit");
  });

  it("keeps the space a cut leaves unless asked to drop it, and never trims a name that fits", () => {
    const spaced = `${"a".repeat(31)} b`;
    assert.equal(cutUtf8(spaced, 32), `${"a".repeat(31)} `, "device names as they always were");
    assert.equal(cutUtf8(spaced, 32, { trimEnd: true }), "a".repeat(31));
    assert.equal(cutUtf8("fits ", 32, { trimEnd: true }), "fits ");
  });

  it("hashes ids to the first 32 hex characters of their SHA-256", () => {
    const text = "matter-hub-bridge:b1";
    assert.equal(hashedId(text), createHash("sha256").update(text).digest("hex").slice(0, 32));
    assert.equal(hashedId(text), "8d93d3249ac0ccb6f309377f196cd1f8");
  });
});
