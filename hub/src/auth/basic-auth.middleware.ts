import type { Context, MiddlewareHandler } from "hono";
import { HttpError } from "../../../lib/http-error.ts";
import type { BasicAuth } from "./basic-auth.ts";
import { BASIC_CHALLENGE } from "./basic-header.ts";
import { clientKey } from "./client-key.ts";

export interface BasicAuthMiddlewareOptions {
  /**
   * Exact paths that stay open even with credentials set. The hub passes `/api/health/live` only: the container's
   * HEALTHCHECK calls it without credentials, and it answers nothing but "alive".
   */
  publicPaths?: readonly string[];
  /**
   * Requests someone else has authenticated already: in the add-on, those through Home Assistant's ingress
   * (http/ingress.ts `ingressAuthenticated`), so the sidebar panel never shows a second login prompt.
   */
  authenticatedElsewhere?: (c: Context) => boolean;
}

/** The 401 every rejected request gets: `{error}` through the hub's error handler, with the Basic challenge. */
export function authenticationRequired(): HttpError {
  return new HttpError(401, "Authentication required", "UNAUTHORIZED", { "WWW-Authenticate": BASIC_CHALLENGE });
}

/**
 * Guards every request behind it (REST, SSE, WebSocket upgrades, the UI) with HTTP Basic authentication while
 * `auth` has credentials; lets everything through when it has none, and lets through what
 * `authenticatedElsewhere` vouches for. The credentials are read per request, so
 * setting or removing them on the settings page takes effect at once. The header is never logged. A client
 * in login backoff gets 429 with `Retry-After` (BasicAuth.check).
 */
export function basicAuth(auth: BasicAuth, options: BasicAuthMiddlewareOptions = {}): MiddlewareHandler {
  const publicPaths = new Set(options.publicPaths ?? []);
  const elsewhere = options.authenticatedElsewhere ?? (() => false);
  return async (c, next) => {
    if (!auth.enabled || publicPaths.has(c.req.path) || elsewhere(c)) return next();
    if (!(await auth.check(c.req.header("Authorization"), clientKey(c, auth.ingressProxy)))) throw authenticationRequired();
    await next();
  };
}
