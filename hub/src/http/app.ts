import { Hono } from "hono";
import { requestLog } from "../../../lib/request-log.ts";
import { webUi } from "../../../lib/web-ui.ts";
import type { HubContext } from "../context.ts";
import { healthRoutes } from "../health/health.routes.ts";
import { homeAssistantRoutes } from "../home-assistant/home-assistant.routes.ts";
import { hubErrorHandler, hubNotFound } from "./errors.ts";
import { ingressBase, ipAllowList } from "./ingress.ts";

/** Builds the hub's HTTP app: thin sub-apps per resource over the services in the context. */
export function createHubApp(ctx: HubContext): Hono {
  const log = ctx.log.child({ component: "http" });
  const app = new Hono();
  app.onError(hubErrorHandler(log));
  app.notFound(hubNotFound);
  app.use(ipAllowList(ctx.config.http.allowedIps));
  app.use(requestLog(log));

  app.route("/api/health", healthRoutes(ctx));
  app.route("/api/home-assistant", homeAssistantRoutes(ctx.homeAssistant));

  app.all("/api/*", hubNotFound);
  app.route(
    "/",
    webUi({ dir: ctx.config.webDir, title: "Matter Hub", base: (c) => ingressBase(c.req.header("X-Ingress-Path")) }),
  );
  return app;
}
