/**
 * `subscribe_entities` payloads, following HA core's `State.as_compressed_state` and `_state_diff` in
 * websocket_api/messages.py: `a` adds (full compressed states), `c` changes (`+` additions, `-` removed attribute
 * keys), `r` removals.
 */
import type { HassContext } from "../../../hub/src/home-assistant/types.ts";
import type { BusEvent } from "./event-bus.ts";
import { jsonEqual } from "./json.ts";
import type { State } from "./state-machine.ts";

export interface CompressedState {
  s: string;
  a: Readonly<Record<string, unknown>>;
  /** The context id alone when it has no parent and no user, else the whole context. */
  c: string | HassContext;
  lc: number;
  /** Only when last_updated differs from last_changed. */
  lu?: number;
}

export interface StateDiff {
  "+": { s?: string; a?: Record<string, unknown>; c?: string | Partial<HassContext>; lc?: number; lu?: number };
  "-"?: { a: string[] };
}

export interface EntitiesEvent {
  a?: Record<string, CompressedState>;
  c?: Record<string, StateDiff>;
  r?: string[];
}

export function compressState(state: State): CompressedState {
  const { context } = state;
  const compressed: CompressedState = {
    s: state.state,
    a: state.attributes,
    c: context.parent_id === null && context.user_id === null ? context.id : { ...context },
    lc: state.lastChanged,
  };
  if (state.lastChanged !== state.lastUpdated) compressed.lu = state.lastUpdated;
  return compressed;
}

export function stateDiff(oldState: State, newState: State): StateDiff {
  const additions: StateDiff["+"] = {};
  const diff: StateDiff = { "+": additions };
  if (oldState.state !== newState.state) additions.s = newState.state;
  // last_changed moving implies last_updated moved with it, so `lu` is only sent on attribute-only updates.
  if (oldState.lastChanged !== newState.lastChanged) additions.lc = newState.lastChanged;
  else if (oldState.lastUpdated !== newState.lastUpdated) additions.lu = newState.lastUpdated;

  const oldCtx = oldState.context;
  const newCtx = newState.context;
  let context: Partial<HassContext> | undefined;
  if (oldCtx.parent_id !== newCtx.parent_id) context = { parent_id: newCtx.parent_id };
  if (oldCtx.user_id !== newCtx.user_id) context = { ...context, user_id: newCtx.user_id };
  if (context) {
    if (oldCtx.id !== newCtx.id) context.id = newCtx.id;
    additions.c = context;
  } else if (oldCtx.id !== newCtx.id) {
    additions.c = newCtx.id;
  }

  const oldAttrs = oldState.attributes;
  const newAttrs = newState.attributes;
  if (oldAttrs !== newAttrs) {
    const added: Record<string, unknown> = {};
    let anyAdded = false;
    for (const [key, value] of Object.entries(newAttrs)) {
      if (!Object.hasOwn(oldAttrs, key) || !jsonEqual(oldAttrs[key], value)) {
        added[key] = value;
        anyAdded = true;
      }
    }
    if (anyAdded) additions.a = added;
    const removed = Object.keys(oldAttrs).filter((key) => !Object.hasOwn(newAttrs, key));
    if (removed.length > 0) diff["-"] = { a: removed };
  }
  return diff;
}

/** HA's `_state_diff_event`: the `subscribe_entities` payload for one `state_changed` event. */
export function entitiesEventFor(entityId: string, oldState: State | null, newState: State | null): EntitiesEvent {
  if (newState === null) return { r: [entityId] };
  if (oldState === null) return { a: { [entityId]: compressState(newState) } };
  return { c: { [entityId]: stateDiff(oldState, newState) } };
}

/** The compressed payload JSON of a `state_changed` bus event, memoised on the event for all subscribers. */
export function entitiesEventJson(event: BusEvent): string {
  const cached = event.memo.get("entities");
  if (typeof cached === "string") return cached;
  const data = event.data as { entity_id: string; old_state: State | null; new_state: State | null };
  const json = JSON.stringify(entitiesEventFor(data.entity_id, data.old_state, data.new_state));
  event.memo.set("entities", json);
  return json;
}
