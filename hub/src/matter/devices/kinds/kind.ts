/**
 * One device kind per DeviceTypeKey: which matter.js endpoint type (device type + cluster behaviors with the
 * features this entity needs), which attribute values never change, and how HA state becomes attribute values.
 * `endpoint-types.ts` adds what every endpoint shares (HaEntityBehavior, BridgedDeviceBasicInformation) and runs
 * the projection on creation and on every update.
 */
import type { Endpoint, MutableEndpoint } from "@matter/main";
import type { CompanionRole, Companions, EntitySnapshot, UnitSystem } from "../../model/contract.ts";

/** Attribute values keyed by behavior id, then attribute name; `undefined` means "keep the current value". */
export type StatePatch = Record<string, Record<string, unknown>>;

/** What a kind sees of the entity. */
export interface KindContext {
  snapshot: EntitySnapshot;
  unitSystem: UnitSystem;
  /** The companion entities composed into this endpoint (empty when none); the facets (../facets/) read them. */
  companions: Companions;
}

/** How one device type is built from, and kept in step with, an HA entity. */
export interface DeviceKind {
  /** The matter.js device type with this entity's cluster behaviors and features. */
  endpointType(context: KindContext): MutableEndpoint;
  /** Values set once at creation (feature configuration, limits, mode lists). */
  fixed?(context: KindContext): StatePatch;
  /**
   * Values derived from the HA state. Only called with a state that is neither missing nor `unavailable`; an
   * `unknown` state should leave values undefined (kept) or report "no value" (null) where Matter has one.
   */
  project(context: KindContext): StatePatch;
  /** The capabilities the endpoint type was built from; a different signature later means "rebuild". */
  signature(context: KindContext): string;
  /**
   * The role the entity itself plays for a facet, for a kind whose clusters all come from a facet (an Electrical
   * Sensor measures its own entity); the entity then counts as its own companion in that role.
   */
  ownRole?(snapshot: EntitySnapshot): CompanionRole | undefined;
  /** Reacts to a state change with Matter events (generic switch presses); runs after the attributes are set. */
  afterUpdate?(endpoint: Endpoint, previous: EntitySnapshot, next: EntitySnapshot): Promise<void>;
}

/** The HA state string, or undefined. */
export function stateOf(context: KindContext): string | undefined {
  return context.snapshot.state?.state;
}

/** Merges patches: a later defined value wins; `undefined` ("keep") never replaces an earlier value. */
export function mergePatches(...patches: (StatePatch | undefined)[]): StatePatch {
  const merged: StatePatch = {};
  for (const patch of patches) {
    if (!patch) continue;
    for (const [behavior, values] of Object.entries(patch)) {
      const target: Record<string, unknown> = merged[behavior] ?? {};
      merged[behavior] = target;
      for (const [attribute, value] of Object.entries(values)) {
        if (value !== undefined || !(attribute in target)) target[attribute] = value;
      }
    }
  }
  return merged;
}

/** A patch without undefined values (what goes into an Endpoint's initial state). */
export function withoutUndefined(patch: StatePatch): StatePatch {
  const result: StatePatch = {};
  for (const [behavior, values] of Object.entries(patch)) {
    const defined = Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));
    if (Object.keys(defined).length > 0) result[behavior] = defined;
  }
  return result;
}
