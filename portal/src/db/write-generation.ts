/**
 * Counts the writes to one table for the repositories that keep rows of it in memory: a repository that writes the
 * table calls {@link around} for the write, and a cache keeps what it read only if the count did not move meanwhile
 * (a write overlapping the read). Shared between repositories when more than one writes the same table.
 */
export class WriteGeneration {
  #count = 0;

  /** Moves on every start and end of a write. */
  get current(): number {
    return this.#count;
  }

  /** Runs `write`, moving the count before it (reads during it keep nothing) and after it. */
  async around<T>(write: () => Promise<T>): Promise<T> {
    this.#count++;
    try {
      return await write();
    } finally {
      this.#count++;
    }
  }
}

/**
 * Rows of one table kept in memory by key, valid while the table's {@link WriteGeneration} has not moved since they
 * were read: any write empties them, and a read that overlapped a write is not kept. At most `max` rows (past that
 * the set starts afresh: it only guards against a flood of distinct keys).
 */
export class KeptRows<V> {
  readonly #rows = new Map<string, V>();
  #at = -1;

  constructor(
    private readonly writes: WriteGeneration,
    private readonly max = 1_000,
  ) {}

  /** The kept row for `key`, if any. */
  get(key: string): V | undefined {
    this.#sync();
    return this.#rows.get(key);
  }

  /** Runs `read` and keeps what it found, unless a write began or ended while it ran. */
  async read(key: string, read: () => Promise<V | undefined>): Promise<V | undefined> {
    const generation = this.writes.current;
    const value = await read();
    if (value !== undefined && this.writes.current === generation) {
      this.#sync();
      if (this.#rows.size >= this.max) this.#rows.clear();
      this.#rows.set(key, value);
    }
    return value;
  }

  #sync(): void {
    if (this.#at === this.writes.current) return;
    this.#rows.clear();
    this.#at = this.writes.current;
  }
}
