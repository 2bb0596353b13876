import { assistantsFromListEntry } from "./assistants.ts";

const same = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * The last answer of `homeassistant/expose_entity/list`: the voice assistants per entity id, for the entities whose
 * registry entry does not carry HA's setting (no entry, or an HA whose registry list has no `options`).
 */
export class ListedExposure {
  readonly #assistants = new Map<string, string[]>();

  /** The assistants the list names for the entity, sorted (empty when it names none). */
  get(entityId: string): string[] {
    return this.#assistants.get(entityId) ?? [];
  }

  /**
   * Takes a new answer (`{<entity_id>: {<assistant>: bool}}`) and returns the entities whose listed assistants
   * changed, among those `readsList` says take their exposure from the list.
   */
  replace(list: Record<string, unknown>, readsList: (entityId: string) => boolean): Set<string> {
    const next = new Map(Object.entries(list).map(([id, entry]) => [id, assistantsFromListEntry(entry)]));
    const affected = new Set<string>();
    for (const id of new Set([...this.#assistants.keys(), ...next.keys()])) {
      if (readsList(id) && !same(this.get(id), next.get(id) ?? [])) affected.add(id);
    }
    this.#assistants.clear();
    for (const [id, assistants] of next) if (assistants.length > 0) this.#assistants.set(id, assistants);
    return affected;
  }
}
