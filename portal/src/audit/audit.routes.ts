import { Hono } from "hono";
import { validate } from "../../../lib/validate.ts";
import type { PortalContext } from "../context.ts";
import type { PortalEnv } from "../http/env.ts";
import { AuditQuery } from "./audit.schema.ts";

/** `GET /api/admin/audit`: `{logs, total}`, newest first. */
export function auditRoutes(ctx: PortalContext): Hono<PortalEnv> {
  return new Hono<PortalEnv>().get("/", validate("query", AuditQuery), async (c) => {
    const query = c.req.valid("query");
    return c.json(await ctx.services.audit.list(query));
  });
}
