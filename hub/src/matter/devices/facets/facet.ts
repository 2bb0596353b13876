/**
 * A facet is what a companion entity adds to an endpoint of another entity of the same HA device: clusters
 * (behaviors) beside the kind's own, values set once, and values kept in step with the companion's HA state. A
 * kind decides what an endpoint *is*; facets only add, so a controller that ignores a facet's cluster sees the
 * endpoint exactly as without it (issue 19; docs/decisions.md "Composed devices").
 */
import type { Behavior, Endpoint } from "@matter/main";
import type { Companions } from "../../model/contract.ts";
import type { KindContext, StatePatch } from "../kinds/kind.ts";

/** The behaviors a facet adds, as `MutableEndpoint.with` takes them. */
export type FacetBehaviors = Behavior.Type[];

export interface Facet {
  /** Whether these companions call for the facet at all. */
  applies(companions: Companions): boolean;
  /** The cluster behaviors added to the endpoint type (features chosen from the companions). */
  behaviors(context: KindContext): FacetBehaviors;
  /** Values set once at creation. */
  fixed?(context: KindContext): StatePatch;
  /** Values derived from the companions' HA states; `undefined` keeps the current value. */
  project(context: KindContext): StatePatch;
  /** What the behaviors were built from: a different signature later means "rebuild the endpoint". */
  signature(context: KindContext): string;
  /**
   * Whether `next` may replace `current` for one attribute; a refused value is left out (kept as it is). For
   * counters Matter requires to be monotonic, such as cumulative energy.
   */
  accepts?(behavior: string, attribute: string, current: unknown, next: unknown): boolean;
  /** Emits the facet's Matter events for a change; runs after the attributes are written. */
  afterUpdate?(endpoint: Endpoint, changed: readonly string[]): Promise<void>;
}
