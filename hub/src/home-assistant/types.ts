/**
 * Home Assistant's WebSocket API shapes the hub relies on (the simulator serves exactly these). Field lists follow
 * HA core's registry `as_partial_dict`/`json_repr` output; fields the hub does not read are kept optional so a newer
 * or older HA with extra or missing fields still parses.
 */
import type { HassConfig, HassEntity } from "home-assistant-js-websocket";

export type { HassConfig, HassEntity };

export interface HassContext {
  id: string;
  parent_id: string | null;
  user_id: string | null;
}

/** `config/entity_registry/list` item. */
export interface EntityRegistryEntry {
  entity_id: string;
  id: string;
  unique_id: string | null;
  platform: string;
  device_id: string | null;
  area_id: string | null;
  config_entry_id: string | null;
  disabled_by: string | null;
  hidden_by: string | null;
  entity_category: "config" | "diagnostic" | null;
  has_entity_name: boolean;
  name: string | null;
  original_name: string | null;
  icon: string | null;
  labels: string[];
  categories?: Record<string, string>;
  options?: Record<string, unknown> | null;
  translation_key?: string | null;
  /** Present in HA's full entry (`config/entity_registry/get`), used by the simulator's demo data. */
  device_class?: string | null;
  original_device_class?: string | null;
  created_at?: number;
  modified_at?: number;
}

/** `config/device_registry/list` item. */
export interface DeviceRegistryEntry {
  id: string;
  name: string | null;
  name_by_user: string | null;
  manufacturer: string | null;
  model: string | null;
  model_id?: string | null;
  sw_version: string | null;
  hw_version: string | null;
  serial_number?: string | null;
  area_id: string | null;
  labels: string[];
  disabled_by: string | null;
  entry_type: "service" | null;
  via_device_id: string | null;
  config_entries: string[];
  configuration_url?: string | null;
  connections?: [string, string][];
  identifiers?: [string, string][];
  primary_config_entry?: string | null;
  created_at?: number;
  modified_at?: number;
}

/** `config/area_registry/list` item. */
export interface AreaRegistryEntry {
  area_id: string;
  name: string;
  floor_id: string | null;
  icon: string | null;
  labels: string[];
  aliases: string[];
  picture: string | null;
  humidity_entity_id?: string | null;
  temperature_entity_id?: string | null;
  created_at?: number;
  modified_at?: number;
}

/** `config/label_registry/list` item. */
export interface LabelRegistryEntry {
  label_id: string;
  name: string;
  color: string | null;
  icon: string | null;
  description: string | null;
  created_at?: number;
  modified_at?: number;
}

/** `entity_registry_updated` event data. */
export type EntityRegistryUpdated =
  | { action: "create" | "remove"; entity_id: string }
  | { action: "update"; entity_id: string; changes: Record<string, unknown>; old_entity_id?: string };

/** `device_registry_updated` event data. */
export interface DeviceRegistryUpdated {
  action: "create" | "remove" | "update";
  device_id: string;
  changes?: Record<string, unknown>;
}

/** `area_registry_updated` / `label_registry_updated` event data. */
export interface AreaRegistryUpdated {
  action: "create" | "remove" | "update" | "reorder";
  area_id?: string;
}
export interface LabelRegistryUpdated {
  action: "create" | "remove" | "update";
  label_id: string;
}

/** A complete home: what the simulator serves and what a demo/generated home is made of. */
export interface HomeSnapshot {
  states: HassEntity[];
  entities: EntityRegistryEntry[];
  devices: DeviceRegistryEntry[];
  areas: AreaRegistryEntry[];
  labels: LabelRegistryEntry[];
  /**
   * Voice assistant settings of entities without a registry entry (HA keeps them in its own store), as
   * `{<entity_id>: {<assistant>: should_expose}}`. Registry entities keep theirs in `options[<assistant>]`.
   */
  exposure?: Record<string, Record<string, boolean>>;
}
