import { Hono } from "hono";
import type { HubContext } from "../context.ts";

export type HealthStatus = "healthy" | "degraded" | "unhealthy";

/** Unhealthy: HA refused us for good, or every bridge failed. Degraded: HA away, or some bridge failed. */
export function overallStatus(
  ha: { connected: boolean; fatal?: string | undefined },
  bridges: { total: number; failed: number },
): HealthStatus {
  if (ha.fatal || (bridges.total > 0 && bridges.failed === bridges.total)) return "unhealthy";
  if (!ha.connected || bridges.failed > 0) return "degraded";
  return "healthy";
}

export function healthRoutes(ctx: HubContext): Hono {
  const app = new Hono();

  app.get("/", (c) => {
    const ha = ctx.health.homeAssistant();
    const bridges = ctx.health.bridges();
    const status = overallStatus(ha, bridges);
    const record = {
      status,
      version: ctx.version,
      uptime: Math.round((Date.now() - ctx.startedAt) / 1000),
      timestamp: new Date().toISOString(),
      demo: ctx.config.demo,
      services: {
        homeAssistant: { connected: ha.connected, ...(ha.fatal ? { error: ha.fatal } : {}) },
        bridges,
      },
    };
    return c.json(record, status === "unhealthy" ? 503 : 200);
  });

  app.get("/live", (c) => c.json({ status: "alive" }));

  app.get("/ready", (c) => {
    const ha = ctx.health.homeAssistant();
    return ha.connected ? c.json({ status: "ready" }) : c.json({ error: ha.fatal ?? "Home Assistant is not connected" }, 503);
  });

  return app;
}
