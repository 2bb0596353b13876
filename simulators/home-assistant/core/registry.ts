/**
 * Entity, device, area and label registries. Every mutation fires the `*_registry_updated` event HA fires, with
 * HA's data: `changes` holds the OLD values of the changed fields, a rename adds `old_entity_id`. Cascades follow
 * HA: removing an area or label clears it from whatever referenced it, removing a device removes its entities,
 * disabling a device disables its entities with `disabled_by: "device"`.
 */
import type {
  AreaRegistryEntry,
  DeviceRegistryEntry,
  EntityRegistryEntry,
  EntityRegistryUpdated,
  LabelRegistryEntry,
} from "../../../hub/src/home-assistant/types.ts";
import type { EventBus } from "./event-bus.ts";
import { cloneJson, jsonEqual } from "./json.ts";
import { deviceJson } from "./registry-json.ts";
import { isValidEntityId } from "./state-machine.ts";
import type { Clock } from "./time.ts";

export interface RegistryHooks {
  /** Runs after an entity registry event went out; the platform side (states) reacts here, as HA's platforms do. */
  entityChanged(event: EntityRegistryUpdated, old: EntityRegistryEntry | undefined): void;
  /** Runs after a device update went out (names feed friendly names). */
  deviceUpdated(device: DeviceRegistryEntry, old: DeviceRegistryEntry): void;
}

export interface Registries {
  readonly entities: ReadonlyMap<string, EntityRegistryEntry>;
  readonly devices: ReadonlyMap<string, DeviceRegistryEntry>;
  readonly areas: ReadonlyMap<string, AreaRegistryEntry>;
  readonly labels: ReadonlyMap<string, LabelRegistryEntry>;
  createEntity(entry: EntityRegistryEntry): EntityRegistryEntry;
  updateEntity(entityId: string, changes: Partial<EntityRegistryEntry>): EntityRegistryEntry;
  removeEntity(entityId: string): void;
  createDevice(device: DeviceRegistryEntry): void;
  updateDevice(deviceId: string, changes: Partial<DeviceRegistryEntry>): void;
  removeDevice(deviceId: string): void;
  createArea(area: AreaRegistryEntry): void;
  updateArea(areaId: string, changes: Partial<AreaRegistryEntry>): void;
  removeArea(areaId: string): void;
  createLabel(label: LabelRegistryEntry): void;
  updateLabel(labelId: string, changes: Partial<LabelRegistryEntry>): void;
  removeLabel(labelId: string): void;
}

function must<T>(map: Map<string, T>, key: string, what: string): T {
  const value = map.get(key);
  if (value === undefined) throw new Error(`${what} ${key} not found`);
  return value;
}

/** The fields whose value differs, mapped to their OLD values (HA's `changes`). */
function oldValues<T extends object>(old: T, changes: Partial<T>): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(changes)) {
    const previous = (old as Record<string, unknown>)[key];
    if (!jsonEqual(previous, value)) result[key] = previous;
  }
  return result;
}

