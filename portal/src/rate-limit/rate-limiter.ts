import { HttpError } from "../../../lib/http-error.ts";
import type { RateLimitRepository } from "./rate-limit.repository.ts";

/** `limit` actions per `windowMs`, per key. */
export interface RateLimitRule {
  readonly limit: number;
  readonly windowMs: number;
}

/**
 * A sliding-window-log limiter shared by every portal instance on the database (issue 24): each key has `limit` slots
 * (`rate_limit_slots`), each holding the time of one counted action, and a new action is refused while all of them
 * fall inside the window. Exact (no burst at window edges), small (at most `limit` rows per key), and atomic across
 * instances: an action counts only by taking a free slot in one statement, so racing requests cannot share one.
 * The same interface as the in-memory limiter it replaced, made asynchronous.
 */
export class RateLimiter {
  private nextSweep = 0;

  constructor(
    readonly rule: RateLimitRule,
    private readonly store: RateLimitRepository,
    /** Which limit this is in the shared table (`registration`, `login-device`…). */
    private readonly bucket: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** Milliseconds until `key` may act again; 0 when it may act now. Does not count anything. */
  async retryAfter(key: string): Promise<number> {
    const now = this.now();
    return this.waitOf(await this.live(key, now), now);
  }

  /** Counts one action for `key`, or returns the wait in ms (> 0) without counting when the key is over its limit. */
  async consume(key: string): Promise<number> {
    // A slot another instance took between our read and our claim is lost to us: read again (a few times at most).
    for (let round = 0; round < 3; round++) {
      const now = this.now();
      const live = await this.live(key, now);
      if (live.length >= this.rule.limit) return this.waitOf(live, now);
      const taken = new Set(live.map((slot) => slot.slot));
      for (let slot = 0; slot < this.rule.limit; slot++) {
        if (taken.has(slot)) continue;
        if (await this.store.claim(this.bucket, key, slot, "", now, now - this.rule.windowMs)) {
          await this.sweep(now);
          return 0;
        }
      }
    }
    return Math.max(1, await this.retryAfter(key));
  }

  /** Forgets `key`'s actions (e.g. the failed logins of a device after a successful one). */
  async reset(key: string): Promise<void> {
    await this.store.free(this.bucket, key);
  }

  private async live(key: string, now: number) {
    const cutoff = now - this.rule.windowMs;
    return (await this.store.slots(this.bucket, key)).filter((slot) => slot.at > cutoff && slot.slot < this.rule.limit);
  }

  private waitOf(live: { at: number }[], now: number): number {
    if (live.length < this.rule.limit) return 0;
    const oldest = Math.min(...live.map((slot) => slot.at));
    return Math.max(1, oldest + this.rule.windowMs - now);
  }

  /** Drops slots whose window has passed, at most once a window per instance, so the table follows the active keys. */
  private async sweep(now: number): Promise<void> {
    if (now < this.nextSweep) return;
    this.nextSweep = now + this.rule.windowMs;
    await this.store.sweepSlots(this.bucket, now - this.rule.windowMs);
  }
}

/** A 429 in the portal's error shape, with `Retry-After` in whole seconds. */
export function tooManyRequests(waitMs: number, message: string, code = "RATE_LIMITED"): HttpError {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return new HttpError(429, message.replace("{wait}", describeWait(seconds)), code, { "Retry-After": String(seconds) });
}

function describeWait(seconds: number): string {
  if (seconds < 90) return `${seconds} second${seconds === 1 ? "" : "s"}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minutes`;
}

/**
 * The portal's limits (docs/portal.md). Registration's is the spec's default; the others are the portal's choice.
 * Login has its own (login-limits.ts: per account with backoff, per address, per device cookie).
 */
export const RATE_LIMITS = {
  registration: { limit: 15, windowMs: 15 * 60_000 },
  tokenValidation: { limit: 30, windowMs: 15 * 60_000 },
  /** The sign-up page's live hint asks once per pause in typing; 60 leaves room for many tries. */
  usernameCheck: { limit: 60, windowMs: 15 * 60_000 },
} as const satisfies Record<string, RateLimitRule>;

/** One limiter per purpose, owned by the portal context; their counts are in the database, shared by every instance. */
export interface PortalLimiters {
  readonly registration: RateLimiter;
  readonly tokenValidation: RateLimiter;
  readonly usernameCheck: RateLimiter;
}

export function createLimiters(store: RateLimitRepository, now: () => number): PortalLimiters {
  return {
    registration: new RateLimiter(RATE_LIMITS.registration, store, "registration", now),
    tokenValidation: new RateLimiter(RATE_LIMITS.tokenValidation, store, "token-validation", now),
    usernameCheck: new RateLimiter(RATE_LIMITS.usernameCheck, store, "username-check", now),
  };
}
