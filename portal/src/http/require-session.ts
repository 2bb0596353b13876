import type { MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import { HttpError } from "../../../lib/http-error.ts";
import { GLOBAL_ADMIN } from "../auth/auth.service.ts";
import { SESSION_COOKIE } from "../auth/session-cookie.ts";
import type { PortalContext } from "../context.ts";
import type { PortalEnv } from "./env.ts";

/**
 * Guards `/api/admin/*`: without a live session the answer is 401 `{success:false, error, errorCode:"UNAUTHORIZED"}`
 * (known and unknown admin paths alike, so the API does not reveal its routes); a user without the global_admin
 * role is 403. Sets `c.var.user`.
 */
export function requireSession(ctx: PortalContext): MiddlewareHandler<PortalEnv> {
  return async (c, next) => {
    const cookie = getCookie(c, SESSION_COOKIE);
    const user = cookie === undefined ? undefined : await ctx.services.auth.authenticate(cookie);
    if (!user) throw new HttpError(401, "Authentication required: log in with POST /api/auth/login", "UNAUTHORIZED");
    if (user.role !== GLOBAL_ADMIN) throw new HttpError(403, "This account may not use the admin API", "FORBIDDEN");
    c.set("user", user);
    await next();
  };
}
