import { Hono } from "hono";
import { validate } from "../../../lib/validate.ts";
import type { PortalContext } from "../context.ts";
import type { PortalEnv } from "../http/env.ts";
import { ServerIdQuery } from "../servers/servers.schema.ts";

/** `GET /api/admin/stats?serverId=`. */
export function statsRoutes(ctx: PortalContext): Hono<PortalEnv> {
  return new Hono<PortalEnv>().get("/", validate("query", ServerIdQuery), async (c) =>
    c.json(await ctx.services.stats.forServer(c.req.valid("query").serverId)),
  );
}
