/**
 * The hub's response shapes as the UI uses them. Where the hub has a type, it comes from the hub's contract
 * (`hub/src/contract.ts`, type-only here), so `tsc` flags any drift between server and UI. Shapes of endpoints still being built follow the spec and
 * are kept loose on purpose.
 */

import type {
  AuthStatus,
  BridgeAction,
  BridgeDeviceInfo,
  BridgeFilter,
  BridgeStatus,
  CarriedPart,
  CommissioningInfo,
  CompanionRole,
  ControllerEntry,
  ControllerWarning,
  CreateBridge,
  DetailedHealth,
  DeviceTypeChoices,
  DeviceTypeKey,
  DiagnosticEvent,
  DiagnosticType,
  EndpointInspection,
  EntityMapping,
  FabricInfo,
  FilterRule,
  FilterRuleType,
  ForceSyncReport,
  HaEntity,
  ImportPreview,
  InspectedAttribute,
  InspectedChange,
  InspectedCluster,
  LeftOut,
  LockCredentialView,
  LogEntry,
  LogLevel,
  MetricsSnapshot,
  PluginDeviceInfo,
  RestorePreview,
  SplitBy,
  SplitProposal,
  SystemInfo,
} from "../../../../hub/src/contract.ts";

export type {
  AuthStatus,
  BridgeAction,
  BridgeDeviceInfo,
  BridgeFilter,
  BridgeStatus,
  CarriedPart,
  CommissioningInfo,
  CompanionRole,
  ControllerWarning,
  DetailedHealth,
  DeviceTypeChoices,
  DeviceTypeKey,
  DiagnosticEvent,
  DiagnosticType,
  EndpointInspection,
  EntityMapping,
  FabricInfo,
  FilterRule,
  FilterRuleType,
  ForceSyncReport,
  HaEntity,
  ImportPreview,
  InspectedAttribute,
  InspectedChange,
  InspectedCluster,
  LeftOut,
  LogEntry,
  LogLevel,
  MetricsSnapshot,
  PluginDeviceInfo,
  RestorePreview,
  SplitBy,
  SplitProposal,
  SystemInfo,
};

/** A bridge record (list, get, create, update, `bridges_update`/`bridge_update` payloads). */
export interface Bridge extends CreateBridge {
  id: string;
  status: BridgeStatus;
  statusReason: string | null;
  deviceCount: number;
  commissioning: CommissioningInfo;
  createdAt?: string;
  updatedAt?: string;
  /** The controllers it is meant for (absent from a hub before controller limits). */
  controllers?: string[];
  leaveOutUnsupported?: boolean;
  /** What the chosen controllers say about it (absent from a hub before controller limits). */
  controllerWarnings?: ControllerWarning[];
}

/** What the create/edit form sends. */
export type BridgeInput = Pick<
  Bridge,
  "name" | "port" | "filter" | "priority" | "serverMode" | "composeDevices" | "autoStart"
> & {
  controllers: string[];
  leaveOutUnsupported: boolean;
};

/** One controller of `GET /api/matter/controllers`: its limits and known gaps with their sources. */
export type ControllerInfo = ControllerEntry & { id: string };

export interface EntityPage {
  entities: HaEntity[];
  total: number;
  limit: number;
  offset: number;
}

export interface FilterPreview {
  total: number;
  entities: HaEntity[];
  truncated: boolean;
  /** Entities the rules select that Home Assistant hides or disables, left out of `total` (absent on older hubs). */
  leftOut?: LeftOut;
  /** Matter devices the bridge would expose, entities composed into them, entities skipped (absent on older hubs). */
  devices?: { exposed: number; composed: number; skipped: number };
  warnings?: ControllerWarning[];
}

/** What the preview needs besides the filter: the form's settings that change what a bridge exposes. */
export interface PreviewSettings {
  bridgeId?: string;
  controllers: string[];
  leaveOutUnsupported: boolean;
  composeDevices: boolean;
  serverMode: boolean;
  /** Absent while the form's port field holds no number. */
  port?: number;
}

export interface FilterValue {
  value: string;
  count?: number;
  name?: string;
}

export interface FilterValues {
  ruleTypes: FilterRuleType[];
  domains: FilterValue[];
  platforms: FilterValue[];
  entityCategories: FilterValue[];
  deviceClasses: FilterValue[];
  labels: FilterValue[];
  areas: FilterValue[];
  devices: FilterValue[];
  /** `exposed_to` values: HA's known assistants (always), then others entities are exposed to; with counts. */
  assistants: FilterValue[];
}

export interface Health {
  status: "healthy" | "degraded" | "unhealthy";
  version: string;
  uptime: number;
  timestamp: string;
  demo?: boolean;
  services: {
    homeAssistant: { connected: boolean; error?: string };
    bridges: { total: number; running: number; stopped: number; failed: number };
  };
}

export interface HaStats {
  connected: boolean;
  connection: {
    state: string;
    haVersion: string | null;
    error: string | null;
    lastConnectedAt: string | null;
    reconnects: number;
  };
  entities: { total: number; withState: number; registered: number; unavailable: number };
  devices: number;
  areas: number;
  labels: number;
  domains: number;
  lastUpdated: string | null;
}

export interface LogPage {
  logs: LogEntry[];
  total: number;
}

export interface RecoverySettings {
  autoRecoveryEnabled: boolean;
  recoveryIntervalMs: number;
}

/** `GET /api/lock-credentials`: one row per lock that has a PIN (never the PIN itself). */
export type LockCredential = LockCredentialView;

/** Open-commissioning-window answer: the new codes for one more controller. */
export interface CommissioningWindow {
  manualPairingCode: string;
  qrPairingCode: string;
  timeoutSeconds?: number;
  expiresAt?: string;
}
