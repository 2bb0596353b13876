import { Hono } from "hono";
import type { HubContext } from "../context.ts";
import { overallStatus } from "../diagnostics/health-status.ts";
import { detailedHealth, type RecoveryStatusSource } from "./detailed-health.ts";

/**
 * `/api/health`, `/detailed`, `/live`, `/ready`. `recovery` adds the recovery settings and per-bridge attempts to
 * `/detailed` (null there without it).
 */
export function healthRoutes(ctx: HubContext, recovery?: RecoveryStatusSource): Hono {
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

  // Always 200 while the hub answers: it is a diagnostics page, its `status` field says how healthy the hub is.
  app.get("/detailed", (c) => {
    const status = overallStatus(ctx.health.homeAssistant(), ctx.health.bridges());
    const detail = detailedHealth({ bridges: ctx.bridges, homeAssistant: ctx.homeAssistant, recovery }, status);
    c.header("Cache-Control", "no-store");
    return c.json({
      ...detail,
      version: ctx.version,
      uptime: Math.round((Date.now() - ctx.startedAt) / 1000),
      timestamp: new Date().toISOString(),
    });
  });

  app.get("/live", (c) => c.json({ status: "alive" }));

  app.get("/ready", (c) => {
    const ha = ctx.health.homeAssistant();
    return ha.connected ? c.json({ status: "ready" }) : c.json({ error: ha.fatal ?? "Home Assistant is not connected" }, 503);
  });

  return app;
}
