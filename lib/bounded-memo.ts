/**
 * Answers worked out once and kept by key, for lookups that repeat on every request (a session cookie opened, a
 * proxy address checked, a compiled query). At most `max` are kept; past that the set starts afresh, which costs
 * one recomputation per key and bounds the memory a flood of distinct keys (chosen by a client) can take. An
 * `undefined` answer is never kept: a key that did not work out (a forged cookie) is worked out again each time.
 */
export class BoundedMemo<K, V> {
  readonly #kept = new Map<K, V>();

  constructor(private readonly max = 1_000) {}

  /** The kept answer for `key`, else what `compute` answers (kept unless `undefined`). */
  get(key: K, compute: (key: K) => V): V;
  get(key: K, compute: (key: K) => V | undefined): V | undefined;
  get(key: K, compute: (key: K) => V | undefined): V | undefined {
    if (this.#kept.has(key)) return this.#kept.get(key);
    const value = compute(key);
    if (value === undefined) return undefined;
    if (this.#kept.size >= this.max) this.#kept.clear();
    this.#kept.set(key, value);
    return value;
  }
}
