import { HttpError } from "../../../lib/http-error.ts";

export interface VerificationCacheOptions {
  /**
   * How long an accepted header is trusted without running the KDF again, counted from its last use: a browser
   * that keeps using the hub is not sent back to the KDF (nor into a backoff someone else caused at its address).
   */
  ttlMs: number;
  /** How long a refused header is known wrong (10 min by default). */
  rejectTtlMs?: number;
  /** Accepted headers remembered at most (256). */
  maxEntries?: number;
  /** Refused headers remembered at most (1024). */
  maxRejected?: number;
  /** Distinct verifications running or waiting at once across all clients (64): the last-resort bound. */
  maxInFlight?: number;
  now?: () => number;
}

/**
 * Remembers recent verdicts on `Authorization` headers (by a hash, never the header itself) so the slow KDF runs
 * about once a minute per browser, not once per request, and a header already found wrong (a script with an old
 * password, a client repeating its guess) costs no KDF work and is no new guess. It also shares one verification
 * among concurrent requests carrying the same new header (a page load fires many at once) and caps how many
 * distinct verifications may be pending at all, so no flood can queue unbounded KDF work.
 */
export class VerificationCache {
  readonly #ttlMs: number;
  readonly #rejectTtlMs: number;
  readonly #maxEntries: number;
  readonly #maxRejected: number;
  readonly #maxInFlight: number;
  readonly #now: () => number;
  readonly #accepted = new Map<string, number>();
  readonly #rejected = new Map<string, number>();
  readonly #inFlight = new Map<string, Promise<boolean>>();
  /** Bumped by `clear()`, so a verification that was running across a credential change is not cached. */
  #generation = 0;

  constructor(options: VerificationCacheOptions) {
    this.#ttlMs = options.ttlMs;
    this.#rejectTtlMs = options.rejectTtlMs ?? 10 * 60_000;
    this.#maxEntries = options.maxEntries ?? 256;
    this.#maxRejected = options.maxRejected ?? 1024;
    this.#maxInFlight = options.maxInFlight ?? 64;
    this.#now = options.now ?? Date.now;
  }

  /** The remembered verdict for `key` (true accepted, false refused), or undefined when it must be verified. */
  verdict(key: string): boolean | undefined {
    if (this.#live(this.#accepted, key)) {
      this.#accepted.delete(key);
      this.#accepted.set(key, this.#now() + this.#ttlMs);
      return true;
    }
    if (this.#live(this.#rejected, key)) return false;
    return undefined;
  }

  /**
   * The verdict for `key`: remembered, or from `verify` (shared with any verification of the same key already
   * running). 429 when `maxInFlight` distinct verifications are already pending.
   */
  async check(key: string, verify: () => Promise<boolean>): Promise<boolean> {
    const known = this.verdict(key);
    if (known !== undefined) return known;
    const running = this.#inFlight.get(key);
    if (running) return running;
    if (this.#inFlight.size >= this.#maxInFlight) {
      throw new HttpError(429, "Too many authentication attempts; try again shortly", undefined, { "Retry-After": "1" });
    }
    const generation = this.#generation;
    const verdict = verify().finally(() => this.#inFlight.delete(key));
    this.#inFlight.set(key, verdict);
    const accepted = await verdict;
    // Credentials changed while this ran: the verdict was about the old ones, do not remember it.
    if (generation === this.#generation) {
      if (accepted) this.#remember(this.#accepted, key, this.#ttlMs, this.#maxEntries);
      else this.#remember(this.#rejected, key, this.#rejectTtlMs, this.#maxRejected);
    }
    return accepted;
  }

  /** Forgets every verdict (credentials changed or were removed). */
  clear(): void {
    this.#generation++;
    this.#accepted.clear();
    this.#rejected.clear();
    this.#inFlight.clear();
  }

  #live(map: Map<string, number>, key: string): boolean {
    const expires = map.get(key);
    if (expires === undefined) return false;
    if (expires > this.#now()) return true;
    map.delete(key);
    return false;
  }

  #remember(map: Map<string, number>, key: string, ttlMs: number, max: number): void {
    const now = this.#now();
    if (map.size >= max) {
      for (const [cached, expires] of map) if (expires <= now) map.delete(cached);
      // Still full of live entries: drop the oldest (Map keeps insertion order).
      const oldest = map.keys().next();
      if (map.size >= max && !oldest.done) map.delete(oldest.value);
    }
    map.set(key, now + ttlMs);
  }
}
