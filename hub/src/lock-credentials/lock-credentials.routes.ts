import { Hono } from "hono";
import * as v from "valibot";
import { validate } from "../../../lib/validate.ts";
import { PIN_FORMAT, PIN_RULE } from "../matter/model/pin-policy.ts";
import type { LockCredentialService } from "./lock-credential-service.ts";

// Every message is fixed text: valibot's default messages quote the received value, which here is the PIN.
const pinField = (rule: string) => v.pipe(v.string(rule), v.regex(PIN_FORMAT, rule));
const PIN_CODE_RULE = PIN_RULE.replace(/^pin /, "pinCode ");
const enabled = v.boolean("enabled must be true or false");

/**
 * PUT body: `{pin, enabled?}`. The peer hub names the PIN `pinCode`; either name is accepted, both only when they
 * agree (docs/lock-credentials.md). Strict: a misspelt `enable: false` must be a 400, not a credential left
 * enabled. The output always carries `pin`.
 */
export const PutLockCredentialSchema = v.pipe(
  v.strictObject(
    { pin: v.optional(pinField(PIN_RULE)), pinCode: v.optional(pinField(PIN_CODE_RULE)), enabled: v.optional(enabled) },
    "body must be an object with pin (or pinCode) and optionally enabled, nothing else",
  ),
  v.check((body) => body.pin !== undefined || body.pinCode !== undefined, `${PIN_RULE}, given as pin or pinCode`),
  v.check(
    (body) => body.pin === undefined || body.pinCode === undefined || body.pin === body.pinCode,
    "pin and pinCode differ; send one of them",
  ),
  v.transform(({ pin, pinCode, enabled }) => ({ pin: (pin ?? pinCode) as string, enabled })),
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
