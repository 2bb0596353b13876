import type { LockSteps, RateLimitRepository } from "./rate-limit.repository.ts";

/** How failures of one key lock it, with a backoff that is bounded so that nobody is locked out for long. */
export interface BackoffRule {
  /** Failures in a row before the first lock (the lock starts with the `free`-th failure). */
  readonly free: number;
  /** The first lock; each further failure doubles it... */
  readonly firstLockMs: number;
  /** ...up to this. A flood can keep a key locked, but never for longer than this after it stops. */
  readonly maxLockMs: number;
  /** Failures are forgotten this long after the last one, and at `reset`. */
  readonly forgetMs: number;
}

/** The lock of each failure in a row: none before `free`, then `firstLockMs` doubling up to `maxLockMs`. */
export function lockSteps(rule: BackoffRule): LockSteps {
  const steps: number[] = [];
  for (let count = 1; ; count++) {
    const lock = count < rule.free ? 0 : Math.min(rule.maxLockMs, rule.firstLockMs * 2 ** (count - rule.free));
    if (lock >= rule.maxLockMs) return { steps, last: rule.maxLockMs };
    steps.push(lock);
  }
}

/**
 * Consecutive failures per key with an exponential, bounded lock: after `free` failures in a row the key is locked
 * for `firstLockMs`, then each further failure doubles the lock up to `maxLockMs`. Refused attempts (while locked)
 * are not failures. The counts are in the database (`rate_limit_failures`), shared by every portal instance, and
 * {@link failUnlessLocked} checks and counts in one statement, so parallel attempts on any instances cannot all
 * slip in before the lock (docs/portal.md, Rate limits).
 */
export class FailureBackoff {
  private readonly locks: LockSteps;
  private nextSweep = 0;

  constructor(
    readonly rule: BackoffRule,
    private readonly store: RateLimitRepository,
    private readonly bucket: string,
    private readonly now: () => number,
  ) {
    this.locks = lockSteps(rule);
  }

  /** Milliseconds until `key` may try again; 0 when it may now. */
  async wait(key: string): Promise<number> {
    const entry = await this.store.failures(this.bucket, key);
    return entry ? Math.max(0, entry.lockedUntil - this.now()) : 0;
  }

  /**
   * Counts a failure of `key` in advance of the check it stands for and returns 0, or, when the key is locked, counts
   * nothing and returns the wait in ms.
   */
  async failUnlessLocked(key: string): Promise<number> {
    const now = this.now();
    const counted = await this.store.failUnlessLocked(this.bucket, key, now, now - this.rule.forgetMs, this.locks);
    if (counted !== undefined) {
      await this.sweep(now);
      return 0;
    }
    return Math.max(1, await this.wait(key));
  }

  /** Forgets `key`'s failures (a successful login). */
  async reset(key: string): Promise<void> {
    await this.store.forget(this.bucket, key);
  }

  /** Drops keys forgotten and unlocked, at most once per `forgetMs` per instance (the keys may be made up). */
  private async sweep(now: number): Promise<void> {
    if (now < this.nextSweep) return;
    this.nextSweep = now + Math.min(this.rule.forgetMs, 60 * 60_000);
    await this.store.sweepFailures(this.bucket, now, now - this.rule.forgetMs);
  }
}
