import type { CommissioningInfo } from "../matter/bridge-commissioning.ts";
import type { BridgeConfig } from "./bridge-config.ts";

export type BridgeStatus = "starting" | "running" | "stopped" | "failed";

export type { CommissioningInfo, FabricInfo } from "../matter/bridge-commissioning.ts";

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
}

/**
 * What the bridge service needs from a running bridge; the Matter implementation lives in
 * `hub/src/matter/` and tests may substitute their own.
 */
export interface BridgeRuntime {
  readonly status: BridgeStatus;
  readonly statusReason: string | null;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Re-evaluate the filter and mappings without a restart. */
  refresh(): Promise<void>;
  /** Push every current state to the controllers again. */
  forceSync(): Promise<void>;
  /** Remove every fabric; the bridge comes back with fresh pairing codes. */
  factoryReset(passcode: number, discriminator: number): Promise<void>;
  openCommissioningWindow(
    timeoutSeconds: number,
  ): Promise<{ manualPairingCode: string; qrPairingCode: string; timeoutSeconds: number }>;
  commissioning(): CommissioningInfo;
  devices(): BridgeDeviceInfo[];
  deviceCount(): number;
  /** Apply a changed configuration (name, filter…) without restarting where possible. */
  reconfigure(config: BridgeConfig): Promise<void>;
  /** Release everything (bridge deleted); storage removal is the caller's job. */
  dispose(): Promise<void>;
}

export type BridgeRuntimeFactory = (config: BridgeConfig, onChange: () => void) => BridgeRuntime;
