/**
 * HA state fixtures for device-layer tests (no matter.js imports, so pure tests stay fast).
 */
import type { HassEntity } from "../../../src/home-assistant/types.ts";
import type { EntitySnapshot } from "../../../src/matter/model/contract.ts";

/** An HA state object as HA's WebSocket API sends it. */
export function hassState(entityId: string, state: string, attributes: Record<string, unknown> = {}): HassEntity {
  const now = "2026-11-22T10:00:00.000Z";
  return {
    entity_id: entityId,
    state,
    attributes,
    last_changed: now,
    last_updated: now,
    context: { id: "ctx", parent_id: null, user_id: null },
  } as HassEntity;
}

/** A snapshot for `entityId` with `state` and `attributes` (name from friendly_name, else the object id). */
export function snapshot(entityId: string, state: string | undefined, attributes: Record<string, unknown> = {}): EntitySnapshot {
  const domain = entityId.slice(0, entityId.indexOf("."));
  const name = typeof attributes.friendly_name === "string" ? attributes.friendly_name : entityId.slice(domain.length + 1);
  return { entityId, domain, name, state: state === undefined ? undefined : hassState(entityId, state, attributes) };
}
