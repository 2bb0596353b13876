import type { BridgeDeviceInfo, CarriedPart, PluginDeviceInfo } from "../../bridges/bridge-runtime.ts";
import type { HomeAssistantModel } from "../../home-assistant/ha-model.ts";
import type { CompanionRole } from "../model/contract.ts";
import { hasValue, numericState, unitOf } from "../model/ha-state.ts";
import type { CompanionIds } from "./composition.ts";

/** What the device list needs to know about an exposed entity. */
export interface ExposedDevice {
  endpointId: string;
  key: string;
  name: string;
  endpoint: { maybeNumber?: number | undefined };
  /** Companion entities composed into the endpoint, by role. */
  companions?: CompanionIds;
}

type Reasons = ReadonlyMap<string, { name: string; reason: string }>;

/**
 * The kinds of entity a bridge knows about: exposed, skipped with a reason, failed with a reason, and composed into
 * another entity's endpoint.
 */
export interface DeviceSets {
  exposed: ReadonlyMap<string, ExposedDevice>;
  skipped: Reasons;
  failed: Reasons;
  composed?: ReadonlyMap<string, { name: string; into: string }>;
}

const BINARY_ROLES: ReadonlySet<CompanionRole> = new Set(["battery_low", "battery_charging"]);

/** What the device list shows of each companion: HA's value and unit, read now. */
function carriedParts(model: HomeAssistantModel, companions: CompanionIds | undefined): CarriedPart[] {
  return (Object.entries(companions ?? {}) as [CompanionRole, string][]).map(([role, entityId]) => {
    const state = model.states.get(entityId);
    if (BINARY_ROLES.has(role)) return { entityId, role, value: hasValue(state) ? state.state === "on" : null, unit: null };
    return { entityId, role, value: numericState(state) ?? null, unit: unitOf(state) ?? null };
  });
}

/**
 * One row of `GET /api/matter/bridges/:id/devices` (and of a live `device_update`): the exposed entity with its Matter
 * endpoint, or a skipped or failed one with the reason; undefined when the bridge does not know the entity.
 */
export function deviceRow(model: HomeAssistantModel, sets: DeviceSets, entityId: string): BridgeDeviceInfo | undefined {
  const state = model.states.get(entityId);
  const device = sets.exposed.get(entityId);
  if (device) {
    return {
      entityId,
      name: device.name,
      deviceType: device.key,
      endpointId: device.endpointId,
      endpointNumber: device.endpoint.maybeNumber ?? null,
      reachable: state !== undefined && state.state !== "unavailable",
      state: state?.state ?? null,
      skipped: null,
      failed: null,
      carries: carriedParts(model, device.companions),
      composedInto: null,
    };
  }
  const composed = sets.composed?.get(entityId);
  if (composed) {
    return {
      entityId,
      name: composed.name,
      deviceType: null,
      endpointId: null,
      endpointNumber: null,
      reachable: state !== undefined && state.state !== "unavailable",
      state: state?.state ?? null,
      skipped: null,
      failed: null,
      carries: [],
      composedInto: composed.into,
    };
  }
  const skipped = sets.skipped.get(entityId);
  const failed = skipped ? undefined : sets.failed.get(entityId);
  const unexposed = skipped ?? failed;
  if (!unexposed) return undefined;
  return {
    entityId,
    name: unexposed.name,
    deviceType: null,
    endpointId: null,
    endpointNumber: null,
    reachable: false,
    state: state?.state ?? null,
    skipped: skipped ? skipped.reason : null,
    failed: failed ? failed.reason : null,
    carries: [],
    composedInto: null,
  };
}

/** Every row, sorted by entity id. */
export function deviceRows(model: HomeAssistantModel, sets: DeviceSets): BridgeDeviceInfo[] {
  const ids = new Set([...sets.exposed.keys(), ...sets.skipped.keys(), ...sets.failed.keys(), ...(sets.composed?.keys() ?? [])]);
  return [...ids]
    .sort()
    .map((entityId) => deviceRow(model, sets, entityId))
    .filter((row) => row !== undefined);
}

/** A device a plugin put on the bridge (no HA entity behind it). */
export interface MountedPluginRow {
  name: string;
  deviceType: string | null;
  plugin: string;
  endpointNumber: () => number | undefined;
}

/** The plugin devices of a bridge, sorted by plugin and endpoint id. */
export function pluginDeviceRows(mounted: ReadonlyMap<string, MountedPluginRow>): PluginDeviceInfo[] {
  return [...mounted]
    .map(([endpointId, device]) => ({
      endpointId,
      name: device.name,
      deviceType: device.deviceType,
      plugin: device.plugin,
      endpointNumber: device.endpointNumber() ?? null,
    }))
    .sort((a, b) => a.plugin.localeCompare(b.plugin) || a.endpointId.localeCompare(b.endpointId));
}
