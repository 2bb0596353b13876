/**
 * The seam between a Matter bridge and the plugins it hosts (docs/plugins.md). The bridge runtime builds a
 * {@link PluginBridgeSeam} for itself and hands it to the plugin host factory of its deps; the host never sees a
 * matter.js type: devices go in as plain {@link PluginDeviceSpec}s and come back as {@link MountedPluginDevice}s.
 */
import type { DeviceTypeKey } from "../model/contract.ts";
import type { CameraDeviceBackend } from "./camera-backend.ts";

/**
 * A device only built-in plugins may register (it has no device type key in the plugin API), in plain parts: the
 * Matter side builds the endpoint (plugin-endpoint.ts), so no matter.js type ever leaves `hub/src/matter`. Built-ins
 * get it from `BuiltinServices` (`hub/src/plugins/builtin-services.ts`).
 */
export interface BuiltinEndpoint {
  /** A Matter Camera (0x0142) whose live view and snapshots are delegated to `backend` (camera-endpoint.ts). */
  readonly kind: "camera";
  readonly backend: CameraDeviceBackend;
}

/** A plugin device as the Matter side needs it. */
export interface PluginDeviceSpec {
  /** Stable endpoint id (`p-<plugin>-<device>`): matter.js keeps the endpoint number per id. */
  endpointId: string;
  name: string;
  /** A device type key of the plugin API (exactly one of this and `endpointType`). */
  deviceType?: string | undefined;
  /** A device of a built-in plugin, built by the Matter side. */
  endpointType?: BuiltinEndpoint | undefined;
  clusters: { clusterId: string; attributes: Record<string, unknown> }[];
  /** BridgedDeviceBasicInformation: a stable 32-character id, the plugin as vendor, its package as product. */
  uniqueId: string;
  vendorName: string;
  productName: string;
  /** Called (not awaited) after a controller changed an attribute. */
  onWrite(clusterId: string, attribute: string, value: unknown): void;
}

/** A device on the bridge. */
export interface MountedPluginDevice {
  readonly endpointId: string;
  /** The Matter endpoint number (stable for the endpoint id). */
  readonly endpointNumber: number | undefined;
  update(clusterId: string, attributes: Record<string, unknown>): Promise<void>;
  /** Takes the endpoint off the bridge; its number stays reserved for the id. */
  unmount(): Promise<void>;
}

/** What a bridge offers its plugin host. */
export interface PluginBridgeSeam {
  readonly bridgeId: string;
  /** Read at every start: a Server Mode bridge hosts no plugins. */
  serverMode(): boolean;
  /** True while the bridge's Matter node runs (devices can only be mounted then). */
  running(): boolean;
  mount(spec: PluginDeviceSpec): Promise<MountedPluginDevice>;
  /** Plugin domain mappings of these domains changed: re-evaluate their entities. */
  remapDomains(domains: readonly string[]): Promise<void>;
}

/** The plugin host of one bridge, as the bridge runtime drives it. */
export interface PluginHostForBridge {
  /** After the node started: starts the enabled plugins in the background (never blocks the bridge). */
  start(): void;
  /** Before the node stops: shuts the plugins down (each call time-boxed). */
  stop(reason: string): Promise<void>;
  /** The bridge is deleted. */
  dispose(): Promise<void>;
  /** The device type a plugin mapped this HA domain to, if any. */
  mappingFor(domain: string): DeviceTypeKey | undefined;
}

/** Builds the plugin host of a bridge (MatterBridgeDeps.plugins). */
export type PluginHostFactory = (seam: PluginBridgeSeam) => PluginHostForBridge;
