import { Hono } from "hono";
import { type MetricsSnapshot, type MetricsSources, memorySnapshot } from "./metrics-sources.ts";
import type { createPrometheusRegistry } from "./prometheus-registry.ts";

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
 * Node's process metrics in the Prometheus text format. Call once per process (the first Prometheus scrape builds
 * the registry). prom-client and its default metrics (a GC observer, an event-loop monitor) are loaded at that first
 * scrape: most installations are never scraped, and whatever is alive at start-up makes V8 size the heap larger
 * (docs/PERFORMANCE.md, "Start-up memory").
 */
export function metricsRoutes(sources: MetricsSources): Hono {
  const app = new Hono();
  let registry: Promise<ReturnType<typeof createPrometheusRegistry>> | undefined;

  app.get("/", (c) => {
    c.header("Cache-Control", "no-store");
    return c.json(metricsSnapshot(sources));
  });

  app.get("/prometheus", async (c) => {
    registry ??= import("./prometheus-registry.ts")
      .then((module) => module.createPrometheusRegistry(sources))
      .catch((error: unknown) => {
        registry = undefined;
        throw error;
      });
    const prometheus = await registry;
    const body = await prometheus.metrics();
    return c.body(body, 200, { "Content-Type": prometheus.contentType, "Cache-Control": "no-store" });
  });

  return app;
}
