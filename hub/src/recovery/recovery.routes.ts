import { Hono } from "hono";
import { validate } from "../../../lib/validate.ts";
import type { RecoveryService } from "./recovery-service.ts";
import { RecoverySettingsSchema } from "./recovery-settings.ts";

/**
 * `/api/settings/recovery`: reads and replaces the automatic-recovery settings. PUT validates the whole body first
 * (both fields required; 400 `{error}` and nothing changed otherwise), persists it, and reschedules at once.
 */
export function recoveryRoutes(recovery: RecoveryService): Hono {
  const app = new Hono();

  app.get("/", (c) => {
    c.header("Cache-Control", "no-store");
    return c.json(recovery.settings);
  });

  app.put("/", validate("json", RecoverySettingsSchema), async (c) => c.json(await recovery.update(c.req.valid("json"))));

  return app;
}
