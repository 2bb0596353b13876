import type { CompanionRole, DeviceTypeKey } from "../matter/model/contract.ts";
import type { BridgeConfig } from "./bridge-config.ts";
import type { AttributePath, EndpointInspection, InspectedChange } from "./endpoint-inspection.ts";

export type BridgeStatus = "starting" | "running" | "stopped" | "failed";

/** One fabric (controller ecosystem) the bridge belongs to, as in the bridge record. */
export interface FabricInfo {
  fabricIndex: number;
  vendorId: number;
  label: string;
}

/** The bridge record's `commissioning` object (shared runtime contract), exactly. */
export interface CommissioningInfo {
  commissioned: boolean;
  qrPairingCode: string;
  manualPairingCode: string;
  passcode: number;
  discriminator: number;
  fabrics: FabricInfo[];
}

/** One exposed (or skipped) entity of a bridge, for `GET /bridges/:id/devices`. */
export interface BridgeDeviceInfo {
  entityId: string;
  name: string;
  /** Device type key, or null when skipped. */
  deviceType: string | null;
  endpointId: string | null;
  endpointNumber: number | null;
  reachable: boolean;
  state: string | null;
  /** Why the entity is not exposed (unsupported domain, mapping disabled, failed to build…). */
  skipped: string | null;
  failed: string | null;
  /**
   * What the endpoint carries besides its own entity: the companion entities of the same HA device composed into
   * it (battery, power, energy, …), with their current values; empty when nothing is composed.
   */
  carries: CarriedPart[];
  /** Set when this entity is not a device of its own but part of another entity's endpoint: that entity's id. */
  composedInto: string | null;
}

/** One companion entity composed into an endpoint, as the device list shows it ("contact + battery 84 %"). */
export interface CarriedPart {
  entityId: string;
  role: CompanionRole;
  /** The value as Home Assistant reports it (a number, or on/off for the binary roles); null when unknown. */
  value: number | boolean | null;
  /** HA's unit (`%`, `W`, `kWh`, …); null for the binary roles. */
  unit: string | null;
}

/**
 * What a bridge would do with one entity its filter selects, decided without building anything (the same decisions
 * as a running bridge: entity mapping, device type, composition, controller leave-outs).
 */
export interface PlannedEntity {
  entityId: string;
  name: string;
  /** Device type key when the entity is a device of its own; null when composed into another or skipped. */
  deviceType: string | null;
  /** The entity whose endpoint carries this one, or null. */
  composedInto: string | null;
  /** Why the entity would not be exposed, or null. */
  skipped: string | null;
  /** The roles of the companions its endpoint would carry. */
  carries: CompanionRole[];
}

/**
 * Plans a bridge configuration over Home Assistant's current entities (the filter preview, the controller checks of a
 * stopped bridge, the split proposal). Plugin domain mappings are not consulted: a plan answers for entities only.
 */
export type BridgePlanner = (config: BridgeConfig) => PlannedEntity[];

/** A device a plugin put on the bridge: no Home Assistant entity behind it. */
export interface PluginDeviceInfo {
  endpointId: string;
  name: string;
  /** The plugin API's device type key, or null for a built-in plugin's own endpoint type. */
  deviceType: string | null;
  plugin: string;
  endpointNumber: number | null;
}

/** What a force-sync did. */
export interface ForceSyncReport {
  /** Devices of the bridge checked. */
  devices: number;
  /** Devices whose HA state had changed without the hub hearing of it (now pushed). */
  missedChanges: number;
  /** Attributes that then still differed from HA's state (e.g. changed by a controller) and were set back. */
  correctedAttributes: number;
  /** False when HA was not reachable: the hub's last known state was pushed instead. */
  haStateReread: boolean;
}

/**
 * What the bridge service needs from a running bridge. This folder owns the contract and the Matter side implements
 * it (`hub/src/matter/bridge/runtime.ts`), so imports run one way, from `matter/bridge` to `bridges`: the service,
 * its routes and its tests never load matter.js, and tests may substitute their own runtime.
 */
export interface BridgeRuntime {
  readonly status: BridgeStatus;
  readonly statusReason: string | null;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Re-evaluate the filter and mappings without a restart. */
  refresh(): Promise<void>;
  /**
   * Re-read Home Assistant's state of every device and bring every attribute in line with it (docs/decisions.md,
   * "Force-sync"); controllers get a report for each corrected attribute.
   */
  forceSync(): Promise<ForceSyncReport>;
  /** Remove every fabric; the bridge comes back with fresh pairing codes. */
  factoryReset(passcode: number, discriminator: number): Promise<void>;
  openCommissioningWindow(
    timeoutSeconds: number,
  ): Promise<{ manualPairingCode: string; qrPairingCode: string; timeoutSeconds: number }>;
  commissioning(): CommissioningInfo;
  devices(): BridgeDeviceInfo[];
  /** One entity's row of `devices()`, or undefined when the bridge does not know the entity. */
  device(entityId: string): BridgeDeviceInfo | undefined;
  /** The devices its plugins put on the bridge. */
  pluginDevices(): PluginDeviceInfo[];
  /** Matter devices on the bridge: exposed entities and plugin devices. */
  deviceCount(): number;
  /**
   * Reconciliation passes the running bridge made for Home Assistant and mapping changes since it was created (a
   * registry burst is one pass); metrics.
   */
  reconciliations(): number;
  /**
   * The Matter device types an entity mapping may choose for this entity (its domain, capabilities and this bridge's
   * plugin mappings decide); undefined while Home Assistant has no state for it.
   */
  allowedDeviceTypes(entityId: string): readonly DeviceTypeKey[] | undefined;
  /**
   * The endpoint with this number as controllers read it (the device inspector, docs/inspector.md); undefined when
   * the bridge is not running or has no such endpoint.
   */
  inspect(endpointNumber: number): EndpointInspection | undefined;
  /** The current values of some of an endpoint's attributes (those a watch reported); undefined like {@link inspect}. */
  readAttributes(endpointNumber: number, paths: readonly AttributePath[]): InspectedChange[] | undefined;
  /**
   * Reports the attributes of an endpoint that change, until the returned function is called; undefined like
   * {@link inspect}. A watch ends with the node it watches (a stop or restart): watchers start a new one when the
   * bridge's record changes.
   */
  watchEndpoint(endpointNumber: number, changed: (paths: AttributePath[]) => void): (() => void) | undefined;
  /** Apply a changed configuration (name, filter…) without restarting where possible. */
  reconfigure(config: BridgeConfig): Promise<void>;
  /** Release everything (bridge deleted); storage removal is the caller's job. */
  dispose(): Promise<void>;
}

/**
 * Builds a bridge's runtime. `onChange`: the bridge's record changed (status, devices, fabrics). `onDeviceChange`: one
 * exposed entity's device took a new Home Assistant state (its row of `devices()` changed).
 */
export type BridgeRuntimeFactory = (
  config: BridgeConfig,
  onChange: () => void,
  onDeviceChange: (entityId: string) => void,
) => BridgeRuntime;
