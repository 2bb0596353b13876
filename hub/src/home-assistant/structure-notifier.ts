/** Structural change: these entities appeared, disappeared, or changed registry data (name, area, labels…). */
export type StructureListener = (entityIds: ReadonlySet<string>) => void;

/** Held-back ids are let through after this long even while a hold lasts (see {@link StructureNotifier.hold}). */
const MAX_HOLD_MS = 2000;

/**
 * The model's structural notifications: listeners get the set of affected entity ids, and a burst can be held back
 * so that listeners hear of it once.
 */
export class StructureNotifier {
  readonly #listeners = new Set<StructureListener>();
  #holds = 0;
  readonly #held = new Set<string>();
  #heldSince = 0;

  listen(listener: StructureListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Holds notifications back until the returned release runs; holds count, and the last release notifies once
   * with every id held back. Ids held longer than 2 s go out with the next notification anyway, so overlapping
   * holds never starve listeners.
   */
  hold(): () => void {
    this.#holds++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#holds--;
      if (this.#holds === 0 && this.#held.size > 0) this.#notify(this.#takeHeld());
    };
  }

  emit(entityIds: ReadonlySet<string>): void {
    if (entityIds.size === 0) return;
    if (this.#holds === 0) {
      this.#notify(entityIds);
      return;
    }
    if (this.#held.size === 0) this.#heldSince = Date.now();
    for (const id of entityIds) this.#held.add(id);
    if (Date.now() - this.#heldSince >= MAX_HOLD_MS) this.#notify(this.#takeHeld());
  }

  #takeHeld(): Set<string> {
    const ids = new Set(this.#held);
    this.#held.clear();
    return ids;
  }

  #notify(entityIds: ReadonlySet<string>): void {
    for (const listener of [...this.#listeners]) listener(entityIds);
  }
}
