/**
 * Plugin devices as matter.js endpoints: a device type key plus cluster data become an Endpoint with stock cluster
 * servers and BridgedDeviceBasicInformation. Controller-made changes are reported after they commit (so a plugin
 * never runs inside a Matter transaction and may push state back at once); the plugin's own updates are local
 * (offline) actions and are never reported back to it.
 */
import { Endpoint, type MutableEndpoint } from "@matter/main";
import { BridgedDeviceBasicInformationServer } from "@matter/main/behaviors/bridged-device-basic-information";
import { cutUtf8 } from "../matter-strings.ts";
import { type Attributes, CLUSTER_SERVERS, isPluginClusterId } from "./cluster-servers.ts";
import { isPluginDeviceType, PLUGIN_DEVICE_TYPES } from "./device-types.ts";
import type { PluginDeviceSpec } from "./seam.ts";

/** A registration the hub refuses; the message is meant for the plugin author. */
export class PluginDeviceError extends Error {
  override name = "PluginDeviceError";
}

/** Behaviors every bridged endpoint has that a plugin never hears about. */
const INTERNAL = new Set(["descriptor", "identify", "bridgedDeviceBasicInformation"]);

function clusterMap(spec: PluginDeviceSpec): Map<string, Attributes> {
  const clusters = new Map<string, Attributes>();
  for (const { clusterId, attributes } of spec.clusters) {
    if (!spec.endpointType && !isPluginClusterId(clusterId)) {
      throw new PluginDeviceError(
        `device "${spec.name}": unknown cluster id "${clusterId}" (cluster ids are case-sensitive matter.js behavior ids such as onOff, levelControl, fanControl)`,
      );
    }
    if (typeof attributes !== "object" || attributes === null || Array.isArray(attributes)) {
      throw new PluginDeviceError(`device "${spec.name}": the attributes of cluster ${clusterId} must be an object`);
    }
    if (clusters.has(clusterId)) throw new PluginDeviceError(`device "${spec.name}": cluster ${clusterId} is listed twice`);
    clusters.set(clusterId, attributes);
  }
  if (spec.deviceType !== undefined) {
    for (const required of PLUGIN_DEVICE_TYPES[spec.deviceType as keyof typeof PLUGIN_DEVICE_TYPES].clusters) {
      if (!clusters.has(required)) clusters.set(required, {});
    }
  }
  return clusters;
}

/** Throws a {@link PluginDeviceError} naming the problem when the registration cannot become an endpoint. */
export function checkPluginDevice(spec: PluginDeviceSpec): Map<string, Attributes> {
  if ((spec.deviceType === undefined) === (spec.endpointType === undefined)) {
    throw new PluginDeviceError(`device "${spec.name}": give exactly one of deviceType or endpointType`);
  }
  if (spec.deviceType !== undefined && !isPluginDeviceType(spec.deviceType)) {
    throw new PluginDeviceError(`device "${spec.name}": unknown deviceType "${spec.deviceType}"`);
  }
  const clusters = clusterMap(spec);
  const fan = clusters.get("fanControl");
  if (fan !== undefined && fan.fanModeSequence === undefined) {
    throw new PluginDeviceError(
      `device "${spec.name}": a fanControl cluster needs fanModeSequence in its initial attributes (e.g. 2 = Off/Low/Med/High/Auto); the endpoint does not mount`,
    );
  }
  return clusters;
}

/** A new, not yet added Endpoint for the registration (checked first). */
export function createPluginEndpoint(spec: PluginDeviceSpec): Endpoint {
  const clusters = checkPluginDevice(spec);
  const state: Record<string, Attributes> = {};
  let type: MutableEndpoint;
  if (spec.deviceType !== undefined) {
    const key = spec.deviceType;
    const servers = [...clusters].map(([id, attributes]) => CLUSTER_SERVERS[id]!.server(attributes, key));
    type = PLUGIN_DEVICE_TYPES[key as keyof typeof PLUGIN_DEVICE_TYPES].device.with(...servers);
    for (const [id, attributes] of clusters) state[id] = { ...CLUSTER_SERVERS[id]!.defaults(attributes, key), ...attributes };
  } else {
    type = spec.endpointType as MutableEndpoint;
    for (const [id, attributes] of clusters) state[id] = { ...attributes };
  }
  state.bridgedDeviceBasicInformation = {
    nodeLabel: cutUtf8(spec.name),
    productName: cutUtf8(spec.productName),
    vendorName: cutUtf8(spec.vendorName),
    uniqueId: spec.uniqueId,
    reachable: true,
  };
  return new Endpoint(type.with(BridgedDeviceBasicInformationServer), { id: spec.endpointId, ...state } as Endpoint.Options);
}

type ChangeObserver = { on(handler: (...args: unknown[]) => void): void; off(handler: (...args: unknown[]) => void): void };

/**
 * Reports every committed change a controller made (the change's context has a remote subject) to `onWrite`, outside
 * matter.js's event dispatch. Returns the function that stops observing.
 */
export function observeControllerChanges(endpoint: Endpoint, onWrite: PluginDeviceSpec["onWrite"]): () => void {
  const stops: (() => void)[] = [];
  const events = endpoint.events as unknown as Record<string, Record<string, ChangeObserver | undefined> | undefined>;
  for (const [id, type] of Object.entries(endpoint.behaviors.supported)) {
    if (INTERNAL.has(id)) continue;
    const attributes = (type as { cluster?: { attributes?: Record<string, unknown> } }).cluster?.attributes ?? {};
    for (const attribute of Object.keys(attributes)) {
      const observable = events[id]?.[`${attribute}$Changed`];
      if (!observable) continue;
      const handler = (value: unknown, _old: unknown, context: unknown) => {
        if ((context as { subject?: unknown } | undefined)?.subject === undefined) return;
        queueMicrotask(() => onWrite(id, attribute, value));
      };
      observable.on(handler as (...args: unknown[]) => void);
      stops.push(() => observable.off(handler as (...args: unknown[]) => void));
    }
  }
  return () => {
    for (const stop of stops.splice(0)) stop();
  };
}

/** Writes attribute values pushed by the plugin (a local action, never reported back as a controller write). */
export async function writePluginState(endpoint: Endpoint, clusterId: string, attributes: Attributes): Promise<void> {
  if (!Object.hasOwn(endpoint.behaviors.supported, clusterId)) {
    const known = Object.keys(endpoint.behaviors.supported).filter(
      (id) => !INTERNAL.has(id) || id === "bridgedDeviceBasicInformation",
    );
    throw new PluginDeviceError(`this device has no cluster "${clusterId}" (it has ${known.join(", ")})`);
  }
  if (typeof attributes !== "object" || attributes === null) throw new PluginDeviceError("attributes must be an object");
  try {
    await endpoint.set({ [clusterId]: attributes } as never);
  } catch (error) {
    throw new PluginDeviceError(`could not set ${clusterId} ${JSON.stringify(attributes)}: ${(error as Error).message}`);
  }
}
