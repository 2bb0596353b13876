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
