import type { HassContext, HassEntity } from "../../../hub/src/home-assistant/types.ts";
import type { EventBus } from "./event-bus.ts";
import { jsonEqual } from "./json.ts";
import { type Clock, epochFromIso, isoFromEpoch, newContext } from "./time.ts";

/** What `get_states` and state events carry: HA's `State.as_dict()`, which includes `last_reported` since 2024.3. */
export type StateJson = HassEntity & { last_reported: string };

/** An immutable state like HA's `State`; a write replaces it (only `lastReported` is touched in place, as in HA). */
export class State {
  constructor(
    readonly entityId: string,
    readonly state: string,
    readonly attributes: Readonly<Record<string, unknown>>,
    /** Epoch seconds. */
    readonly lastChanged: number,
    readonly lastUpdated: number,
    public lastReported: number,
    readonly context: HassContext,
  ) {}

  get domain(): string {
    return this.entityId.slice(0, this.entityId.indexOf("."));
  }

  toJSON(): StateJson {
    const changed = isoFromEpoch(this.lastChanged);
    return {
      entity_id: this.entityId,
      state: this.state,
      attributes: this.attributes as StateJson["attributes"],
      last_changed: changed,
      last_reported: this.lastReported === this.lastChanged ? changed : isoFromEpoch(this.lastReported),
      last_updated: this.lastUpdated === this.lastChanged ? changed : isoFromEpoch(this.lastUpdated),
      context: { ...this.context },
    };
  }
}

// HA's `valid_entity_id`: lowercase domain and object id of [a-z0-9_], no leading/trailing/double underscores.
const ENTITY_ID = /^(?!.+__)(?!_)[\da-z_]+(?<!_)\.(?!_)[\da-z_]+(?<!_)$/;

export function isValidEntityId(entityId: string): boolean {
  return ENTITY_ID.test(entityId);
}

export interface StateMachine {
  get(entityId: string): State | undefined;
  all(): State[];
  /**
   * HA's `async_set`: no event when state and attributes are unchanged (only `state_reported`); `last_changed` moves
   * only when the state string changes. Fires `state_changed` and returns the stored state. `silent` (a test fault)
   * stores the change without any event, as if the client missed it; only `get_states` shows it.
   */
  set(
    entityId: string,
    state: string,
    attributes: Record<string, unknown>,
    context?: HassContext,
    options?: { silent?: boolean },
  ): State;
  /** Removes a state and fires `state_changed` with `new_state: null`; false when there was none. */
  remove(entityId: string, context?: HassContext): boolean;
}

export function createStateMachine(bus: EventBus, clock: Clock, initial: readonly HassEntity[]): StateMachine {
  const states = new Map<string, State>();
  for (const entity of initial) {
    const changed = epochFromIso(entity.last_changed);
    const updated = entity.last_updated ? epochFromIso(entity.last_updated) : changed;
    const reportedIso = (entity as Partial<StateJson>).last_reported;
    const reported = reportedIso ? epochFromIso(reportedIso) : updated;
    const context = entity.context ?? newContext(updated);
    states.set(
      entity.entity_id,
      new State(entity.entity_id, String(entity.state), { ...entity.attributes }, changed, updated, reported, { ...context }),
    );
  }

  return {
    get: (entityId) => states.get(entityId),
    all: () => [...states.values()],
    set(entityId, state, attributes, context, options = {}) {
      if (!isValidEntityId(entityId)) throw new Error(`Invalid entity id encountered: ${entityId}`);
      // HA's validate_state: states are limited to 255 characters.
      if (state.length > 255) throw new Error(`Invalid state with length ${state.length}. State max length is 255`);
      const now = clock.now();
      const old = states.get(entityId);
      const ctx = context ?? newContext(now);
      if (old && old.state === state && jsonEqual(old.attributes, attributes)) {
        const oldReported = old.lastReported;
        old.lastReported = now;
        bus.fire(
          "state_reported",
          { entity_id: entityId, old_last_reported: isoFromEpoch(oldReported), new_state: old },
          ctx,
          now,
        );
        return old;
      }
      const lastChanged = old && old.state === state ? old.lastChanged : now;
      const next = new State(entityId, state, { ...attributes }, lastChanged, now, now, { ...ctx });
      states.set(entityId, next);
      if (options.silent) return next;
      bus.fire("state_changed", { entity_id: entityId, old_state: old ?? null, new_state: next }, next.context, now);
      return next;
    },
    remove(entityId, context) {
      const old = states.get(entityId);
      if (!old) return false;
      states.delete(entityId);
      bus.fire("state_changed", { entity_id: entityId, old_state: old, new_state: null }, context);
      return true;
    },
  };
}
