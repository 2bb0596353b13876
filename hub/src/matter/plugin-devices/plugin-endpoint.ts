/**
 * Plugin devices as matter.js endpoints: a device type key plus cluster data become an Endpoint with stock cluster
 * servers and BridgedDeviceBasicInformation; a built-in's {@link BuiltinEndpoint} becomes its device kind's endpoint
 * (its own initial state, overridden by any cluster data given). Every change that is not the plugin's own is
 * reported after it commits (so a plugin never runs inside a Matter transaction and may push state back at once): a
 * controller's write or command, and what the stock servers do later on a controller's behalf (OnWithTimedOff's off
 * when OnTime runs out, a scene applied after its transition). The plugin's own updates are never reported back to it.
 */
import { type Behavior, Endpoint, type MutableEndpoint } from "@matter/main";
import { BridgedDeviceBasicInformationServer } from "@matter/main/behaviors/bridged-device-basic-information";
import { cutUtf8 } from "../matter-strings.ts";
import type { CameraDeviceParts } from "./camera-endpoint.ts";
import { type Attributes, CLUSTER_SERVERS, isPluginClusterId } from "./cluster-servers.ts";
import { isPluginDeviceType, PLUGIN_DEVICE_TYPES } from "./device-types.ts";
import type { BuiltinEndpoint, PluginDeviceSpec } from "./seam.ts";

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
export async function createPluginEndpoint(spec: PluginDeviceSpec): Promise<Endpoint> {
  const clusters = checkPluginDevice(spec);
  const state: Record<string, Attributes> = {};
  let type: MutableEndpoint;
  if (spec.deviceType !== undefined) {
    const key = spec.deviceType;
    const servers = [...clusters].map(([id, attributes]) => CLUSTER_SERVERS[id]!.server(attributes, key));
    type = PLUGIN_DEVICE_TYPES[key as keyof typeof PLUGIN_DEVICE_TYPES].device.with(...servers);
    for (const [id, attributes] of clusters) state[id] = { ...CLUSTER_SERVERS[id]!.defaults(attributes, key), ...attributes };
  } else {
    const parts = await builtinEndpoint(spec.endpointType!);
    type = parts.endpointType;
    for (const { clusterId, attributes } of parts.clusters) state[clusterId] = { ...attributes };
    for (const [id, attributes] of clusters) state[id] = { ...state[id], ...attributes };
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

/**
 * The endpoint type and initial state of a built-in's device kind. The camera's clusters (AV streams, WebRTC, zones)
 * are loaded with the first camera: a hub without one never holds them.
 */
async function builtinEndpoint(endpoint: BuiltinEndpoint): Promise<CameraDeviceParts> {
  if (endpoint.kind === "camera") return (await import("./camera-endpoint.ts")).cameraDevice(endpoint.backend);
  throw new PluginDeviceError(`unknown built-in device kind "${String((endpoint as { kind?: unknown }).kind)}"`);
}

type ChangeObserver = { on(handler: (...args: unknown[]) => void): void; off(handler: (...args: unknown[]) => void): void };

/** Transactions of the plugin's own updates ({@link writePluginState}): their changes are not reported to it. */
const pluginUpdates = new WeakSet<object>();

/**
 * Reports every committed change but the plugin's own to `onWrite`, outside matter.js's event dispatch: a
 * controller's, and the stock servers' timed follow-ups of a controller's command, which run without a remote
 * subject (reporting only changes with one left the plugin believing a device on after OnWithTimedOff had switched
 * it off). Returns the function that stops observing.
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
        const transaction = (context as { transaction?: object } | undefined)?.transaction;
        if (transaction !== undefined && pluginUpdates.has(transaction)) return;
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
  const type = endpoint.behaviors.supported[clusterId] as Behavior.Type;
  try {
    await endpoint.act("plugin-update", async (agent) => {
      const transaction = agent.context.transaction;
      pluginUpdates.add(transaction);
      await transaction.begin();
      const behavior = agent.get(type);
      await transaction.addResources(behavior);
      Object.assign(behavior.state as Record<string, unknown>, attributes);
    });
  } catch (error) {
    throw new PluginDeviceError(`could not set ${clusterId} ${JSON.stringify(attributes)}: ${(error as Error).message}`);
  }
}
