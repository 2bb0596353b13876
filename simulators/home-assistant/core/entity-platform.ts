/**
 * The platform side of registry changes, as HA's entity platforms react to `entity_registry_updated`: a removed or
 * disabled entity loses its state, a re-enabled one comes back, a renamed one moves to its new entity id, a name
 * change (of the entity or its device) rewrites `friendly_name`, and a device class set in the registry ("Show as")
 * rewrites the `device_class` attribute.
 */
import type { DeviceRegistryEntry, EntityRegistryEntry } from "../../../hub/src/home-assistant/types.ts";
import type { Registries, RegistryHooks } from "./registry.ts";
import type { StateMachine } from "./state-machine.ts";

/** HA's friendly name: the registry name wins; `has_entity_name` entities prefix their device's name. */
export function friendlyName(entry: EntityRegistryEntry, device: DeviceRegistryEntry | undefined): string | null {
  if (entry.name) return entry.name;
  if (entry.has_entity_name && device) {
    const deviceName = device.name_by_user ?? device.name;
    if (entry.original_name === null) return deviceName;
    return deviceName ? `${deviceName} ${entry.original_name}` : entry.original_name;
  }
  return entry.original_name;
}

/** HA's `RegistryEntry.write_unavailable_state`: what an entity whose integration has not loaded it shows. */
export function unavailableAttributes(entry: EntityRegistryEntry): Record<string, unknown> {
  const attributes: Record<string, unknown> = { restored: true };
  const deviceClass = entry.device_class ?? entry.original_device_class;
  if (deviceClass) attributes.device_class = deviceClass;
  const name = entry.name ?? entry.original_name;
  if (name !== null) attributes.friendly_name = name;
  attributes.supported_features = 0;
  return attributes;
}

export function createEntityPlatform(states: StateMachine, registries: () => Registries): RegistryHooks {
  // What a disabled entity showed, so that enabling it brings the same state back (HA would re-read the device).
  const parked = new Map<string, { state: string; attributes: Record<string, unknown> }>();

  const refreshName = (entityId: string) => {
    const entry = registries().entities.get(entityId);
    const current = states.get(entityId);
    if (!entry || !current) return;
    const device = entry.device_id ? registries().devices.get(entry.device_id) : undefined;
    const name = friendlyName(entry, device);
    const attributes = { ...current.attributes };
    if (name === null) delete attributes.friendly_name;
    else attributes.friendly_name = name;
    states.set(entityId, current.state, attributes);
  };

  // Entity.device_class: the registry's override, else the integration's class.
  const refreshDeviceClass = (entityId: string) => {
    const entry = registries().entities.get(entityId);
    const current = states.get(entityId);
    if (!entry || !current) return;
    const deviceClass = entry.device_class ?? entry.original_device_class;
    const attributes = { ...current.attributes };
    if (deviceClass) attributes.device_class = deviceClass;
    else delete attributes.device_class;
    states.set(entityId, current.state, attributes);
  };

  return {
    entityChanged(event, old) {
      const entityId = event.entity_id;
      if (event.action === "remove") {
        parked.delete(entityId);
        states.remove(entityId);
        return;
      }
      if (event.action !== "update") return;
      const entry = registries().entities.get(entityId);
      if (!entry) return;
      if (event.old_entity_id !== undefined) {
        const moved = states.get(event.old_entity_id);
        states.remove(event.old_entity_id);
        if (moved) states.set(entityId, moved.state, { ...moved.attributes });
        const wasParked = parked.get(event.old_entity_id);
        parked.delete(event.old_entity_id);
        if (wasParked) parked.set(entityId, wasParked);
      }
      if ("disabled_by" in event.changes) {
        if (entry.disabled_by !== null) {
          const current = states.get(entityId);
          if (current) parked.set(entityId, { state: current.state, attributes: { ...current.attributes } });
          states.remove(entityId);
        } else if (old?.disabled_by !== null) {
          const restored = parked.get(entityId);
          parked.delete(entityId);
          if (restored) states.set(entityId, restored.state, restored.attributes);
          else states.set(entityId, "unavailable", unavailableAttributes(entry));
        }
      }
      if ("name" in event.changes || "has_entity_name" in event.changes || "original_name" in event.changes) {
        refreshName(entityId);
      }
      if ("device_class" in event.changes || "original_device_class" in event.changes) refreshDeviceClass(entityId);
    },
    deviceUpdated(device, old) {
      if (device.name === old.name && device.name_by_user === old.name_by_user) return;
      for (const entry of registries().entities.values()) {
        if (entry.device_id === device.id && entry.has_entity_name && !entry.name) refreshName(entry.entity_id);
      }
    },
  };
}
