/**
 * Which exposed endpoints carry which companion entities (composition.ts), kept while the endpoints exist: the
 * carrier hears of its companions' HA states, and a companion that goes away (removed, renamed) names the carriers
 * to plan again. Per companion, never per home.
 */
import type { HomeAssistantModel } from "../../home-assistant/ha-model.ts";
import type { CompanionRole, Companions, EntitySnapshot } from "../model/contract.ts";
import type { CompanionIds } from "./composition.ts";

export class CompanionLinks {
  readonly #model: HomeAssistantModel;
  readonly #snapshot: (entityId: string) => EntitySnapshot;
  /** Companion entity id → the exposed entities whose endpoints carry it. */
  readonly #carriers = new Map<string, Set<string>>();

  constructor(model: HomeAssistantModel, snapshot: (entityId: string) => EntitySnapshot) {
    this.#model = model;
    this.#snapshot = snapshot;
  }

  /** The exposed entities whose endpoints carry `entityId`. */
  carriersOf(entityId: string): ReadonlySet<string> {
    return this.#carriers.get(entityId) ?? new Set();
  }

  /** The companions' current snapshots, for the endpoint's facets. */
  snapshots(ids: CompanionIds): Companions {
    const companions: Companions = {};
    for (const [role, id] of entries(ids)) companions[role] = this.#snapshot(id);
    return companions;
  }

  /**
   * Records that `carrierId`'s endpoint carries `ids` and calls `changed` on each companion's HA state change;
   * returns what undoes both.
   */
  link(carrierId: string, ids: CompanionIds, changed: (companionId: string, role: CompanionRole) => void): () => void {
    const offs: (() => void)[] = [];
    for (const [role, id] of entries(ids)) {
      offs.push(this.#model.onEntity(id, () => changed(id, role)));
      const carriers = this.#carriers.get(id) ?? new Set<string>();
      this.#carriers.set(id, carriers.add(carrierId));
    }
    return () => {
      for (const off of offs) off();
      for (const id of Object.values(ids)) {
        const carriers = this.#carriers.get(id);
        carriers?.delete(carrierId);
        if (carriers?.size === 0) this.#carriers.delete(id);
      }
    };
  }
}

function entries(ids: CompanionIds): [CompanionRole, string][] {
  return Object.entries(ids) as [CompanionRole, string][];
}
