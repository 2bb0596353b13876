import { Hono } from "hono";
import { validate } from "../../../lib/validate.ts";
import type { PortalContext } from "../context.ts";
import type { PortalEnv } from "../http/env.ts";
import { NOT_JSON, UsernameQuery, ValidateTokenBody } from "./registration.schema.ts";

/** `POST /api/register`, `POST /api/register/validate-token` and `GET /api/register/username-available` (public). */
export function registrationRoutes(ctx: PortalContext): Hono<PortalEnv> {
  const registration = ctx.services.registration;
  return new Hono<PortalEnv>()
    .post("/", async (c) => {
      // Parsed by the service rather than the shared validator: every failure here carries a Matrix code.
      let body: unknown = NOT_JSON;
      try {
        body = JSON.parse(await c.req.text());
      } catch {
        // Stays NOT_JSON: answered 400 M_NOT_JSON after the rate limiter has counted the attempt.
      }
      const { userId } = await registration.register(body, c.var.origin.ip);
      return c.json({ success: true, userId });
    })
    .post("/validate-token", validate("json", ValidateTokenBody), async (c) =>
      c.json(await registration.validateToken(c.req.valid("json"), c.var.origin.ip)),
    )
    .get("/username-available", validate("query", UsernameQuery), async (c) =>
      c.json(await registration.usernameAvailable(c.req.valid("query"), c.var.origin.ip)),
    );
}
