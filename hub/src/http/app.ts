import { type Context, Hono, type MiddlewareHandler } from "hono";
import { requestLog } from "../../../lib/request-log.ts";
import { webUi } from "../../../lib/web-ui.ts";
import { authSettingsRoutes } from "../auth/auth-settings.routes.ts";
import { basicAuth } from "../auth/basic-auth.middleware.ts";
import { ingressProxyOf } from "../auth/client-key.ts";
import { bridgeRoutes } from "../bridges/bridges.routes.ts";
import type { HubContext } from "../context.ts";
import { entityMappingRoutes } from "../entity-mappings/entity-mappings.routes.ts";
import { healthRoutes } from "../health/health.routes.ts";
import { homeAssistantRoutes } from "../home-assistant/home-assistant.routes.ts";
import { liveRoutes } from "../live/live.routes.ts";
import { lockCredentialRoutes } from "../lock-credentials/lock-credentials.routes.ts";
import { logsRoutes } from "../logs/logs.routes.ts";
import { metricsRoutes } from "../metrics/metrics.routes.ts";
import { pluginRoutes } from "../plugins/plugins.routes.ts";
import { recoveryRoutes } from "../recovery/recovery.routes.ts";
import { systemRoutes } from "../system/system.routes.ts";
import { jsonBodies } from "./body-rules.ts";
import { hubErrorHandler, hubNotFound } from "./errors.ts";
import { hostGuard } from "./host-guard.ts";
import { ingressAuthenticated, ingressBase, ingressProxied, ipAllowList } from "./ingress.ts";
import { fromLan, lanGuard } from "./lan-listener.ts";
import { originGuard } from "./origin-guard.ts";

/**
 * Backup, restore and bridge transfer, built by the composition root (hub.ts, with backup/backup-wiring.ts) and
 * mounted here. Passed in rather than built here so that imports run backup -> http only.
 */
export interface BackupMount {
  /** Between a restore and the restart, refuses changes. */
  guard: MiddlewareHandler;
  /** `/api/bridges/...` export and import. */
  bridgeRoutes: Hono;
  /** `/api/backup/...`. */
  backupRoutes: Hono;
}

/** Builds the hub's HTTP app: thin sub-apps per resource over the services in the context. */
export function createHubApp(ctx: HubContext, backup: BackupMount): Hono {
  const log = ctx.log.child({ component: "http" });
  const app = new Hono();
  app.onError(hubErrorHandler(log));
  app.notFound(hubNotFound);
  // Order: the allow-list (on the LAN listener: credentials must exist) refuses strangers before anything else (no
  // login prompt, no KDF work); the request log records every refusal after it; the Host, Origin and body checks
  // refuse cheaply what a browser was tricked into sending, before any KDF work (docs/http-edge.md); Basic auth
  // then guards everything, the UI, /api/ws and SSE included. Only the liveness probe of the main port stays open
  // (the container health check has no credentials and it reveals nothing a TCP connect would not), and requests
  // Home Assistant's ingress has authenticated (the Supervisor's proxy address on the main port: docs/ingress.md).
  const { http } = ctx.config;
  const proxied = ingressProxied(http.allowedIps);
  const viaIngress = (c: Context) => !fromLan(c) && proxied(c);
  const [allowList, lan] = [ipAllowList(http.allowedIps), lanGuard(ctx.auth)];
  app.use((c, next) => (fromLan(c) ? lan(c, next) : allowList(c, next)));
  app.use(requestLog(log));
  app.use(hostGuard({ allowedHosts: http.allowedHosts, authenticated: () => ctx.auth.enabled, viaIngress }));
  app.use(originGuard({ viaIngress }));
  app.use("/api/*", jsonBodies());
  const fromHomeAssistant = ingressAuthenticated(ingressProxyOf(http.allowedIps));
  const authAll = basicAuth(ctx.auth);
  const authMain = basicAuth(ctx.auth, { publicPaths: ["/api/health/live"], authenticatedElsewhere: fromHomeAssistant });
  app.use((c, next) => (fromLan(c) ? authAll(c, next) : authMain(c, next)));
  // Between a restore and the restart, changes are refused: they would be lost or mix old and new state.
  app.use(backup.guard);

  app.route("/api/health", healthRoutes(ctx, ctx.recovery));
  app.route("/api/home-assistant", homeAssistantRoutes(ctx.homeAssistant));
  app.route("/api/matter", bridgeRoutes(ctx.bridges, ctx.homeAssistant.model));
  app.route("/api/entity-mappings", entityMappingRoutes(ctx.mappings, ctx.bridges));
  app.route("/api/lock-credentials", lockCredentialRoutes(ctx.lockCredentials));
  app.route("/api/plugins", pluginRoutes(ctx.plugins, ctx.bridges));
  app.route("/api/logs", logsRoutes(ctx.logs));
  app.route("/api/metrics", metricsRoutes(ctx.metrics));
  app.route("/api/system", systemRoutes({ dataDir: ctx.config.dataDir, mdnsInterface: ctx.config.mdnsInterface }));
  app.route("/api/settings/auth", authSettingsRoutes(ctx.auth));
  app.route("/api/settings/recovery", recoveryRoutes(ctx.recovery));
  app.route("/api/bridges", backup.bridgeRoutes);
  app.route("/api/backup", backup.backupRoutes);
  app.route("/api/ws", liveRoutes(ctx.live));

  app.all("/api/*", hubNotFound);
  app.route(
    "/",
    webUi({ dir: ctx.config.webDir, title: "Matter Hub", base: (c) => ingressBase(c.req.header("X-Ingress-Path")) }),
  );
  return app;
}
