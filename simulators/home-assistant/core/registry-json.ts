/**
 * The JSON shapes of HA's registry list commands: entity `as_partial_dict` (no device_class there), the extended
 * dict of `config/entity_registry/get`, the compact `list_for_display` form, device `dict_repr`, area and label
 * `_entry_dict`. Inputs may lack optional fields; these fill HA's defaults.
 */
import type {
  AreaRegistryEntry,
  DeviceRegistryEntry,
  EntityRegistryEntry,
  LabelRegistryEntry,
} from "../../../hub/src/home-assistant/types.ts";

export function entityPartial(entry: EntityRegistryEntry): Record<string, unknown> {
  return {
    area_id: entry.area_id,
    categories: entry.categories ?? {},
    config_entry_id: entry.config_entry_id,
    config_subentry_id: null,
    created_at: entry.created_at ?? 0,
    device_id: entry.device_id,
    disabled_by: entry.disabled_by,
    entity_category: entry.entity_category,
    entity_id: entry.entity_id,
    has_entity_name: entry.has_entity_name,
    hidden_by: entry.hidden_by,
    icon: entry.icon,
    id: entry.id,
    labels: [...entry.labels],
    modified_at: entry.modified_at ?? 0,
    name: entry.name,
    options: entry.options ?? {},
    original_name: entry.original_name,
    platform: entry.platform,
    translation_key: entry.translation_key ?? null,
    unique_id: entry.unique_id,
  };
}

/** `config/entity_registry/get`: the partial dict plus the fields HA only sends for one entry. */
export function entityExtended(entry: EntityRegistryEntry): Record<string, unknown> {
  return {
    ...entityPartial(entry),
    aliases: [],
    capabilities: null,
    device_class: entry.device_class ?? null,
    original_device_class: entry.original_device_class ?? null,
    original_icon: null,
  };
}

/** HA's `_as_display_dict`: short keys, optional ones left out when empty. */
export function entityDisplay(entry: EntityRegistryEntry): Record<string, unknown> {
  const display: Record<string, unknown> = { ei: entry.entity_id, pl: entry.platform };
  if (entry.area_id !== null) display.ai = entry.area_id;
  display.lb = [...entry.labels];
  if (entry.device_id !== null) display.di = entry.device_id;
  if (entry.icon !== null) display.ic = entry.icon;
  if (entry.translation_key) display.tk = entry.translation_key;
  if (entry.entity_category !== null) display.ec = entry.entity_category === "config" ? 0 : 1;
  if (entry.hidden_by !== null) display.hb = true;
  if (entry.has_entity_name) display.hn = true;
  const name = entry.name ?? entry.original_name;
  if (name !== null) display.en = name;
  return display;
}

export function deviceJson(device: DeviceRegistryEntry): Record<string, unknown> {
  return {
    area_id: device.area_id,
    configuration_url: device.configuration_url ?? null,
    config_entries: [...device.config_entries],
    config_entries_subentries: Object.fromEntries(device.config_entries.map((entry) => [entry, [null]])),
    connections: device.connections ?? [],
    created_at: device.created_at ?? 0,
    disabled_by: device.disabled_by,
    entry_type: device.entry_type,
    hw_version: device.hw_version,
    id: device.id,
    identifiers: device.identifiers ?? [],
    labels: [...device.labels],
    manufacturer: device.manufacturer,
    model: device.model,
    model_id: device.model_id ?? null,
    modified_at: device.modified_at ?? 0,
    name_by_user: device.name_by_user,
    name: device.name,
    primary_config_entry: device.primary_config_entry ?? device.config_entries[0] ?? null,
    serial_number: device.serial_number ?? null,
    sw_version: device.sw_version,
    via_device_id: device.via_device_id,
  };
}

export function areaJson(area: AreaRegistryEntry): Record<string, unknown> {
  return {
    aliases: [...area.aliases],
    area_id: area.area_id,
    floor_id: area.floor_id,
    humidity_entity_id: area.humidity_entity_id ?? null,
    icon: area.icon,
    labels: [...area.labels],
    name: area.name,
    picture: area.picture,
    temperature_entity_id: area.temperature_entity_id ?? null,
    created_at: area.created_at ?? 0,
    modified_at: area.modified_at ?? 0,
  };
}

export function labelJson(label: LabelRegistryEntry): Record<string, unknown> {
  return {
    color: label.color,
    created_at: label.created_at ?? 0,
    description: label.description,
    icon: label.icon,
    label_id: label.label_id,
    modified_at: label.modified_at ?? 0,
    name: label.name,
  };
}
