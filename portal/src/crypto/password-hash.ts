import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from "node:crypto";

/** scrypt cost parameters, stored in every hash. */
export interface ScryptParams {
  /** log2 of N. */
  readonly ln: number;
  readonly r: number;
  readonly p: number;
}

/**
 * N = 2^15, r = 8, p = 3: one of OWASP's equivalent scrypt settings (32 MiB per hash), about 0.6 s on a slow
 * two-core box. Logins are rare and rate limited, so the cost is affordable and hurts offline guessing.
 */
export const DEFAULT_SCRYPT: ScryptParams = { ln: 15, r: 8, p: 3 };
const KEY_BYTES = 32;
const SALT_BYTES = 16;
/** Refuse stored parameters beyond these, so a tampered hash cannot make a login burn minutes of CPU or memory. */
const LIMITS = { ln: 20, r: 32, p: 16 };

function derive(password: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  const N = 2 ** params.ln;
  // scrypt needs 128 * N * r bytes; Node's default ceiling (32 MiB) is exactly what N = 2^15, r = 8 needs, so add room.
  const options: ScryptOptions = { N, r: params.r, p: params.p, maxmem: 256 * N * params.r + 1024 * 1024 };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize("NFC"), salt, KEY_BYTES, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

/**
 * Hashes a password with scrypt (async, off the event loop) into a self-describing string
 * `$scrypt$ln=15,r=8,p=1$<salt>$<hash>` (base64url), so that the cost can be raised later without breaking
 * stored hashes (see `needsRehash`).
 */
export async function hashPassword(password: string, params: ScryptParams = DEFAULT_SCRYPT): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, params);
  return `$scrypt$ln=${params.ln},r=${params.r},p=${params.p}$${salt.toString("base64url")}$${key.toString("base64url")}`;
}

function parse(stored: string): { params: ScryptParams; salt: Buffer; key: Buffer } | undefined {
  const match = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/.exec(stored);
  if (!match) return undefined;
  const params = { ln: Number(match[1]), r: Number(match[2]), p: Number(match[3]) };
  if (params.ln < 1 || params.ln > LIMITS.ln || params.r < 1 || params.r > LIMITS.r || params.p < 1 || params.p > LIMITS.p) {
    return undefined;
  }
  const key = Buffer.from(match[5] ?? "", "base64url");
  if (key.length !== KEY_BYTES) return undefined;
  return { params, salt: Buffer.from(match[4] ?? "", "base64url"), key };
}

/** True when `password` matches `stored`; false for a wrong password and for a malformed hash. Constant-time compare. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parse(stored);
  if (!parsed) return false;
  const key = await derive(password, parsed.salt, parsed.params);
  return timingSafeEqual(key, parsed.key);
}

/** True when `stored` was made with other parameters than `params` (re-hash it at the next successful login). */
export function needsRehash(stored: string, params: ScryptParams = DEFAULT_SCRYPT): boolean {
  const parsed = parse(stored);
  return !parsed || parsed.params.ln !== params.ln || parsed.params.r !== params.r || parsed.params.p !== params.p;
}
