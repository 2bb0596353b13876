import type { Logger } from "../../lib/logger.ts";
import type { BasicAuth } from "./auth/basic-auth.ts";
import type { BridgeService } from "./bridges/bridge-service.ts";
import type { HubConfig } from "./config.ts";
import type { DiagnosticBus } from "./diagnostics/diagnostic-bus.ts";
import type { HealthSources } from "./diagnostics/health-status.ts";
import type { EntityMappingStore } from "./entity-mappings/entity-mapping-store.ts";
import type { HomeAssistantService } from "./home-assistant/home-assistant-service.ts";
import type { LiveChannel } from "./live/live-channel.ts";
import type { LockCredentialService } from "./lock-credentials/lock-credential-service.ts";
import type { LogRing } from "./logs/log-ring.ts";
import type { MetricsSources } from "./metrics/metrics-sources.ts";
import type { PluginService } from "./plugins/plugin-service.ts";
import type { RecoveryService } from "./recovery/recovery-service.ts";
import type { HeapSource } from "./system/heap-watch.ts";

/**
 * The hub's small typed context: built once (hub.ts) and passed down. No module keeps its own singleton; tests
 * build the same context around a simulator and temporary folders.
 */
export interface HubContext {
  readonly config: HubConfig;
  readonly log: Logger;
  readonly version: string;
  /** Epoch ms when the process started serving. */
  readonly startedAt: number;
  readonly health: HealthSources;
  /** The link to Home Assistant and the in-memory model of its states and registries. */
  readonly homeAssistant: HomeAssistantService;
  readonly bridges: BridgeService;
  readonly mappings: EntityMappingStore;
  readonly lockCredentials: LockCredentialService;
  /** Installed plugin packages, built-ins, and the plugin host of each bridge (`/api/plugins`). */
  readonly plugins: PluginService;
  readonly diagnostics: DiagnosticBus;
  readonly recovery: RecoveryService;
  readonly live: LiveChannel;
  /** Restarts the hub in-process (after a restore). */
  readonly requestRestart: () => unknown;
  readonly logs: LogRing;
  readonly auth: BasicAuth;
  readonly metrics: MetricsSources;
  /** The JavaScript heap's limit and use, watched for running low (system/heap-watch.ts); V8's unless a test fakes it. */
  readonly heap: HeapSource;
}
