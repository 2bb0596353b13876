import type { Hono } from "hono";
import { requireAdmin } from "./admin-auth.ts";
import type { MasContext } from "./context.ts";

/** The version the simulated MAS reports (`GET /api/admin/v1/version`). */
export const MAS_SIMULATOR_VERSION = "v1.22.0";

/** `GET /api/admin/v1/site-config` (site_config.rs) and `GET /api/admin/v1/version`, both behind the admin token. */
export function registerServerInfoRoutes(app: Hono, ctx: MasContext): void {
  app.get("/api/admin/v1/site-config", (c) => {
    requireAdmin(ctx, c);
    return c.json({
      server_name: ctx.options.serverName,
      password_login_enabled: true,
      password_registration_enabled: ctx.options.passwordRegistrationEnabled,
      password_registration_email_required: false,
      password_registration_token_required: ctx.options.registrationTokenRequired,
      // The deprecated v0.17 name, still answered beside its replacement.
      registration_token_required: ctx.options.registrationTokenRequired,
      email_change_allowed: true,
      displayname_change_allowed: true,
      password_change_allowed: true,
      account_recovery_allowed: false,
      account_deactivation_allowed: true,
      captcha_enabled: false,
      minimum_password_complexity: 3,
    });
  });
  app.get("/api/admin/v1/version", (c) => {
    requireAdmin(ctx, c);
    return c.json({ version: MAS_SIMULATOR_VERSION });
  });
  /** MAS's health check on the `health` resource. */
  app.get("/health", (c) => c.text("ok"));
}
