import { MAUTRIX_BRIDGES } from "./mautrix.ts";
import { OTHER_ENTRIES } from "./others.ts";
import type { CatalogEntry, IntegrationType } from "./types.ts";

/** Every integration the portal can install, in display order. */
export const CATALOG: readonly CatalogEntry[] = Object.freeze([...MAUTRIX_BRIDGES, ...OTHER_ENTRIES]);

export const findEntry = (id: string) => CATALOG.find((entry) => entry.id === id);

/** `view=catalog` filters: `type` exactly, `search` case-insensitively in the name (and id and tags). */
export function searchCatalog(filter: { type?: IntegrationType | undefined; search?: string | undefined }): CatalogEntry[] {
  const needle = filter.search?.trim().toLowerCase();
  return CATALOG.filter(
    (entry) =>
      (filter.type === undefined || entry.type === filter.type) &&
      (!needle ||
        entry.name.toLowerCase().includes(needle) ||
        entry.id.includes(needle) ||
        entry.tags.some((tag) => tag.includes(needle))),
  );
}
