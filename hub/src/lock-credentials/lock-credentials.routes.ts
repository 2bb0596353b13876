import { Hono } from "hono";
import * as v from "valibot";
import { validate } from "../../../lib/validate.ts";
import type { LockCredentialService } from "./lock-credential-service.ts";
import { PIN_FORMAT, PIN_RULE } from "./pin-policy.ts";

// Every message is fixed text: valibot's default messages quote the received value, which here is the PIN.
const pin = v.pipe(v.string(PIN_RULE), v.regex(PIN_FORMAT, PIN_RULE));
const enabled = v.boolean("enabled must be true or false");

/** PUT body. Strict: a misspelt `enable: false` must be a 400, not a credential left enabled. */
export const PutLockCredentialSchema = v.strictObject(
  { pin, enabled: v.optional(enabled) },
  "body must be an object with pin and optionally enabled, nothing else",
);

/** PATCH `/:entityId/enabled` body. */
export const SetEnabledSchema = v.strictObject({ enabled }, "body must be an object with enabled, nothing else");

/**
 * `/api/lock-credentials`: one PIN per lock entity, checked by the hub before every remote unlock through
 * Matter. Responses never contain the PIN or its hash (docs/lock-credentials.md).
 */
export function lockCredentialRoutes(credentials: LockCredentialService): Hono {
  const app = new Hono();

  app.get("/", (c) => c.json({ credentials: credentials.list() }));

  app.get("/:entityId", (c) => c.json(credentials.get(c.req.param("entityId"))));

  app.put("/:entityId", validate("json", PutLockCredentialSchema), async (c) => {
    const { credential, created } = await credentials.put(c.req.param("entityId"), c.req.valid("json"));
    return c.json(credential, created ? 201 : 200);
  });

  app.patch("/:entityId/enabled", validate("json", SetEnabledSchema), async (c) => {
    return c.json(await credentials.setEnabled(c.req.param("entityId"), c.req.valid("json").enabled));
  });

  app.delete("/:entityId", async (c) => {
    await credentials.delete(c.req.param("entityId"));
    return c.body(null, 204);
  });

  return app;
}
