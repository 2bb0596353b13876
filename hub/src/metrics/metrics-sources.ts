import type { LogLevel } from "../../../lib/logger.ts";

/** A bridge's state as its record reports it (runtime contract). */
export type BridgeStatus = "starting" | "running" | "stopped" | "failed";

export interface BridgeMetrics {
  id: string;
  name: string;
  status: BridgeStatus;
  deviceCount: number;
  fabricCount: number;
  /** Reconciliation passes made for Home Assistant and mapping changes (a registry burst is one). */
  reconciliations: number;
}

/** Counters since the process started; `connected` is the link's state right now. */
export interface HomeAssistantMetrics {
  connected: boolean;
  reconnects: number;
  stateEvents: number;
  serviceCalls: number;
  serviceCallFailures: number;
  /** Registry events received (entity, device, area, label). */
  registryEvents: number;
  /** Registry commands sent to read those changes back (one per burst and registry, see registry-sync.ts). */
  registryReads: number;
}

/**
 * Where metrics come from. Every function is called at request (scrape) time, so values are never stale;
 * diagnostics/hub-metrics.ts wires them to the live services. They must be cheap and synchronous.
 */
export interface MetricsSources {
  uptimeSeconds(): number;
  bridges(): readonly BridgeMetrics[];
  homeAssistant(): HomeAssistantMetrics;
  /** Stored log lines per level (the log ring), when available. */
  logCounts?(): Record<LogLevel, number>;
}

export interface MemorySnapshot {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
}

/** The body of `GET /api/metrics`. */
export interface MetricsSnapshot {
  uptime: number;
  memory: MemorySnapshot;
  bridges: {
    total: number;
    starting: number;
    running: number;
    stopped: number;
    failed: number;
    devices: number;
    fabrics: number;
  };
  homeAssistant: HomeAssistantMetrics;
  logs?: Record<LogLevel, number>;
  timestamp: string;
}

export function memorySnapshot(): MemorySnapshot {
  const { rss, heapUsed, heapTotal, external } = process.memoryUsage();
  return { rss, heapUsed, heapTotal, external };
}
