import { Hono } from "hono";
import { validate } from "../../../lib/validate.ts";
import type { PortalContext } from "../context.ts";
import type { PortalEnv } from "../http/env.ts";
import { ServerIdQuery } from "../servers/servers.schema.ts";

/**
 * `GET /api/admin/diagnostics?serverId=`: a fresh check, not stored and not audited (a GET has no side effects;
 * the PATCH `diagnostics` action stores and audits).
 */
export function diagnosticsRoutes(ctx: PortalContext): Hono<PortalEnv> {
  return new Hono<PortalEnv>().get("/", validate("query", ServerIdQuery), async (c) => {
    const server = await ctx.services.servers.requireRow(c.req.valid("query").serverId);
    return c.json({ diagnostics: await ctx.services.diagnostics.run(server) });
  });
}
