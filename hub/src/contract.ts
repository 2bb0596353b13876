/**
 * The hub's contract with its web UI (`web/hub`): the response shapes and the few constants the UI needs, in one
 * module, so `web/` imports nothing else from `hub/src` and `tsc` flags any drift between server and UI.
 *
 * What may go in here: type re-exports and types derived from server code (erased from the browser bundle), and
 * value re-exports only from leaf modules that hold plain constants and import nothing at run time (such as
 * `bridges/bridge-actions.ts`). Never a runtime import of a service, route or library: Vite would bundle it into the
 * browser. Server code does not import this module; it imports the leaf modules directly.
 */

import type { BridgeTransfer } from "./bridge-export/bridge-transfer.ts";
import type { detailedHealth } from "./health/detailed-health.ts";
import type { entityRecord } from "./home-assistant/entity-view.ts";

export type { LogLevel } from "../../lib/logger.ts";
export type { AuthStatus } from "./auth/basic-auth.ts";
export type { RestorePreview } from "./backup/restore-preview.ts";
export { BRIDGE_ACTIONS, type BridgeAction } from "./bridges/bridge-actions.ts";
export type { CreateBridge } from "./bridges/bridge-config.ts";
export type {
  BridgeDeviceInfo,
  BridgeStatus,
  CarriedPart,
  CommissioningInfo,
  FabricInfo,
  ForceSyncReport,
  PluginDeviceInfo,
} from "./bridges/bridge-runtime.ts";
export type { SplitBy, SplitGroup } from "./bridges/bridge-split.ts";
export type { ControllerWarning } from "./bridges/controller-checks.ts";
export type { ControllerEntry, DeviceTypeGap, LimitSource } from "./bridges/controller-limits.ts";
export type {
  EndpointInspection,
  InspectedAttribute,
  InspectedChange,
  InspectedCluster,
} from "./bridges/endpoint-inspection.ts";
export type { BridgeFilter, FilterRule, FilterRuleType, LeftOut } from "./bridges/filter.ts";
export type { SplitProposal } from "./bridges/split-actions.ts";
export type { DiagnosticEvent, DiagnosticType } from "./diagnostics/diagnostic-bus.ts";
export type { EntityMapping } from "./entity-mappings/entity-mapping-store.ts";
export type { DeviceTypeChoices } from "./entity-mappings/entity-mappings.routes.ts";
export { ASSISTANT_ID_PATTERN, KNOWN_ASSISTANTS } from "./home-assistant/assistants.ts";
export type { LockCredentialView } from "./lock-credentials/lock-credential-service.ts";
export type { LogEntry } from "./logs/log-ring.ts";
export type { CompanionRole, DeviceTypeKey } from "./matter/model/contract.ts";
export type { MetricsSnapshot } from "./metrics/metrics-sources.ts";
export type { PluginConfigSchema } from "./plugins/api.ts";
export type { InstallEvent, InstallJobState, InstallJobView } from "./plugins/install-jobs.ts";
export type { SlotInfo } from "./plugins/managed-slot.ts";
export type { InstallPhase } from "./plugins/npm-progress.ts";
export type { InstalledPackage } from "./plugins/package-registry.ts";
export type { SystemInfo } from "./system/system-info.ts";

/** One Home Assistant entity as `/api/home-assistant/entities` and `/api/matter/filter-preview` list it. */
export type HaEntity = ReturnType<typeof entityRecord>;
/** `GET /api/health/detailed`. */
export type DetailedHealth = ReturnType<typeof detailedHealth>;
/** `POST /api/bridges/import/preview`. */
export type ImportPreview = ReturnType<BridgeTransfer["preview"]>;
