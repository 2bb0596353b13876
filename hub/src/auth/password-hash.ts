import { createHash, randomBytes, scrypt, timingSafeEqual } from "node:crypto";

/** scrypt cost parameters; stored with every hash so they can be raised later without breaking old hashes. */
export interface ScryptParams {
  N: number;
  r: number;
  p: number;
}

/**
 * N=2^15, r=8: 32 MiB and roughly 0.1-0.5 s per hash on the hardware an add-on runs on. Slow enough to make an
 * offline guess at a stolen `auth.json` expensive, fast enough that a login (then cached) is not noticed.
 */
export const DEFAULT_SCRYPT: ScryptParams = { N: 2 ** 15, r: 8, p: 1 };

const KEY_BYTES = 32;
const SALT_BYTES = 16;
/** Bounds on parameters read back from a file: a tampered file must not make each login take minutes or gigabytes. */
const LIMITS = { minN: 2 ** 10, maxN: 2 ** 20, maxR: 32, maxP: 16 };
const FORMAT = /^scrypt\$(\d{1,8})\$(\d{1,3})\$(\d{1,3})\$([A-Za-z0-9_-]{16,128})\$([A-Za-z0-9_-]{22,128})$/;

interface ParsedHash extends ScryptParams {
  salt: Buffer;
  hash: Buffer;
}

function derive(password: string, salt: Buffer, params: ScryptParams, length: number): Promise<Buffer> {
  // The asynchronous scrypt runs on libuv's thread pool, off the event loop.
  return new Promise((resolve, reject) => {
    scrypt(password.normalize("NFC"), salt, length, { ...params, maxmem: 256 * params.N * params.r }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

function parseHash(stored: string): ParsedHash | undefined {
  const match = FORMAT.exec(stored);
  if (!match) return undefined;
  const [N, r, p] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const powerOfTwo = (N & (N - 1)) === 0;
  if (!powerOfTwo || N < LIMITS.minN || N > LIMITS.maxN || r < 1 || r > LIMITS.maxR || p < 1 || p > LIMITS.maxP) return undefined;
  return { N, r, p, salt: Buffer.from(match[4]!, "base64url"), hash: Buffer.from(match[5]!, "base64url") };
}

/** True when `stored` is a hash this module wrote (format and parameter bounds), whatever the password. */
export function isPasswordHash(stored: string): boolean {
  return parseHash(stored) !== undefined;
}

/** Hashes a password with a random salt: `scrypt$N$r$p$<salt>$<hash>` (base64url). */
export async function hashPassword(password: string, params: ScryptParams = DEFAULT_SCRYPT): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const hash = await derive(password, salt, params, KEY_BYTES);
  return `scrypt$${params.N}$${params.r}$${params.p}$${salt.toString("base64url")}$${hash.toString("base64url")}`;
}

/** Checks a password against a stored hash in constant time; a malformed hash never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseHash(stored);
  if (!parsed) return false;
  const candidate = await derive(password, parsed.salt, parsed, parsed.hash.length);
  return timingSafeEqual(candidate, parsed.hash);
}

/** SHA-256 digest: equal-length values for a constant-time comparison of strings of any length. */
export function digest(value: string): Buffer {
  return createHash("sha256").update(value, "utf8").digest();
}

/** Constant-time string equality (over digests, so lengths leak nothing either). */
export function safeEqual(a: string, b: string | Buffer): boolean {
  return timingSafeEqual(digest(a), typeof b === "string" ? digest(b) : b);
}
