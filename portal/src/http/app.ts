import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { HttpError } from "../../../lib/http-error.ts";
import { requestLog } from "../../../lib/request-log.ts";
import { webUi } from "../../../lib/web-ui.ts";
import { auditRoutes } from "../audit/audit.routes.ts";
import { authRoutes } from "../auth/auth.routes.ts";
import { botRoutes } from "../bots/bots.routes.ts";
import { brandingAdminRoutes, brandingPublicRoutes } from "../branding/branding.routes.ts";
import type { PortalContext } from "../context.ts";
import { diagnosticsRoutes } from "../diagnostics/diagnostics.routes.ts";
import { integrationRoutes } from "../integrations/integrations.routes.ts";
import { countOutcomes, metricsRoutes } from "../metrics/metrics.routes.ts";
import { registrationRoutes } from "../registration/registration.routes.ts";
import { resolveRoutes, serverRoutes } from "../servers/servers.routes.ts";
import { statsRoutes } from "../stats/stats.routes.ts";
import { tokenRoutes } from "../tokens/tokens.routes.ts";
import { csrfGuard } from "./csrf.ts";
import type { PortalEnv } from "./env.ts";
import { portalErrorHandler, portalNotFound } from "./errors.ts";
import { requireSession } from "./require-session.ts";

/** JSON bodies are small here: the largest field is a 10 000-character admin token. */
const MAX_BODY_BYTES = 64 * 1024;
/** Branding asset uploads: the largest image (2 MB) plus room for the multipart framing. */
const MAX_UPLOAD_BYTES = 2 * 1024 * 1024 + 64 * 1024;
const ASSET_UPLOAD = /^\/api\/admin\/branding\/[^/]+\/assets\/?$/;
/**
 * The web UI's pages (sign-up form with passwords, admin console): code, styles, images and requests from this origin
 * only (the branding's colours are set through the CSSOM, which CSP does not restrict; `data:` is the built-in
 * favicon), and never inside another site's frame (clickjacking).
 */
const UI_SECURITY_HEADERS = {
  "Content-Security-Policy":
    "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'",
  "X-Frame-Options": "DENY",
};

/**
 * No page of the portal belongs in a search index: the sign-up page is reached through invitations (and may carry
 * one), the console is for its administrators. The sign-up page also sends no referrer at all, so an invite link
 * (an old `?token=` one included) never reaches the sites its links lead to (terms, apps, support). The console
 * keeps `same-origin`: with `no-referrer` browsers send `Origin: null` on its writes, which the CSRF check refuses.
 * (docs/invites.md)
 */
function pageHeaders(path: string): Record<string, string> {
  const admin = /^\/admin(\/|$)/.test(path);
  return { "X-Robots-Tag": "noindex, nofollow", ...(admin ? {} : { "Referrer-Policy": "no-referrer" }) };
}

const limitBody = (maxSize: number) =>
  bodyLimit({
    maxSize,
    onError: () => {
      throw new HttpError(413, `Request body larger than ${maxSize} bytes`);
    },
  });

/**
 * Builds the portal's HTTP app: public API, auth, admin API (session + CSRF guarded) and the UI, one sub-app per
 * resource. Admin guards sit on `/api/admin/*` itself, so unknown admin paths answer 401 like known ones.
 */
export function createPortalApp(ctx: PortalContext): Hono<PortalEnv> {
  const log = ctx.log.child({ component: "http" });
  const app = new Hono<PortalEnv>();
  app.onError(portalErrorHandler(log));
  app.notFound(portalNotFound);
  app.use(requestLog(log));
  app.use(async (c, next) => {
    c.set("origin", ctx.originOf(c));
    await next();
  });
  app.use("/api/*", async (c, next) => {
    // API answers are per user and may name tokens: never stored by browsers or proxies. Public branding assets set
    // their own caching (public, one day), which replaces this. Set before the handler runs: changing the headers
    // of a finished response makes @hono/node-server build a full WHATWG Response (a stream) for every answer.
    c.header("Cache-Control", "no-store");
    c.header("X-Content-Type-Options", "nosniff");
    await next();
  });
  const jsonLimit = limitBody(MAX_BODY_BYTES);
  const uploadLimit = limitBody(MAX_UPLOAD_BYTES);
  app.use("/api/*", (c, next) => {
    // A GET or HEAD has no body for fetch's Request (bodyLimit would pass it anyway), and asking for it makes
    // @hono/node-server build a full WHATWG Request (abort signal, stream): a fifth of a cheap GET's CPU.
    if (c.req.method === "GET" || c.req.method === "HEAD") return next();
    return c.req.method === "POST" && ASSET_UPLOAD.test(c.req.path) ? uploadLimit(c, next) : jsonLimit(c, next);
  });

  // Minimal on purpose (portal spec): no versions, counts or internals to anonymous callers.
  app.get("/api/health", (c) => c.json({ status: "ok" }));
  // Prometheus, with its own bearer token (PORTAL_METRICS_TOKEN), off without one.
  app.route("/api/metrics", metricsRoutes(ctx.metrics, ctx.config.metricsToken));
  const outcomes = countOutcomes(ctx.metrics);
  app.use("/api/register", outcomes);
  app.route("/api/register", registrationRoutes(ctx));
  app.route("/api/server", resolveRoutes(ctx));
  app.route("/api/branding", brandingPublicRoutes(ctx));

  app.use("/api/auth/*", csrfGuard());
  app.route("/api/auth", authRoutes(ctx));

  app.use("/api/admin/*", requireSession(ctx), csrfGuard());
  // After the session guard: only administrators' token changes are counted. (The pattern covers the collection too.)
  app.use("/api/admin/tokens/*", outcomes);
  app.route("/api/admin/servers", serverRoutes(ctx));
  app.route("/api/admin/tokens", tokenRoutes(ctx));
  app.route("/api/admin/stats", statsRoutes(ctx));
  app.route("/api/admin/diagnostics", diagnosticsRoutes(ctx));
  app.route("/api/admin/audit", auditRoutes(ctx));
  app.route("/api/admin/branding", brandingAdminRoutes(ctx));
  app.route("/api/admin/bots", botRoutes(ctx));
  app.route("/api/admin/integrations", integrationRoutes(ctx));

  app.all("/api/*", portalNotFound);
  app.use("*", async (c, next) => {
    await next();
    if (c.res.headers.get("content-type")?.startsWith("text/html")) {
      for (const [name, value] of Object.entries(UI_SECURITY_HEADERS)) c.header(name, value);
      for (const [name, value] of Object.entries(pageHeaders(c.req.path))) c.header(name, value);
    }
  });
  app.route("/", webUi({ dir: ctx.config.webDir, title: "Matrix registration", base: () => "/" }));
  return app;
}
