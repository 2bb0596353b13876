import { Hono } from "hono";
import { validate } from "../../../lib/validate.ts";
import type { PortalContext } from "../context.ts";
import { actorOf } from "../http/actor.ts";
import type { PortalEnv } from "../http/env.ts";
import { toPublicServer } from "./server-record.ts";
import { CreateServerBody, CreateServerQuery, ResolveQuery, ServerActionBody, UpdateServerBody } from "./servers.schema.ts";

/** `/api/admin/servers`: list, create, read, update, actions, delete. */
export function serverRoutes(ctx: PortalContext): Hono<PortalEnv> {
  const servers = ctx.services.servers;
  return new Hono<PortalEnv>()
    .get("/", async (c) => c.json({ servers: await servers.list() }))
    .post("/", validate("query", CreateServerQuery), validate("json", CreateServerBody), async (c) =>
      c.json(
        await servers.create(c.req.valid("json"), actorOf(c), { saveAnyway: c.req.valid("query").saveAnyway === "true" }),
        201,
      ),
    )
    .get("/:id", async (c) => c.json({ server: await servers.get(c.req.param("id")) }))
    .put("/:id", validate("json", UpdateServerBody), async (c) =>
      c.json({ server: await servers.update(c.req.param("id"), c.req.valid("json"), actorOf(c)) }),
    )
    .patch("/:id", validate("json", ServerActionBody), async (c) =>
      c.json(await servers.act(c.req.param("id"), c.req.valid("json"), actorOf(c))),
    )
    .delete("/:id", async (c) => {
      await servers.delete(c.req.param("id"), actorOf(c));
      return c.json({ deleted: true });
    });
}

/** `GET /api/server/resolve`: public fields of the server a sign-up page is for. */
export function resolveRoutes(ctx: PortalContext): Hono<PortalEnv> {
  return new Hono<PortalEnv>().get("/resolve", validate("query", ResolveQuery), async (c) => {
    const row = await ctx.services.resolver.resolve(c.req.valid("query"));
    return c.json({ server: toPublicServer(row) });
  });
}
