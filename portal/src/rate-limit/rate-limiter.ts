import { HttpError } from "../../../lib/http-error.ts";

/** `limit` actions per `windowMs`, per key. */
export interface RateLimitRule {
  readonly limit: number;
  readonly windowMs: number;
}

/**
 * A sliding-window-log limiter in memory: each key keeps the times of its last `limit` actions, and a new action
 * is refused while `limit` of them fall inside the window. Exact (no burst at window edges) and small (at most
 * `limit` numbers per key). State is per process and lost on restart, which is acceptable for abuse throttling;
 * docs/portal.md says so.
 */
export class RateLimiter {
  private readonly hits = new Map<string, number[]>();
  private nextSweep = 0;

  constructor(
    readonly rule: RateLimitRule,
    private readonly now: () => number = Date.now,
  ) {}

  /** Milliseconds until `key` may act again; 0 when it may act now. Does not count anything. */
  retryAfter(key: string): number {
    const now = this.now();
    const times = this.recent(key, now);
    if (times.length < this.rule.limit) return 0;
    return Math.max(1, (times[0] ?? now) + this.rule.windowMs - now);
  }

  /** Counts one action for `key`, or returns the wait in ms (> 0) without counting when the key is over its limit. */
  consume(key: string): number {
    const wait = this.retryAfter(key);
    if (wait > 0) return wait;
    const now = this.now();
    const times = this.recent(key, now);
    times.push(now);
    this.hits.set(key, times);
    this.sweep(now);
    return 0;
  }

  /** Forgets `key`'s actions (e.g. the failed logins of an e-mail after a successful one). */
  reset(key: string): void {
    this.hits.delete(key);
  }

  private recent(key: string, now: number): number[] {
    const times = this.hits.get(key) ?? [];
    const cutoff = now - this.rule.windowMs;
    while (times.length > 0 && (times[0] ?? 0) <= cutoff) times.shift();
    return times;
  }

  /** Drops keys whose window has passed, at most once a window, so memory follows the active keys only. */
  private sweep(now: number): void {
    if (now < this.nextSweep) return;
    this.nextSweep = now + this.rule.windowMs;
    for (const key of [...this.hits.keys()]) if (this.recent(key, now).length === 0) this.hits.delete(key);
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

/** One limiter per purpose, owned by the portal context. */
export interface PortalLimiters {
  readonly registration: RateLimiter;
  readonly tokenValidation: RateLimiter;
  readonly usernameCheck: RateLimiter;
}

export function createLimiters(now: () => number): PortalLimiters {
  return {
    registration: new RateLimiter(RATE_LIMITS.registration, now),
    tokenValidation: new RateLimiter(RATE_LIMITS.tokenValidation, now),
    usernameCheck: new RateLimiter(RATE_LIMITS.usernameCheck, now),
  };
}
