import { Hono } from "hono";
import { validate } from "../../../lib/validate.ts";
import type { PortalContext } from "../context.ts";
import { actorOf } from "../http/actor.ts";
import type { PortalEnv } from "../http/env.ts";
import { ServerIdQuery } from "../servers/servers.schema.ts";
import { BOT_TEMPLATES } from "./bot-templates.ts";
import {
  AssignRoomBody,
  BotActionBody,
  BotListQuery,
  CreateBotBody,
  FeatureToggleBody,
  OptionalServerQuery,
  UpdateBotBody,
} from "./bots.schema.ts";

/** `/api/admin/bots`: templates, bots of a server, their rooms and features. */
export function botRoutes(ctx: PortalContext): Hono<PortalEnv> {
  const bots = ctx.services.bots;
  return new Hono<PortalEnv>()
    .get("/", validate("query", BotListQuery), async (c) => {
      const query = c.req.valid("query");
      if (query.view === "templates") return c.json({ templates: BOT_TEMPLATES });
      return c.json({ bots: await bots.list(query.serverId as string) });
    })
    .post("/", validate("query", ServerIdQuery), validate("json", CreateBotBody), async (c) =>
      c.json({ bot: await bots.create(c.req.valid("query").serverId, c.req.valid("json"), actorOf(c)) }, 201),
    )
    .get("/:id", validate("query", OptionalServerQuery), async (c) =>
      c.json({ bot: await bots.get(c.req.param("id"), c.req.valid("query").serverId) }),
    )
    .put("/:id", validate("json", UpdateBotBody), async (c) =>
      c.json(await bots.update(c.req.param("id"), c.req.valid("json"), actorOf(c))),
    )
    .patch("/:id", validate("json", BotActionBody), async (c) =>
      c.json(await bots.act(c.req.param("id"), c.req.valid("json"), actorOf(c))),
    )
    .delete("/:id", async (c) => {
      await bots.delete(c.req.param("id"), actorOf(c));
      return c.json({ deleted: true });
    })
    .get("/:id/rooms", async (c) => c.json({ rooms: await bots.rooms(c.req.param("id")) }))
    .post("/:id/rooms", validate("json", AssignRoomBody), async (c) =>
      c.json({ room: await bots.assignRoom(c.req.param("id"), c.req.valid("json"), actorOf(c)) }, 201),
    )
    .delete("/:id/rooms/:assignmentId", async (c) => {
      await bots.unassignRoom(c.req.param("id"), c.req.param("assignmentId"), actorOf(c));
      return c.json({ deleted: true });
    })
    .get("/:id/features", async (c) => c.json({ features: await bots.features(c.req.param("id")) }))
    .put("/:id/features", validate("json", FeatureToggleBody), async (c) =>
      c.json({ feature: await bots.toggleFeature(c.req.param("id"), c.req.valid("json"), actorOf(c)) }),
    );
}
