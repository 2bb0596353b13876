/**
 * Builds a consistent `HomeSnapshot` the way HA would hold it: registry entries with stable ids derived from a
 * seed, friendly names composed as HA composes them (`has_entity_name` → device name + entity name), no state for
 * disabled entities, no registry entry for entities without a unique id.
 */
import { createHash } from "node:crypto";
import type {
  AreaRegistryEntry,
  DeviceRegistryEntry,
  EntityRegistryEntry,
  HassEntity,
  HomeSnapshot,
  LabelRegistryEntry,
} from "../../hub/src/home-assistant/types.ts";
import { friendlyName } from "./core/entity-platform.ts";
import { isoFromEpoch } from "./core/time.ts";

export interface DeviceSpec {
  /** Builder-local key other specs refer to (`via`, entity `device`). */
  key: string;
  name: string;
  manufacturer: string;
  model: string;
  model_id?: string;
  /** The integration (config entry domain), e.g. "hue", "zha", "shelly". */
  integration: string;
  area?: string | null;
  labels?: string[];
  sw_version?: string | null;
  hw_version?: string | null;
  /** Key of the hub/bridge device this one talks through. */
  via?: string;
  entry_type?: "service";
  /** How HA identifies the device: a Zigbee IEEE address, a MAC address, or neither (cloud/service). */
  connection?: "zigbee" | "mac";
  configuration_url?: string;
  name_by_user?: string;
  disabled_by?: string;
}

export interface EntitySpec {
  entity_id: string;
  state: string;
  /** State attributes without friendly_name, which the builder composes. */
  attributes?: Record<string, unknown>;
  /** Device key. */
  device?: string;
  /** The integration's name for the entity (`original_name`); null = the device's main entity. */
  name?: string | null;
  /** Registry `name` (a user rename). */
  userName?: string;
  /** Default: true for entities with a device. */
  hasEntityName?: boolean;
  /** Default: the device's integration, else the entity's domain. */
  platform?: string;
  /** Default: derived from the entity id; null = not in the entity registry at all (e.g. YAML without unique_id). */
  uniqueId?: string | null;
  /** Entity-level area, overriding the device's. */
  area?: string;
  labels?: string[];
  category?: "config" | "diagnostic";
  hiddenBy?: "user" | "integration";
  disabledBy?: "user" | "integration";
  deviceClass?: string;
  translationKey?: string;
  icon?: string;
  /**
   * Voice assistant settings (HA's "Expose"), e.g. `{conversation: true, "cloud.alexa": false}`: in the registry
   * entry's options, or HA's own store for an entity without a registry entry.
   */
  expose?: Record<string, boolean>;
  /** Minutes since the state last changed (default 60) and since it was last updated (default the same). */
  changedAgo?: number;
  updatedAgo?: number;
}

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

