import { Hono } from "hono";
import * as v from "valibot";
import { validate } from "../../../lib/validate.ts";
import { type BasicAuth, USERNAME_PATTERN } from "./basic-auth.ts";

/** Body of `PUT /api/settings/auth`. The password is taken as typed: no trimming, any characters. */
const CredentialsBody = v.object({
  username: v.pipe(
    v.string("must be a string"),
    v.trim(),
    v.minLength(1, "must not be empty"),
    v.maxLength(64, "must be at most 64 characters"),
    v.regex(USERNAME_PATTERN, "must not contain a colon or control characters"),
  ),
  password: v.pipe(
    v.string("must be a string"),
    v.minLength(8, "must be at least 8 characters"),
    v.maxLength(256, "must be at most 256 characters"),
  ),
});

/**
 * `/api/settings/auth`: shows whether HTTP Basic authentication is on and where its credentials come from, and
 * sets or removes the settings-page credentials. Environment credentials cannot be changed here (400).
 * Behind the auth middleware like everything else, so only an authenticated user can change them.
 */
export function authSettingsRoutes(auth: BasicAuth): Hono {
  const app = new Hono();

  app.get("/", (c) => {
    c.header("Cache-Control", "no-store");
    return c.json(auth.status);
  });

  app.put("/", validate("json", CredentialsBody), async (c) => {
    const { username, password } = c.req.valid("json");
    return c.json(await auth.setCredentials(username, password));
  });

  app.delete("/", async (c) => c.json(await auth.clearCredentials()));

  return app;
}
