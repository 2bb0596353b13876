import { Hono } from "hono";
import { type MetricsSnapshot, type MetricsSources, memorySnapshot } from "./metrics-sources.ts";
import { createPrometheusRegistry } from "./prometheus-registry.ts";

/** Collects the JSON metrics from the sources, now. */
export function metricsSnapshot(sources: MetricsSources): MetricsSnapshot {
  const bridges = { total: 0, starting: 0, running: 0, stopped: 0, failed: 0, devices: 0, fabrics: 0 };
  for (const bridge of sources.bridges()) {
    bridges.total++;
    bridges[bridge.status]++;
    bridges.devices += bridge.deviceCount;
    bridges.fabrics += bridge.fabricCount;
  }
  const logs = sources.logCounts?.();
  return {
    uptime: Math.round(sources.uptimeSeconds()),
    memory: memorySnapshot(),
    bridges,
    homeAssistant: { ...sources.homeAssistant() },
    ...(logs ? { logs } : {}),
    timestamp: new Date().toISOString(),
  };
}

/**
 * `/api/metrics`: the JSON summary (uptime, memory, bridges, Home Assistant link) and the same figures plus
 * Node's process metrics in the Prometheus text format. Call once per process (it builds the registry).
 */
export function metricsRoutes(sources: MetricsSources): Hono {
  const app = new Hono();
  const registry = createPrometheusRegistry(sources);

  app.get("/", (c) => {
    c.header("Cache-Control", "no-store");
    return c.json(metricsSnapshot(sources));
  });

  app.get("/prometheus", async (c) => {
    const body = await registry.metrics();
    return c.body(body, 200, { "Content-Type": registry.contentType, "Cache-Control": "no-store" });
  });

  return app;
}
