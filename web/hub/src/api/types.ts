/**
 * The hub's response shapes as the UI uses them. Where the hub has a type, it is imported type-only (erased from the
 * bundle), so `tsc` flags any drift between server and UI. Shapes of endpoints still being built follow the spec and
 * are kept loose on purpose.
 */

import type { AuthStatus } from "../../../../hub/src/auth/basic-auth.ts";
import type { RestorePreview } from "../../../../hub/src/backup/restore-preview.ts";
import type { BridgeTransfer } from "../../../../hub/src/bridge-export/bridge-transfer.ts";
import type { CreateBridge } from "../../../../hub/src/bridges/bridge-config.ts";
import type {
  BridgeDeviceInfo,
  BridgeStatus,
  CommissioningInfo,
  FabricInfo,
  ForceSyncReport,
  PluginDeviceInfo,
} from "../../../../hub/src/bridges/bridge-runtime.ts";
import type { BridgeFilter, FilterRule, FilterRuleType } from "../../../../hub/src/bridges/filter.ts";
import type { detailedHealth } from "../../../../hub/src/diagnostics/detailed-health.ts";
import type { DiagnosticEvent } from "../../../../hub/src/diagnostics/diagnostic-bus.ts";
import type { EntityMapping } from "../../../../hub/src/entity-mappings/entity-mapping-store.ts";
import type { entityRecord } from "../../../../hub/src/home-assistant/entity-view.ts";
import type { LockCredentialView } from "../../../../hub/src/lock-credentials/lock-credential-service.ts";
import type { LogEntry } from "../../../../hub/src/logs/log-ring.ts";
import type { DeviceTypeKey } from "../../../../hub/src/matter/devices/contract.ts";
import type { MetricsSnapshot } from "../../../../hub/src/metrics/metrics-sources.ts";
import type { SystemInfo } from "../../../../hub/src/system/system-info.ts";
import type { LogLevel } from "../../../../lib/logger.ts";

export type {
  AuthStatus,
  BridgeDeviceInfo,
  BridgeFilter,
  BridgeStatus,
  CommissioningInfo,
  DeviceTypeKey,
  DiagnosticEvent,
  EntityMapping,
  FabricInfo,
  FilterRule,
  FilterRuleType,
  ForceSyncReport,
  LogEntry,
  LogLevel,
  MetricsSnapshot,
  PluginDeviceInfo,
  RestorePreview,
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
}

/** What the create/edit form sends. */
export type BridgeInput = Pick<Bridge, "name" | "port" | "filter" | "priority" | "serverMode" | "autoStart">;

export type HaEntity = ReturnType<typeof entityRecord>;

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

/** `POST /api/bridges/import/preview`. */
export type ImportPreview = ReturnType<BridgeTransfer["preview"]>;

/** `GET /api/health/detailed`. */
export type DetailedHealth = ReturnType<typeof detailedHealth>;

/** Open-commissioning-window answer: the new codes for one more controller. */
export interface CommissioningWindow {
  manualPairingCode: string;
  qrPairingCode: string;
  timeoutSeconds?: number;
  expiresAt?: string;
}
