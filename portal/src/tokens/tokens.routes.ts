import { Hono } from "hono";
import { validate } from "../../../lib/validate.ts";
import type { PortalContext } from "../context.ts";
import { actorOf } from "../http/actor.ts";
import type { PortalEnv } from "../http/env.ts";
import { ServerIdQuery } from "../servers/servers.schema.ts";
import { BatchTokensBody, CreateTokenBody, UpdateTokenBody } from "./tokens.schema.ts";
import type { TokenRecord } from "./tokens.service.ts";

/**
 * `/api/admin/tokens?serverId=`: the registration tokens of one managed server. `POST /batch` makes one-use tokens
 * (at most MAX_BATCH); no token's path is shadowed by it, as there is no `POST /:token`.
 */
export function tokenRoutes(ctx: PortalContext): Hono<PortalEnv> {
  const tokens = ctx.services.tokens;
  const server = validate("query", ServerIdQuery);
  // Concurrent list requests share one list (TokensService.list): serialise it once for all of them.
  const bodies = new WeakMap<readonly TokenRecord[], string>();
  return new Hono<PortalEnv>()
    .get("/", server, async (c) => {
      const list = await tokens.list(c.req.valid("query").serverId);
      let body = bodies.get(list);
      if (body === undefined) {
        body = JSON.stringify({ tokens: list });
        bodies.set(list, body);
      }
      return c.body(body, 200, { "content-type": "application/json" });
    })
    .post("/", server, validate("json", CreateTokenBody), async (c) =>
      c.json({ token: await tokens.create(c.req.valid("query").serverId, c.req.valid("json"), actorOf(c)) }, 201),
    )
    .post("/batch", server, validate("json", BatchTokensBody), async (c) =>
      c.json(await tokens.createBatch(c.req.valid("query").serverId, c.req.valid("json"), actorOf(c)), 201),
    )
    .get("/:token", server, async (c) => c.json({ token: await tokens.get(c.req.valid("query").serverId, c.req.param("token")) }))
    .put("/:token", server, validate("json", UpdateTokenBody), async (c) =>
      c.json({
        token: await tokens.update(c.req.valid("query").serverId, c.req.param("token"), c.req.valid("json"), actorOf(c)),
      }),
    )
    .patch("/:token", server, async (c) =>
      c.json({ token: await tokens.disable(c.req.valid("query").serverId, c.req.param("token"), actorOf(c)) }),
    )
    .delete("/:token", server, async (c) => {
      await tokens.delete(c.req.valid("query").serverId, c.req.param("token"), actorOf(c));
      return c.json({ deleted: true });
    });
}
