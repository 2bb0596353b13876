import type { Context } from "hono";
import { Hono } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { validate } from "../../../lib/validate.ts";
import type { PortalContext } from "../context.ts";
import type { PortalEnv } from "../http/env.ts";
import { LoginBody } from "./auth.schema.ts";
import { DEVICE_COOKIE, DEVICE_COOKIE_PATH } from "./device-cookie.ts";
import { SESSION_COOKIE } from "./session-cookie.ts";

/** HttpOnly (no script access), SameSite=Strict (no cross-site sends), Secure whenever the client used HTTPS. */
const cookieOptions = (c: Context<PortalEnv>) =>
  ({ httpOnly: true, sameSite: "Strict", path: "/", secure: c.var.origin.secure }) as const;

/** `POST /api/auth/login`, `POST /api/auth/logout`, `GET /api/auth/session`. */
export function authRoutes(ctx: PortalContext): Hono<PortalEnv> {
  const auth = ctx.services.auth;
  return new Hono<PortalEnv>()
    .post("/login", validate("json", LoginBody), async (c) => {
      const { email, password } = c.req.valid("json");
      const session = await auth.login(email, password, c.var.origin.ip, getCookie(c, DEVICE_COOKIE));
      setCookie(c, SESSION_COOKIE, session.cookie, { ...cookieOptions(c), maxAge: session.maxAgeS });
      // Kept by logout on purpose: it only says "this browser logged in to this account before" (device-cookie.ts).
      setCookie(c, DEVICE_COOKIE, session.device.cookie, {
        ...cookieOptions(c),
        path: DEVICE_COOKIE_PATH,
        maxAge: session.device.maxAgeS,
      });
      return c.json({ authenticated: true, user: session.user });
    })
    .post("/logout", async (c) => {
      const cookie = getCookie(c, SESSION_COOKIE);
      if (cookie !== undefined) await auth.logout(cookie);
      deleteCookie(c, SESSION_COOKIE, cookieOptions(c));
      return c.json({ authenticated: false });
    })
    .get("/session", async (c) => {
      const cookie = getCookie(c, SESSION_COOKIE);
      const user = cookie === undefined ? undefined : await auth.authenticate(cookie);
      // `demo` lets the UI label demo mode (a simulated homeserver) on the sign-up page and the admin console alike.
      const demo = ctx.config.demo;
      return c.json(user ? { authenticated: true, user, demo } : { authenticated: false, demo });
    });
}