export function createHomeBuilder(options: { seed: string; now: number }) {
  const hash = (key: string) => createHash("sha256").update(`${options.seed}:${key}`).digest();
  const hexId = (key: string) => hash(key).toString("hex").slice(0, 32);
  /** A ULID-shaped id (config entries, contexts) with its time part at `seconds`. */
  const ulidAt = (key: string, seconds: number) => {
    let time = Math.floor(seconds * 1000);
    let head = "";
    for (let i = 0; i < 10; i++) {
      head = CROCKFORD[time % 32] + head;
      time = Math.floor(time / 32);
    }
    return head + [...hash(key).subarray(0, 16)].map((byte) => CROCKFORD[byte % 32]).join("");
  };
  const address = (key: string, bytes: number) =>
    [...hash(key).subarray(0, bytes)].map((byte) => byte.toString(16).padStart(2, "0")).join(":");
  const registeredAt = options.now - 86400 * 120;

  const areas: AreaRegistryEntry[] = [];
  const labels: LabelRegistryEntry[] = [];
  const devices = new Map<string, DeviceRegistryEntry>();
  const entities: EntityRegistryEntry[] = [];
  const states: HassEntity[] = [];
  const exposure: Record<string, Record<string, boolean>> = {};
  const entries = new Map<string, string>();

  const configEntry = (domain: string) => {
    let id = entries.get(domain);
    if (!id) {
      id = ulidAt(`entry:${domain}`, registeredAt);
      entries.set(domain, id);
    }
    return id;
  };

  return {
    area(areaId: string, name: string, extra: Partial<AreaRegistryEntry> = {}): string {
      areas.push({
        area_id: areaId,
        name,
        floor_id: null,
        icon: null,
        labels: [],
        aliases: [],
        picture: null,
        humidity_entity_id: null,
        temperature_entity_id: null,
        created_at: registeredAt,
        modified_at: registeredAt,
        ...extra,
      });
      return areaId;
    },
    label(labelId: string, name: string, extra: Partial<LabelRegistryEntry> = {}): string {
      labels.push({
        label_id: labelId,
        name,
        color: null,
        icon: null,
        description: null,
        created_at: registeredAt,
        modified_at: registeredAt,
        ...extra,
      });
      return labelId;
    },
    device(spec: DeviceSpec): string {
      const id = hexId(`device:${spec.key}`);
      const serial = hexId(`serial:${spec.key}`).slice(0, 12).toUpperCase();
      const ieee = spec.connection === "zigbee" ? address(`ieee:${spec.key}`, 8) : undefined;
      const mac = spec.connection === "mac" ? address(`mac:${spec.key}`, 6) : undefined;
      const via = spec.via ? devices.get(spec.via) : undefined;
      if (spec.via && !via) throw new Error(`device ${spec.key}: via device ${spec.via} not defined yet`);
      const entry = configEntry(spec.integration);
      devices.set(spec.key, {
        id,
        name: spec.name,
        name_by_user: spec.name_by_user ?? null,
        manufacturer: spec.manufacturer,
        model: spec.model,
        model_id: spec.model_id ?? null,
        sw_version: spec.sw_version ?? null,
        hw_version: spec.hw_version ?? null,
        serial_number: spec.entry_type ? null : serial,
        area_id: spec.area ?? null,
        labels: spec.labels ?? [],
        disabled_by: spec.disabled_by ?? null,
        entry_type: spec.entry_type ?? null,
        via_device_id: via?.id ?? null,
        config_entries: [entry],
        primary_config_entry: entry,
        configuration_url: spec.configuration_url ?? null,
        connections: ieee ? [["zigbee", ieee]] : mac ? [["mac", mac]] : [],
        identifiers: [[spec.integration, ieee ?? serial]],
        created_at: registeredAt,
        modified_at: registeredAt,
      });
      return id;
    },
    entity(spec: EntitySpec): void {
      const device = spec.device ? devices.get(spec.device) : undefined;
      if (spec.device && !device) throw new Error(`entity ${spec.entity_id}: device ${spec.device} not defined`);
      const domain = spec.entity_id.split(".")[0] ?? "";
      const platform = spec.platform ?? (spec.device ? (device?.identifiers?.[0]?.[0] ?? domain) : domain);
      const uniqueId = spec.uniqueId === undefined ? hexId(`unique:${spec.entity_id}`).slice(0, 20) : spec.uniqueId;
      const entry: EntityRegistryEntry = {
        entity_id: spec.entity_id,
        id: hexId(`entity:${spec.entity_id}`),
        unique_id: uniqueId,
        platform,
        device_id: device?.id ?? null,
        area_id: spec.area ?? null,
        config_entry_id: device?.config_entries[0] ?? (platform === domain ? null : configEntry(platform)),
        disabled_by: spec.disabledBy ?? null,
        hidden_by: spec.hiddenBy ?? null,
        entity_category: spec.category ?? null,
        has_entity_name: spec.hasEntityName ?? device !== undefined,
        name: spec.userName ?? null,
        original_name: spec.name === undefined ? null : spec.name,
        icon: null,
        labels: spec.labels ?? [],
        categories: {},
        options: Object.fromEntries(
          Object.entries(spec.expose ?? {}).map(([assistant, value]) => [assistant, { should_expose: value }]),
        ),
        translation_key: spec.translationKey ?? null,
        device_class: null,
        original_device_class: spec.deviceClass ?? null,
        created_at: registeredAt,
        modified_at: registeredAt,
      };
      if (uniqueId !== null) entities.push(entry);
      else if (spec.expose) exposure[spec.entity_id] = { ...spec.expose };
      if (entry.disabled_by !== null) return;
      const changed = options.now - (spec.changedAgo ?? 60) * 60 - (hash(`t:${spec.entity_id}`).readUInt16BE(0) % 997) / 1000;
      const updated = spec.updatedAgo === undefined ? changed : Math.max(changed, options.now - spec.updatedAgo * 60);
      const attributes: Record<string, unknown> = { ...spec.attributes };
      if (spec.icon) attributes.icon = spec.icon;
      const name = friendlyName(entry, device);
      const features = attributes.supported_features;
      delete attributes.supported_features;
      if (name !== null) attributes.friendly_name = name;
      if (features !== undefined) attributes.supported_features = features;
      states.push({
        entity_id: spec.entity_id,
        state: spec.state,
        attributes,
        last_changed: isoFromEpoch(changed),
        last_updated: isoFromEpoch(updated),
        context: { id: ulidAt(`context:${spec.entity_id}`, updated), parent_id: null, user_id: null },
      });
    },
    build(): HomeSnapshot {
      return { states, entities, devices: [...devices.values()], areas, labels, exposure };
    },
  };
}

export type HomeBuilder = ReturnType<typeof createHomeBuilder>;
