import { HttpError } from "../../../lib/http-error.ts";

/**
 * Remembers recently accepted `Authorization` headers (by a hash, never the header itself) so the slow KDF runs
 * about once a minute per browser, not once per request. It also shares one verification among concurrent
 * requests carrying the same new header (a page load fires many at once) and caps how many distinct
 * verifications may wait, so a flood of random guesses cannot queue unbounded KDF work.
 */
export class VerificationCache {
  readonly #ttlMs: number;
  readonly #maxEntries: number;
  readonly #maxInFlight: number;
  readonly #now: () => number;
  readonly #accepted = new Map<string, number>();
  readonly #inFlight = new Map<string, Promise<boolean>>();
  /** Bumped by `clear()`, so a verification that was running across a credential change is not cached. */
  #generation = 0;

  constructor(options: { ttlMs: number; maxEntries?: number; maxInFlight?: number; now?: () => number }) {
    this.#ttlMs = options.ttlMs;
    this.#maxEntries = options.maxEntries ?? 256;
    this.#maxInFlight = options.maxInFlight ?? 16;
    this.#now = options.now ?? Date.now;
  }

  /**
   * The verdict for `key`: from the cache when it was accepted less than the TTL ago, else from `verify` (shared
   * with any verification of the same key already running). Only acceptances are cached.
   */
  async check(key: string, verify: () => Promise<boolean>): Promise<boolean> {
    const expires = this.#accepted.get(key);
    if (expires !== undefined) {
      if (expires > this.#now()) return true;
      this.#accepted.delete(key);
    }
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
    if (accepted && generation === this.#generation) this.#remember(key);
    return accepted;
  }

  /** Forgets every verdict (credentials changed or were removed). */
  clear(): void {
    this.#generation++;
    this.#accepted.clear();
    this.#inFlight.clear();
  }

  #remember(key: string): void {
    const now = this.#now();
    if (this.#accepted.size >= this.#maxEntries) {
      for (const [cached, expires] of this.#accepted) if (expires <= now) this.#accepted.delete(cached);
      // Still full of live entries: drop the oldest (Map keeps insertion order).
      const oldest = this.#accepted.keys().next();
      if (this.#accepted.size >= this.#maxEntries && !oldest.done) this.#accepted.delete(oldest.value);
    }
    this.#accepted.set(key, now + this.#ttlMs);
  }
}
