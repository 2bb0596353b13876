/**
 * Runs tasks one at a time per key (in this process), in arrival order. Sign-ups with the same registration
 * token are serialised so that the portal's own check of the token's remaining uses and the homeserver's
 * accounting cannot interleave.
 */
export class KeyedMutex {
  private readonly tails = new Map<string, Promise<unknown>>();

  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const current = previous.catch(() => undefined).then(task);
    this.tails.set(key, current);
    try {
      return await current;
    } finally {
      if (this.tails.get(key) === current) this.tails.delete(key);
    }
  }
}
