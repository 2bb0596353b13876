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
  /** Keys kept at most (they may be attacker-chosen, e.g. e-mails); the least recently failed go first beyond. */
  readonly maxKeys: number;
}

interface Failures {
  count: number;
  last: number;
  lockedUntil: number;
}

/**
 * Consecutive failures per key with an exponential, bounded lock: after `free` failures in a row the key is locked
 * for `firstLockMs`, then each further failure doubles the lock up to `maxLockMs`. Refused attempts (while locked)
 * are not failures. In memory, per process, like the other limits (docs/portal.md).
 */
export class FailureBackoff {
  /** Insertion order is recency order: a failure moves its key to the end. */
  private readonly keys = new Map<string, Failures>();

  constructor(
    readonly rule: BackoffRule,
    private readonly now: () => number,
  ) {}

  /** Milliseconds until `key` may try again; 0 when it may now. */
  wait(key: string): number {
    const entry = this.current(key, this.now());
    return entry ? Math.max(0, entry.lockedUntil - this.now()) : 0;
  }

  /** Counts a failure of `key`, locking it from the `free`-th on. */
  fail(key: string): void {
    const now = this.now();
    const count = (this.current(key, now)?.count ?? 0) + 1;
    const lockMs =
      count < this.rule.free ? 0 : Math.min(this.rule.maxLockMs, this.rule.firstLockMs * 2 ** (count - this.rule.free));
    this.keys.delete(key);
    this.keys.set(key, { count, last: now, lockedUntil: now + lockMs });
    this.trim(now);
  }

  /** Forgets `key`'s failures (a successful login). */
  reset(key: string): void {
    this.keys.delete(key);
  }

  /** Keys currently remembered (for tests of the memory bound). */
  get size(): number {
    return this.keys.size;
  }

  private current(key: string, now: number): Failures | undefined {
    const entry = this.keys.get(key);
    if (entry && now - entry.last >= this.rule.forgetMs && entry.lockedUntil <= now) {
      this.keys.delete(key);
      return undefined;
    }
    return entry;
  }

  /**
   * Beyond `maxKeys`: drops forgotten keys, then the least recently failed unlocked ones, and only then locked ones,
   * so that filling the memory with made-up keys does not easily lift the lock of the account under attack.
   */
  private trim(now: number): void {
    if (this.keys.size <= this.rule.maxKeys) return;
    for (const key of [...this.keys.keys()]) this.current(key, now);
    for (const evictLocked of [false, true]) {
      for (const [key, entry] of this.keys) {
        if (this.keys.size <= this.rule.maxKeys) return;
        if (evictLocked || entry.lockedUntil <= now) this.keys.delete(key);
      }
    }
  }
}
