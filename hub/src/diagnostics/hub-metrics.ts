import type { BridgeService } from "../bridges/bridge-service.ts";
import type { HomeAssistantService } from "../home-assistant/home-assistant-service.ts";
import type { LogRing } from "../logs/log-ring.ts";
import type { MetricsSources } from "../metrics/metrics-sources.ts";

/**
 * `/api/metrics`'s sources over the live services: read at scrape time, so never stale (metrics-sources.ts).
 * `startedAt` is the epoch ms the hub started serving.
 */
export function metricsSources(services: {
  startedAt: number;
  bridges: BridgeService;
  homeAssistant: HomeAssistantService;
  logRing: LogRing;
}): MetricsSources {
  const { startedAt, bridges, homeAssistant, logRing } = services;
  return {
    uptimeSeconds: () => (Date.now() - startedAt) / 1000,
    bridges: () =>
      bridges.list().map((b) => ({
        id: b.id,
        name: b.name,
        status: b.status,
        deviceCount: b.deviceCount,
        fabricCount: b.commissioning.fabrics.length,
        reconciliations: bridges.reconciliations(b.id),
      })),
    homeAssistant: () => ({
      connected: homeAssistant.client.status.connected,
      reconnects: homeAssistant.client.status.reconnects,
      stateEvents: homeAssistant.model.stateEvents,
      serviceCalls: homeAssistant.actions.stats.calls,
      serviceCallFailures: homeAssistant.actions.stats.failures,
      registryEvents: homeAssistant.registryStats.events,
      registryReads: homeAssistant.registryStats.reads,
    }),
    logCounts: () => logRing.counts(),
  };
}
