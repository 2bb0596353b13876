import { Hono } from "hono";
import { HttpError } from "../../../lib/http-error.ts";
import { parseOr400, validate } from "../../../lib/validate.ts";
import type { PortalContext } from "../context.ts";
import { actorOf } from "../http/actor.ts";
import type { PortalEnv } from "../http/env.ts";
import { ServerIdQuery } from "../servers/servers.schema.ts";
import { BatchTokensBody, CreateTokenBody, TokenActionBody, TokenListQuery, UpdateTokenBody } from "./tokens.schema.ts";
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
    .get("/", validate("query", TokenListQuery), async (c) => {
      const query = c.req.valid("query");
      if (query.limit !== undefined) {
        // One page (a compatible extension of the spec): MAS's own filters and cursors on a MAS server.
        return c.json(await tokens.page(query.serverId, { status: query.status, limit: query.limit, after: query.after }));
      }
      const all = await tokens.list(query.serverId);
      const list = query.status ? all.filter((token) => token.state === query.status) : all;
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
    .patch("/:token", server, async (c) => {
      // No body is the spec's disable; `{action}` picks disable or enable (MAS: revoke / unrevoke).
      const text = await c.req.text();
      const parsed = parseOr400(TokenActionBody, text.trim() === "" ? undefined : parseJsonOr400(text), "body");
      const { serverId } = c.req.valid("query");
      const act = parsed.action === "enable" ? tokens.enable.bind(tokens) : tokens.disable.bind(tokens);
      return c.json({ token: await act(serverId, c.req.param("token"), actorOf(c)) });
    })
    .delete("/:token", server, async (c) => {
      await tokens.delete(c.req.valid("query").serverId, c.req.param("token"), actorOf(c));
      return c.json({ deleted: true });
    });
}

/** A JSON body, or 400 like the shared validator's "Malformed JSON". */
function parseJsonOr400(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, "Malformed JSON in request body", "BAD_REQUEST");
  }
}
