import type { HomeAssistantModel } from "./ha-model.ts";
import type { DeviceRegistryEntry, EntityRegistryEntry, HassEntity } from "./types.ts";

/** What the hub knows about one entity, joined from the state and the registries. */
export interface EntityView {
  entityId: string;
  domain: string;
  state: HassEntity | undefined;
  registry: EntityRegistryEntry | undefined;
  device: DeviceRegistryEntry | undefined;
  /** The entity's own area, else its device's area (HA's rule). */
  areaId: string | null;
  /** Label ids on the entity itself. */
  labels: string[];
  /** Label ids on its device. */
  deviceLabels: string[];
  /** The name a person sees in HA: registry name, friendly_name, or the object id. */
  name: string;
  /** The voice assistants HA exposes the entity to (`conversation`, `cloud.alexa`, …), sorted (model.exposedTo). */
  exposedTo: string[];
}

export function deviceName(device: DeviceRegistryEntry | undefined): string | null {
  return device ? (device.name_by_user ?? device.name) : null;
}

export function viewEntity(model: HomeAssistantModel, entityId: string): EntityView | undefined {
  const state = model.states.get(entityId);
  const registry = model.entities.get(entityId);
  if (!state && !registry) return undefined;
  const device = registry?.device_id ? model.devices.get(registry.device_id) : undefined;
  const friendly = state?.attributes.friendly_name;
  const name =
    registry?.name ??
    (typeof friendly === "string" && friendly !== "" ? friendly : undefined) ??
    registry?.original_name ??
    entityId.slice(entityId.indexOf(".") + 1);
  return {
    entityId,
    domain: entityId.slice(0, entityId.indexOf(".")),
    state,
    registry,
    device,
    areaId: registry?.area_id ?? device?.area_id ?? null,
    labels: registry?.labels ?? [],
    deviceLabels: device?.labels ?? [],
    name,
    exposedTo: model.exposedTo(entityId),
  };
}

/** The JSON record of an entity in the hub API (`/api/home-assistant/entities`). */
export function entityRecord(view: EntityView) {
  const attributes = view.state?.attributes ?? {};
  return {
    entity_id: view.entityId,
    domain: view.domain,
    name: view.name,
    friendly_name: (attributes.friendly_name as string | undefined) ?? view.name,
    state: view.state?.state ?? null,
    attributes,
    device_class:
      (attributes.device_class as string | undefined) ??
      view.registry?.device_class ??
      view.registry?.original_device_class ??
      null,
    unit_of_measurement: (attributes.unit_of_measurement as string | undefined) ?? null,
    available: view.state !== undefined && view.state.state !== "unavailable",
    device_id: view.registry?.device_id ?? null,
    device_name: deviceName(view.device),
    area_id: view.areaId,
    labels: view.labels,
    exposed_to: view.exposedTo,
    platform: view.registry?.platform ?? null,
    unique_id: view.registry?.unique_id ?? null,
    entity_category: view.registry?.entity_category ?? null,
    hidden: Boolean(view.registry?.hidden_by),
    disabled: Boolean(view.registry?.disabled_by),
    last_changed: view.state?.last_changed ?? null,
    last_updated: view.state?.last_updated ?? null,
  };
}
