/**
 * Home Assistant's registries as HA itself reports them, for the interop checks of the hub's registry loading and
 * filters: read over HA's own API, what a filter rule should select by HA's rules, and the test's arrangement of an
 * area and a label (HA 2024.3.3: docs/INTEROP.md "A real Home Assistant").
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { HaState, HomeAssistantCore } from "./home-assistant.ts";

export const INTEROP_AREA = "interop_lab";
export const INTEROP_LABEL = "interop";

export interface RegistryEntity {
  entity_id: string;
  device_id: string | null;
  area_id: string | null;
  labels?: string[];
  disabled_by: string | null;
  hidden_by: string | null;
  device_class: string | null;
  original_device_class: string | null;
}
export interface RegistryDevice {
  id: string;
  area_id: string | null;
  labels?: string[];
}

/** What HA itself says, read over its own API, against which the hub is checked. */
export async function readHa(ha: HomeAssistantCore) {
  const [states, entities, devices, areas, labels] = await Promise.all([
    ha.rest<HaState[]>("GET", "/api/states"),
    ha.admin.command<RegistryEntity[]>({ type: "config/entity_registry/list" }),
    ha.admin.command<RegistryDevice[]>({ type: "config/device_registry/list" }),
    ha.admin.command<{ area_id: string; name: string }[]>({ type: "config/area_registry/list" }),
    ha.admin.command<{ label_id: string; name: string }[]>({ type: "config/label_registry/list" }),
  ]);
  return { states, entities, devices, areas, labels };
}
export type HaSnapshot = Awaited<ReturnType<typeof readHa>>;

/**
 * The entity ids a filter rule should select, by HA's own rules: the entity's area, else its device's; labels of the
 * entity or its device; the device class of the state, else the registry's. Disabled and hidden entities are out.
 */
export function expectedSelection(ha: HaSnapshot, rule: { type: "area" | "label" | "device_class"; value: string }): string[] {
  const registry = new Map(ha.entities.map((entry) => [entry.entity_id, entry]));
  const devices = new Map(ha.devices.map((device) => [device.id, device]));
  const stateOf = new Map(ha.states.map((state) => [state.entity_id, state]));
  const ids = new Set([...registry.keys(), ...stateOf.keys()]);
  return [...ids]
    .filter((id) => {
      const entry = registry.get(id);
      if (entry?.disabled_by || entry?.hidden_by) return false;
      const device = entry?.device_id ? devices.get(entry.device_id) : undefined;
      if (rule.type === "area") return (entry?.area_id ?? device?.area_id ?? null) === rule.value;
      if (rule.type === "label") return [...(entry?.labels ?? []), ...(device?.labels ?? [])].includes(rule.value);
      const cls = stateOf.get(id)?.attributes.device_class ?? entry?.device_class ?? entry?.original_device_class;
      return cls === rule.value;
    })
    .sort();
}

/**
 * An area and a label made through HA's registry API, the area on the device of `on.deviceOf` and on the entity
 * `on.entity`, for the filter checks.
 * HA 2024.3.3 has the label registry (list, create) but its entity and device update commands take no `labels` yet
 * (that came with 2024.4), so nothing carries the label until labelInStorage puts it there.
 */
export async function arrangeRegistries(ha: HomeAssistantCore, on: { deviceOf: string; entity: string }): Promise<void> {
  const area = await ha.admin.command<{ area_id: string }>({ type: "config/area_registry/create", name: "Interop Lab" });
  const label = await ha.admin.command<{ label_id: string }>({ type: "config/label_registry/create", name: "Interop" });
  assert.deepEqual([area.area_id, label.label_id], [INTEROP_AREA, INTEROP_LABEL]);
  const entry = (id: string) => ha.admin.command<RegistryEntity>({ type: "config/entity_registry/get", entity_id: id });
  const [byDevice, byEntity] = await Promise.all([entry(on.deviceOf), entry(on.entity)]);
  assert.ok(byDevice.device_id && byEntity.device_id, `${on.deviceOf} and ${on.entity} have devices`);
  // One entity is in the area through its device, the other by itself (its device is elsewhere: the entity's own
  // area wins, HA's rule).
  await ha.admin.command({ type: "config/device_registry/update", device_id: byDevice.device_id, area_id: INTEROP_AREA });
  await ha.admin.command({ type: "config/entity_registry/update", entity_id: on.deviceOf, area_id: null });
  await ha.admin.command({ type: "config/entity_registry/update", entity_id: on.entity, area_id: INTEROP_AREA });
}

/**
 * Puts `label` on `entityId` in HA's entity registry file while HA is stopped: HA 2024.3 loads entity labels from its
 * storage and lists them, it only lacks the command to set them. HA wrote the file on its way down.
 */
export function labelInStorage(ha: HomeAssistantCore, entityId: string, label: string): void {
  const file = join(ha.configDir.path, ".storage", "core.entity_registry");
  const stored = JSON.parse(readFileSync(file, "utf8")) as { data: { entities: { entity_id: string; labels: string[] }[] } };
  const entity = stored.data.entities.find((e) => e.entity_id === entityId);
  assert.ok(entity, `${entityId} is in HA's stored registry`);
  entity.labels = [...entity.labels, label];
  writeFileSync(file, JSON.stringify(stored, null, 2));
}
