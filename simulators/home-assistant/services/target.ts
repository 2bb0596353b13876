/**
 * Target resolution after HA's `async_extract_referenced_entity_ids` (helpers/service.py): explicit entity ids
 * are "referenced"; entities reached through devices, areas, floors and labels are "indirectly referenced" and
 * leave out hidden entities and config/diagnostic ones.
 */
import type { Registries } from "../core/registry.ts";

export interface ResolvedTarget {
  /** `entity_id: "all"`: every entity of the service's domain. */
  all: boolean;
  referenced: Set<string>;
  indirect: Set<string>;
}

const asList = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : []);

export function resolveTarget(data: Record<string, unknown>, registries: Registries): ResolvedTarget {
  const entityIds = data.entity_id;
  if (entityIds === "all") return { all: true, referenced: new Set(), indirect: new Set() };
  const referenced = new Set(asList(entityIds));
  const indirect = new Set<string>();

  const deviceIds = new Set(asList(data.device_id));
  const areaIds = new Set(asList(data.area_id));
  const labelIds = new Set(asList(data.label_id));
  for (const floorId of asList(data.floor_id)) {
    for (const area of registries.areas.values()) if (area.floor_id === floorId) areaIds.add(area.area_id);
  }
  for (const labelId of labelIds) {
    for (const area of registries.areas.values()) if (area.labels.includes(labelId)) areaIds.add(area.area_id);
  }
  // Devices reached through an area (or a label) count, but their entities only when they have no area of their own.
  const areaDevices = new Set<string>();
  for (const device of registries.devices.values()) {
    if (device.area_id !== null && areaIds.has(device.area_id)) areaDevices.add(device.id);
    if (device.labels.some((label) => labelIds.has(label))) areaDevices.add(device.id);
  }
  if (deviceIds.size + areaIds.size + labelIds.size + areaDevices.size === 0) return { all: false, referenced, indirect };

  for (const entry of registries.entities.values()) {
    if (entry.entity_category !== null || entry.hidden_by !== null) continue;
    const viaArea = entry.area_id !== null && areaIds.has(entry.area_id);
    const viaAreaDevice = entry.area_id === null && entry.device_id !== null && areaDevices.has(entry.device_id);
    const viaDevice = entry.device_id !== null && deviceIds.has(entry.device_id);
    const viaLabel = entry.labels.some((label) => labelIds.has(label));
    if (viaArea || viaAreaDevice || viaDevice || viaLabel) indirect.add(entry.entity_id);
  }
  return { all: false, referenced, indirect };
}
