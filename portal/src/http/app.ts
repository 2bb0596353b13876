import { Hono } from "hono";
import { requestLog } from "../../../lib/request-log.ts";
import { webUi } from "../../../lib/web-ui.ts";
import type { PortalContext } from "../context.ts";
import { portalErrorHandler, portalNotFound } from "./errors.ts";

/** Builds the portal's HTTP app: public API, admin API and the UI, one sub-app per resource. */
export function createPortalApp(ctx: PortalContext): Hono {
  const log = ctx.log.child({ component: "http" });
  const app = new Hono();
  app.onError(portalErrorHandler(log));
  app.notFound(portalNotFound);
  app.use(requestLog(log));

  // Minimal on purpose (portal spec): no versions, counts or internals to anonymous callers.
  app.get("/api/health", (c) => c.json({ status: "ok" }));

  app.all("/api/*", portalNotFound);
  app.route("/", webUi({ dir: ctx.config.webDir, title: "Matrix registration", base: () => "/" }));
  return app;
}