export function createRegistries(
  home: {
    entities: EntityRegistryEntry[];
    devices: DeviceRegistryEntry[];
    areas: AreaRegistryEntry[];
    labels: LabelRegistryEntry[];
  },
  bus: EventBus,
  clock: Clock,
  hooks: RegistryHooks,
): Registries {
  // HA's RegistryEntry always has an options mapping (exposure settings live there): an entry given without one gets {}.
  const entities = new Map<string, EntityRegistryEntry>(
    home.entities.map((e) => [e.entity_id, { ...cloneJson(e), options: e.options ?? {} }]),
  );
  const devices = new Map(home.devices.map((d) => [d.id, cloneJson(d)]));
  const areas = new Map(home.areas.map((a) => [a.area_id, cloneJson(a)]));
  const labels = new Map(home.labels.map((l) => [l.label_id, cloneJson(l)]));

  const fireEntity = (data: EntityRegistryUpdated, old?: EntityRegistryEntry) => {
    bus.fire("entity_registry_updated", { ...data });
    hooks.entityChanged(data, old);
  };

  function updateEntity(entityId: string, changes: Partial<EntityRegistryEntry>): EntityRegistryEntry {
    const old = must(entities, entityId, "entity");
    const diff = oldValues(old, changes);
    if (Object.keys(diff).length === 0) return old;
    const newId = changes.entity_id ?? entityId;
    if (newId !== entityId) {
      if (!isValidEntityId(newId) || newId.split(".")[0] !== entityId.split(".")[0]) {
        throw new Error(`Invalid entity ID: ${newId}`);
      }
      if (entities.has(newId)) throw new Error(`Entity with ID ${newId} is already registered`);
    }
    const entry: EntityRegistryEntry = { ...old, ...cloneJson(changes), modified_at: clock.now() };
    entities.delete(entityId);
    entities.set(newId, entry);
    const data: EntityRegistryUpdated =
      newId === entityId
        ? { action: "update", entity_id: newId, changes: diff }
        : { action: "update", entity_id: newId, changes: diff, old_entity_id: entityId };
    fireEntity(data, old);
    return entry;
  }

  function removeEntity(entityId: string): void {
    const old = must(entities, entityId, "entity");
    entities.delete(entityId);
    fireEntity({ action: "remove", entity_id: entityId }, old);
  }

  function updateDevice(deviceId: string, changes: Partial<DeviceRegistryEntry>): void {
    const old = must(devices, deviceId, "device");
    const diff = oldValues(old, changes);
    if (Object.keys(diff).length === 0) return;
    const device: DeviceRegistryEntry = { ...old, ...cloneJson(changes), id: deviceId, modified_at: clock.now() };
    devices.set(deviceId, device);
    bus.fire("device_registry_updated", { action: "update", device_id: deviceId, changes: diff });
    hooks.deviceUpdated(device, old);
    // HA's entity registry follows a device's disabling (entity_registry.async_device_modified).
    if ("disabled_by" in diff) {
      for (const entry of [...entities.values()].filter((e) => e.device_id === deviceId)) {
        if (device.disabled_by !== null && entry.disabled_by === null) {
          updateEntity(entry.entity_id, { disabled_by: "device" });
        } else if (device.disabled_by === null && entry.disabled_by === "device") {
          updateEntity(entry.entity_id, { disabled_by: null });
        }
      }
    }
  }

  function updateArea(areaId: string, changes: Partial<AreaRegistryEntry>): void {
    const old = must(areas, areaId, "area");
    if (Object.keys(oldValues(old, changes)).length === 0) return;
    areas.set(areaId, { ...old, ...cloneJson(changes), area_id: areaId, modified_at: clock.now() });
    bus.fire("area_registry_updated", { action: "update", area_id: areaId });
  }

  return {
    entities,
    devices,
    areas,
    labels,
    createEntity(entry) {
      if (!isValidEntityId(entry.entity_id)) throw new Error(`Invalid entity ID: ${entry.entity_id}`);
      if (entities.has(entry.entity_id)) throw new Error(`Entity with ID ${entry.entity_id} is already registered`);
      const now = clock.now();
      const stored: EntityRegistryEntry = {
        created_at: now,
        modified_at: now,
        ...cloneJson(entry),
        options: entry.options ?? {},
      };
      entities.set(entry.entity_id, stored);
      fireEntity({ action: "create", entity_id: entry.entity_id });
      return stored;
    },
    updateEntity,
    removeEntity,
    createDevice(device) {
      if (devices.has(device.id)) throw new Error(`device ${device.id} already exists`);
      const now = clock.now();
      devices.set(device.id, { created_at: now, modified_at: now, ...cloneJson(device) });
      bus.fire("device_registry_updated", { action: "create", device_id: device.id });
    },
    updateDevice,
    removeDevice(deviceId) {
      const device = must(devices, deviceId, "device");
      devices.delete(deviceId);
      bus.fire("device_registry_updated", { action: "remove", device_id: deviceId, device: deviceJson(device) });
      for (const entry of [...entities.values()].filter((e) => e.device_id === deviceId)) removeEntity(entry.entity_id);
      for (const other of [...devices.values()].filter((d) => d.via_device_id === deviceId)) {
        updateDevice(other.id, { via_device_id: null });
      }
    },
    createArea(area) {
      if (areas.has(area.area_id)) throw new Error(`area ${area.area_id} already exists`);
      const now = clock.now();
      areas.set(area.area_id, { created_at: now, modified_at: now, ...cloneJson(area) });
      bus.fire("area_registry_updated", { action: "create", area_id: area.area_id });
    },
    updateArea,
    removeArea(areaId) {
      must(areas, areaId, "area");
      areas.delete(areaId);
      bus.fire("area_registry_updated", { action: "remove", area_id: areaId });
      // HA's async_clear_area_id on both registries.
      for (const device of [...devices.values()].filter((d) => d.area_id === areaId)) {
        updateDevice(device.id, { area_id: null });
      }
      for (const entry of [...entities.values()].filter((e) => e.area_id === areaId)) {
        updateEntity(entry.entity_id, { area_id: null });
      }
    },
    createLabel(label) {
      if (labels.has(label.label_id)) throw new Error(`label ${label.label_id} already exists`);
      const now = clock.now();
      labels.set(label.label_id, { created_at: now, modified_at: now, ...cloneJson(label) });
      bus.fire("label_registry_updated", { action: "create", label_id: label.label_id });
    },
    updateLabel(labelId, changes) {
      const old = must(labels, labelId, "label");
      if (Object.keys(oldValues(old, changes)).length === 0) return;
      labels.set(labelId, { ...old, ...cloneJson(changes), label_id: labelId, modified_at: clock.now() });
      bus.fire("label_registry_updated", { action: "update", label_id: labelId });
    },
    removeLabel(labelId) {
      must(labels, labelId, "label");
      labels.delete(labelId);
      bus.fire("label_registry_updated", { action: "remove", label_id: labelId });
      // HA's async_clear_label_id on areas, devices and entities.
      const without = (list: string[]) => list.filter((id) => id !== labelId);
      for (const area of [...areas.values()].filter((a) => a.labels.includes(labelId))) {
        updateArea(area.area_id, { labels: without(area.labels) });
      }
      for (const device of [...devices.values()].filter((d) => d.labels.includes(labelId))) {
        updateDevice(device.id, { labels: without(device.labels) });
      }
      for (const entry of [...entities.values()].filter((e) => e.labels.includes(labelId))) {
        updateEntity(entry.entity_id, { labels: without(entry.labels) });
      }
    },
  };
}
