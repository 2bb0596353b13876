import type { DeviceRegistryEntry, EntityRegistryEntry } from "./types.ts";

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Ids added, removed or changed between a registry map and its new list. */
export function changedIds<T>(current: ReadonlyMap<string, T>, incoming: readonly T[], idOf: (entry: T) => string): Set<string> {
  const changed = new Set<string>();
  const seen = new Set<string>();
  for (const entry of incoming) {
    const id = idOf(entry);
    seen.add(id);
    if (!same(current.get(id), entry)) changed.add(id);
  }
  for (const id of current.keys()) if (!seen.has(id)) changed.add(id);
  return changed;
}

/**
 * The entities that carry one of these areas (their own, else their device's, HA's rule) or labels (on themselves or
 * their device): the ones whose filter matches by name an area or label change can affect. One pass over the entity
 * entries, without comparing them; nothing when no area or label changed.
 */
export function entitiesCarrying(
  registries: {
    entities: ReadonlyMap<string, EntityRegistryEntry>;
    devices: ReadonlyMap<string, DeviceRegistryEntry>;
  },
  areas: ReadonlySet<string>,
  labels: ReadonlySet<string>,
): string[] {
  if (areas.size === 0 && labels.size === 0) return [];
  const found: string[] = [];
  for (const [id, entry] of registries.entities) {
    const device = entry.device_id ? registries.devices.get(entry.device_id) : undefined;
    const area = entry.area_id ?? device?.area_id;
    if (
      (area && areas.has(area)) ||
      entry.labels?.some((label) => labels.has(label)) ||
      device?.labels?.some((label) => labels.has(label))
    )
      found.push(id);
  }
  return found;
}
