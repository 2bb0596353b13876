import type { HassEntity } from "./types.ts";

/** One entity in `subscribe_entities`' compressed format (HA `websocket_api/messages.py`). */
export interface CompressedState {
  s: string;
  a: Record<string, unknown>;
  c: string | { id: string; parent_id?: string | null; user_id?: string | null };
  lc: number;
  lu?: number;
}

/** A `subscribe_entities` event: `a` added (or full snapshot), `c` changed (`+` set, `-` removed attributes), `r` removed. */
export interface CompressedEvent {
  a?: Record<string, CompressedState>;
  c?: Record<string, { "+"?: Partial<CompressedState>; "-"?: { a?: string[] } }>;
  r?: string[];
}

const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

function context(c: CompressedState["c"], previous?: HassEntity["context"]): HassEntity["context"] {
  if (typeof c === "string") return { id: c, parent_id: previous?.parent_id ?? null, user_id: previous?.user_id ?? null };
  return { id: c.id, parent_id: c.parent_id ?? null, user_id: c.user_id ?? null };
}

export function expandState(entityId: string, compressed: CompressedState): HassEntity {
  const lastChanged = iso(compressed.lc);
  return {
    entity_id: entityId,
    state: compressed.s,
    attributes: compressed.a as HassEntity["attributes"],
    context: context(compressed.c),
    last_changed: lastChanged,
    last_updated: compressed.lu ? iso(compressed.lu) : lastChanged,
  };
}

/**
 * Applies one `c` entry to the previous state and returns a new object (the previous one may be held by a
 * consumer). Work is proportional to the changed attributes only.
 */
export function applyChange(
  previous: HassEntity,
  change: { "+"?: Partial<CompressedState>; "-"?: { a?: string[] } },
): HassEntity {
  const next: HassEntity = { ...previous };
  const add = change["+"];
  const removed = change["-"]?.a;
  if (add?.a || removed) next.attributes = { ...previous.attributes, ...(add?.a ?? {}) };
  if (removed) for (const key of removed) delete (next.attributes as Record<string, unknown>)[key];
  if (add?.s !== undefined) next.state = add.s;
  if (add?.c !== undefined) next.context = context(add.c, previous.context);
  if (add?.lc !== undefined) next.last_changed = next.last_updated = iso(add.lc);
  else if (add?.lu !== undefined) next.last_updated = iso(add.lu);
  return next;
}
