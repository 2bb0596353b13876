/**
 * Mounting plugin devices on a running BridgeNode, and the domain lookup with plugin mappings. Used by the bridge
 * runtime's plugin seam only.
 */
import type { Endpoint } from "@matter/main";
import { allowedOverrides, DOMAIN_TABLE, mapEntity } from "../devices/domain-table.ts";
import type { DeviceTypeKey, EntitySnapshot, MappingDecision } from "../model/contract.ts";
import { isPluginDeviceType, PLUGIN_DEVICE_TYPES } from "./device-types.ts";
import { createPluginEndpoint, observeControllerChanges, PluginDeviceError, writePluginState } from "./plugin-endpoint.ts";
import type { MountedPluginDevice, PluginDeviceSpec } from "./seam.ts";

/**
 * What mounting needs of a running bridge node (matter/bridge/node.ts's BridgeNode has it). Structural, so this
 * folder does not import the bridge folder, which imports it.
 */
export interface DeviceHost {
  addDevice(endpoint: Endpoint): Promise<unknown>;
  removeDevice(id: string): Promise<boolean>;
}

/** Adds the device to the node (live) and starts reporting controller changes to `spec.onWrite`. */
export async function mountPluginDevice(node: DeviceHost, spec: PluginDeviceSpec): Promise<MountedPluginDevice> {
  const endpoint = await createPluginEndpoint(spec);
  try {
    await node.addDevice(endpoint);
  } catch (error) {
    await node.removeDevice(spec.endpointId).catch(() => undefined);
    throw new PluginDeviceError(`device "${spec.name}" could not mount: ${innermost(error)}`);
  }
  const stopObserving = observeControllerChanges(endpoint, (clusterId, attribute, value) =>
    spec.onWrite(clusterId, attribute, value),
  );
  return {
    endpointId: spec.endpointId,
    get endpointNumber() {
      return endpoint.maybeNumber;
    },
    update: (clusterId, attributes) => writePluginState(endpoint, clusterId, attributes),
    async unmount() {
      stopObserving();
      await node.removeDevice(spec.endpointId);
    },
  };
}

/** matter.js wraps the useful message ("Validating …: Value 0 is not within bounds") in causes and aggregates. */
function innermost(error: unknown): string {
  let current = error as { message?: string; cause?: unknown; errors?: unknown[] } | undefined;
  for (let depth = 0; depth < 6 && current; depth++) {
    const next = (current.errors?.[0] ?? current.cause) as typeof current;
    if (!next?.message) break;
    current = next;
  }
  return current?.message ?? String(error);
}

/**
 * docs/plugins.md "Domain mappings": the user's override, then plugin mappings, then the built-in table. Plugin
 * mappings apply only to domains the hub does not handle; for such a domain a user override may pick any plugin
 * device type key.
 */
export function resolveEntityMapping(
  snapshot: EntitySnapshot,
  override: DeviceTypeKey | null,
  pluginMapping: (domain: string) => DeviceTypeKey | undefined,
): MappingDecision {
  if (Object.hasOwn(DOMAIN_TABLE, snapshot.domain)) return mapEntity(snapshot, override);
  const mapped = pluginMapping(snapshot.domain);
  if (mapped === undefined) return mapEntity(snapshot, override);
  if (override !== null && isPluginDeviceType(override)) return { key: override };
  return { key: mapped };
}

/**
 * The device types a user override may choose for this entity, by the same rules as {@link resolveEntityMapping}:
 * the table's choices for a domain the hub handles, any plugin device type for a domain a plugin maps, else none.
 */
export function allowedDeviceTypes(
  snapshot: EntitySnapshot,
  pluginMapping: (domain: string) => DeviceTypeKey | undefined,
): readonly DeviceTypeKey[] {
  if (Object.hasOwn(DOMAIN_TABLE, snapshot.domain) || pluginMapping(snapshot.domain) === undefined) {
    return allowedOverrides(snapshot.domain, snapshot.state);
  }
  return Object.keys(PLUGIN_DEVICE_TYPES) as DeviceTypeKey[];
}
