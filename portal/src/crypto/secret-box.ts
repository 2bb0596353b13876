import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from "node:crypto";

const VERSION = "v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Raised when a sealed value is malformed, of an unknown version, or fails authentication (wrong key, tampering). */
export class SecretBoxError extends Error {
  override name = "SecretBoxError";
}

/**
 * AES-256-GCM with the portal key, for secrets at rest (managed servers' admin tokens now; bot tokens and
 * integration secrets later) and for the session cookie.
 *
 * Format: `v1:<iv>:<tag>:<ciphertext>`, each part base64url without padding; a fresh 96-bit IV per seal. The
 * version prefix lets a later format (another cipher, a key id for rotation) coexist with stored v1 values.
 *
 * Every seal is bound to a `context` string through GCM's additional authenticated data, e.g.
 * `managed-server:<id>:admin-token`: a ciphertext copied to another row or used as a cookie does not open.
 */
export class SecretBox {
  readonly #key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error("SecretBox needs a 32-byte key");
    this.#key = Buffer.from(key);
  }

  seal(plaintext: string, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv("aes-256-gcm", this.#key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(context, "utf8"));
    const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
    return [VERSION, iv, cipher.getAuthTag(), ciphertext].map((part) => (typeof part === "string" ? part : b64(part))).join(":");
  }

  /** The plaintext of a value sealed with the same key and context, else a SecretBoxError. */
  open(sealed: string, context: string): string {
    const parts = sealed.split(":");
    if (parts[0] !== VERSION) throw new SecretBoxError(`unsupported secret format ${JSON.stringify(parts[0]?.slice(0, 8))}`);
    if (parts.length !== 4 || !parts.slice(1).every((part) => /^[A-Za-z0-9_-]*$/.test(part))) {
      throw new SecretBoxError("malformed sealed secret");
    }
    const [iv, tag, ciphertext] = parts.slice(1).map((part) => Buffer.from(part, "base64url")) as [Buffer, Buffer, Buffer];
    if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new SecretBoxError("malformed sealed secret");
    try {
      const decipher = createDecipheriv("aes-256-gcm", this.#key, iv, { authTagLength: TAG_BYTES });
      decipher.setAAD(Buffer.from(context, "utf8"));
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString("utf8");
    } catch {
      throw new SecretBoxError("the secret cannot be decrypted with this key (wrong key or altered value)");
    }
  }

  /**
   * A keyed fingerprint of `text` (HMAC-SHA-256 under a key derived from the portal key for `context`, 128 bits,
   * base64url): equal texts give equal fingerprints, and without the portal key nobody can tell which text made one
   * (not even by trying likely texts), so it can be stored where the text itself must not be.
   */
  fingerprint(text: string, context: string): string {
    const key = Buffer.from(hkdfSync("sha256", this.#key, Buffer.alloc(0), `portal-fingerprint:${context}`, 32));
    return createHmac("sha256", key).update(text, "utf8").digest().subarray(0, 16).toString("base64url");
  }

  /** Keeps the key out of `console.log`, `util.inspect` and JSON. */
  toJSON(): string {
    return "[SecretBox]";
  }
}

const b64 = (buffer: Buffer) => buffer.toString("base64url");
