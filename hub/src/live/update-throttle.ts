/**
 * Per-key throttling with a leading and a trailing edge: the first change of a key goes out at once, further changes
 * within `windowMs` are folded into one trailing call at the end of the window. A single change is never delayed;
 * a burst (a bridge starting: starting → devices → running) costs at most one call per key per window.
 */
export class UpdateThrottle {
  readonly #lastRun = new Map<string, number>();
  readonly #pending = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly windowMs: number,
    private readonly run: (key: string) => void,
  ) {}

  /** Note that `key` changed. */
  touch(key: string): void {
    if (this.#pending.has(key)) return; // the trailing call will carry this change too
    const wait = (this.#lastRun.get(key) ?? Number.NEGATIVE_INFINITY) + this.windowMs - Date.now();
    if (wait <= 0) {
      this.#fire(key);
      return;
    }
    const timer = setTimeout(() => {
      this.#pending.delete(key);
      this.#fire(key);
    }, wait);
    timer.unref();
    this.#pending.set(key, timer);
  }

  /** Drops pending calls (e.g. a full list just went out and carries them); `keep` limits what is remembered. */
  reset(keep?: ReadonlySet<string>): void {
    for (const timer of this.#pending.values()) clearTimeout(timer);
    this.#pending.clear();
    if (keep) for (const key of this.#lastRun.keys()) if (!keep.has(key)) this.#lastRun.delete(key);
  }

  #fire(key: string): void {
    this.#lastRun.set(key, Date.now());
    this.run(key);
  }
}
