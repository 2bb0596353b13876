import { Hono } from "hono";
import * as v from "valibot";
import { validate } from "../../../lib/validate.ts";
import { JsonConfig } from "../bots/bots.schema.ts";
import type { PortalContext } from "../context.ts";
import { actorOf } from "../http/actor.ts";
import type { PortalEnv } from "../http/env.ts";
import { objectMessage } from "../schema-messages.ts";
import { ServerIdQuery } from "../servers/servers.schema.ts";
import { INTEGRATION_TYPES } from "./catalog/types.ts";
import { SecretKeyField } from "./integration-secrets.ts";

const ServerId = v.pipe(v.string(), v.nonEmpty("serverId must not be empty"), v.maxLength(100));
const ConfigObject = JsonConfig("config");

/** `GET /api/admin/integrations`: `serverId` for the installed list, or `view=catalog` with `type` and `search`. */
const ListQuery = v.pipe(
  v.object(
    {
      serverId: v.optional(ServerId),
      view: v.optional(v.picklist(["catalog"], "view must be catalog")),
      type: v.optional(v.picklist(INTEGRATION_TYPES, `type must be one of ${INTEGRATION_TYPES.join(", ")}`)),
      search: v.optional(v.pipe(v.string(), v.maxLength(100, "search must be at most 100 characters"))),
    },
    objectMessage,
  ),
  v.check((query) => query.view !== undefined || query.serverId !== undefined, "serverId is required (or view=catalog)"),
);

const InstallBody = v.strictObject(
  {
    catalogId: v.pipe(v.string("catalogId must be a string"), v.nonEmpty("catalogId is required"), v.maxLength(100)),
    config: v.optional(ConfigObject),
  },
  objectMessage,
);
const UpdateBody = v.strictObject({ config: ConfigObject }, objectMessage);
const ActionBody = v.strictObject(
  { action: v.picklist(["enable", "disable", "health_check"], "action must be one of enable, disable, health_check") },
  objectMessage,
);
const SecretBody = v.strictObject(
  {
    key: SecretKeyField,
    value: v.pipe(
      v.string("value must be a string"),
      v.nonEmpty("value is required"),
      v.maxLength(20_000, "value must be at most 20000 characters"),
    ),
  },
  objectMessage,
);
const OptionalServer = v.object({ serverId: v.optional(ServerId) }, objectMessage);

/** `/api/admin/integrations`: catalog, installations, secrets, health and diagnostics. */
export function integrationRoutes(ctx: PortalContext): Hono<PortalEnv> {
  const integrations = ctx.services.integrations;
  return new Hono<PortalEnv>()
    .get("/", validate("query", ListQuery), async (c) => {
      const query = c.req.valid("query");
      if (query.view === "catalog") return c.json({ catalog: integrations.catalog(query) });
      return c.json({ integrations: await integrations.list(query.serverId as string) });
    })
    .get("/diagnostics", validate("query", ServerIdQuery), async (c) =>
      c.json({ diagnostics: await integrations.diagnostics(c.req.valid("query").serverId) }),
    )
    .post("/", validate("query", ServerIdQuery), validate("json", InstallBody), async (c) =>
      c.json(await integrations.install(c.req.valid("query").serverId, c.req.valid("json"), actorOf(c)), 201),
    )
    .get("/:id", validate("query", OptionalServer), async (c) =>
      c.json({ integration: await integrations.get(c.req.param("id"), c.req.valid("query").serverId) }),
    )
    .put("/:id", validate("json", UpdateBody), async (c) =>
      c.json({ integration: await integrations.updateConfig(c.req.param("id"), c.req.valid("json").config, actorOf(c)) }),
    )
    .patch("/:id", validate("json", ActionBody), async (c) =>
      c.json(await integrations.act(c.req.param("id"), c.req.valid("json").action, actorOf(c))),
    )
    .delete("/:id", async (c) => {
      await integrations.delete(c.req.param("id"), actorOf(c));
      return c.json({ deleted: true });
    })
    .get("/:id/secrets", async (c) => c.json({ secrets: await integrations.listSecrets(c.req.param("id")) }))
    .post("/:id/secrets", validate("json", SecretBody), async (c) => {
      const result = await integrations.setSecret(c.req.param("id"), c.req.valid("json"), actorOf(c));
      return c.json(result, result.rotated ? 200 : 201);
    })
    .delete("/:id/secrets/:secretId", async (c) => {
      await integrations.deleteSecret(c.req.param("id"), c.req.param("secretId"), actorOf(c));
      return c.json({ deleted: true });
    });
}
