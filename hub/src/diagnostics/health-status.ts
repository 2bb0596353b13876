import type { BridgeService } from "../bridges/bridge-service.ts";
import type { HomeAssistantService } from "../home-assistant/home-assistant-service.ts";

export type HealthStatus = "healthy" | "degraded" | "unhealthy";

export interface BridgeCounts {
  total: number;
  running: number;
  stopped: number;
  failed: number;
}

/** What the health record reports about the services the hub depends on. */
export interface HealthSources {
  homeAssistant(): { connected: boolean; fatal?: string | undefined };
  bridges(): BridgeCounts;
}

/** Unhealthy: HA refused us for good, or every bridge failed. Degraded: HA away, or some bridge failed. */
export function overallStatus(
  ha: { connected: boolean; fatal?: string | undefined },
  bridges: { total: number; failed: number },
): HealthStatus {
  if (ha.fatal || (bridges.total > 0 && bridges.failed === bridges.total)) return "unhealthy";
  if (!ha.connected || bridges.failed > 0) return "degraded";
  return "healthy";
}

/** The health record's bridge counts; `starting` counts as stopped (not yet serving). */
export function countBridges(list: readonly { status: string }[]): BridgeCounts {
  const counts = { total: 0, running: 0, stopped: 0, failed: 0 };
  for (const { status } of list) {
    counts.total++;
    if (status === "running") counts.running++;
    else if (status === "failed") counts.failed++;
    else counts.stopped++;
  }
  return counts;
}

/** The health record's sources over the live services (hub.ts wires them; tests may pass their own). */
export function healthSources(services: { bridges: BridgeService; homeAssistant: HomeAssistantService }): HealthSources {
  const { bridges, homeAssistant } = services;
  return {
    homeAssistant: () => ({ connected: homeAssistant.client.status.connected, fatal: homeAssistant.client.status.fatal }),
    bridges: () => countBridges(bridges.list()),
  };
}
