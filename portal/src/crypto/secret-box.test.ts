import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { SecretBox, SecretBoxError } from "./secret-box.ts";

const key = Buffer.alloc(32, 1);

describe("SecretBox", () => {
  it("seals into the v1 format and opens again", () => {
    const box = new SecretBox(key);
    const sealed = box.seal("syt_admin_token", "ctx");
    assert.match(sealed, /^v1:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]{22}:[A-Za-z0-9_-]+$/);
    assert.equal(sealed.includes("syt_admin_token"), false);
    assert.equal(box.open(sealed, "ctx"), "syt_admin_token");
  });

  it("uses a fresh IV for every seal", () => {
    const box = new SecretBox(key);
    assert.notEqual(box.seal("same", "ctx"), box.seal("same", "ctx"));
  });

  it("refuses another key, another context and any altered part", () => {
    const box = new SecretBox(key);
    const sealed = box.seal("secret", "managed-server:a:admin-token");
    assert.throws(() => new SecretBox(Buffer.alloc(32, 2)).open(sealed, "managed-server:a:admin-token"), SecretBoxError);
    assert.throws(() => box.open(sealed, "managed-server:b:admin-token"), SecretBoxError);
    const parts = sealed.split(":");
    for (const index of [1, 2, 3]) {
      const altered = [...parts];
      const part = altered[index] ?? "";
      // The first character: the last one of a base64url part may only carry padding bits.
      altered[index] = `${part.startsWith("A") ? "B" : "A"}${part.slice(1)}`;
      assert.throws(() => box.open(altered.join(":"), "managed-server:a:admin-token"), SecretBoxError);
    }
  });

  it("refuses unknown versions and malformed values with a clear error", () => {
    const box = new SecretBox(key);
    assert.throws(() => box.open("v2:a:b:c", "ctx"), /unsupported secret format "v2"/);
    assert.throws(() => box.open("v1:only-two", "ctx"), /malformed/);
    assert.throws(() => box.open("v1:!!:??:..", "ctx"), /malformed/);
    assert.throws(() => box.open("plaintext", "ctx"), SecretBoxError);
  });

  it("needs a 32-byte key and never shows it", () => {
    assert.throws(() => new SecretBox(Buffer.alloc(16)), /32-byte key/);
    const box = new SecretBox(key);
    assert.equal(JSON.stringify({ box }), '{"box":"[SecretBox]"}');
  });

  it("handles empty and non-ASCII plaintext", () => {
    const box = new SecretBox(key);
    assert.equal(box.open(box.seal("", "c"), "c"), "");
    assert.equal(box.open(box.seal("clé ✓ 🔑", "c"), "c"), "clé ✓ 🔑");
  });

  it("fingerprints a text by key and context: equal for equal texts, telling nothing without the key", () => {
    const box = new SecretBox(Buffer.alloc(32, 1));
    const fp = box.fingerprint("someone@example.test", "login-account");
    assert.match(fp, /^[A-Za-z0-9_-]{22}$/);
    assert.equal(box.fingerprint("someone@example.test", "login-account"), fp);
    assert.notEqual(box.fingerprint("someone@example.test", "login-audit"), fp, "another context");
    assert.notEqual(new SecretBox(Buffer.alloc(32, 2)).fingerprint("someone@example.test", "login-account"), fp);
  });
});
