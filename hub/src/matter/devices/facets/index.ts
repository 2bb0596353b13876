/** Every facet, in the order their behaviors are added to an endpoint type (facet.ts). */
import { batteryFacet } from "./battery-facet.ts";
import { electricalFacet } from "./electrical-facet.ts";
import type { Facet } from "./facet.ts";

export const FACETS: readonly Facet[] = [batteryFacet, electricalFacet];

export type { Facet } from "./facet.ts";
