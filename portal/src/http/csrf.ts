import type { MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import { HttpError } from "../../../lib/http-error.ts";
import { originHost } from "../../../lib/same-origin.ts";
import { SESSION_COOKIE } from "../auth/session-cookie.ts";
import type { PortalEnv } from "./env.ts";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * CSRF defence for cookie-authenticated writes, next to the SameSite=Strict cookie: on unsafe methods the
 * `Origin` header (else the `Referer`) must name the host the request was sent to (`Host`, or `X-Forwarded-Host`
 * from a trusted proxy). A request carrying the session cookie but neither header is refused; one carrying
 * neither the cookie nor the headers (curl without a session) passes, as it has no ambient authority.
 * API clients need no token, only a truthful `Origin`.
 */
export function csrfGuard(): MiddlewareHandler<PortalEnv> {
  return async (c, next) => {
    if (SAFE_METHODS.has(c.req.method)) return next();
    const origin = c.req.header("origin");
    const referer = c.req.header("referer");
    const claimed = origin ?? referer;
    if (claimed === undefined) {
      if (getCookie(c, SESSION_COOKIE) !== undefined) {
        throw new HttpError(403, "Cross-site request refused: an Origin or Referer header is required", "FORBIDDEN");
      }
      return next();
    }
    const host = originHost(claimed);
    if (host === undefined || host !== c.var.origin.host) {
      throw new HttpError(403, "Cross-site request refused: Origin does not match Host", "FORBIDDEN");
    }
    return next();
  };
}
