import type { Hono } from "hono";
import { requireAdmin, requireUser } from "./auth.ts";
import { Codes, MatrixError } from "./errors.ts";
import { checkUsername } from "./registration-rules.ts";
import { clientIp, queryString, route } from "./request.ts";
import type { SimulatorContext } from "./state.ts";

const registrationDisabled = () => new MatrixError(403, "Registration has been disabled", Codes.FORBIDDEN);

/**
 * Account endpoints around registration: whoami, username availability (public and admin) and token validity
 * (synapse/rest/client/account.py, synapse/rest/client/register.py, synapse/rest/admin/username.py).
 */
export function registerAccountRoutes(app: Hono, ctx: SimulatorContext): void {
  const passwordRegistration = () => !ctx.state.settings.delegatedAuth;

  /** `WhoamiRestServlet`: `device_id` only when the token has one; `is_guest` since spec v1.2. */
  route(app, "/_matrix/client/:version{r0|v3|unstable}/account/whoami", {
    GET: (c) => {
      const { token, user } = requireUser(ctx.state, c);
      return c.json({ user_id: user.userId, is_guest: false, ...(token.deviceId ? { device_id: token.deviceId } : {}) });
    },
  });

  /**
   * `UsernameAvailabilityRestServlet`: 403 when registration is off, then the availability rate limiter (see
   * `SleepingLimiter`), then `check_username` on the name exactly as given: it is not lower-cased here, so `Alice` is
   * `M_INVALID_USERNAME` although `/register` would accept it as `alice`. Not registered under MAS.
   */
  route(
    app,
    "/_matrix/client/:version{r0|v3|unstable}/register/available",
    {
      GET: async (c) => {
        if (!ctx.options.registrationEnabled) throw registrationDisabled();
        await ctx.limiters.availability.enter(clientIp(c));
        checkUsername(ctx.state, queryString(c, "username", true));
        return c.json({ available: true });
      },
    },
    passwordRegistration,
  );

  /**
   * `RegistrationTokenValidityRestServlet` (v1 and unstable only): rate limited first (`rc_registration_token_validity`,
   * every request counts), then 403 when registration is off, then `{valid}` with the runtime semantics: pending uses
   * count, `uses_allowed: 0` is valid, unknown tokens are `false`. It never consumes a use. Not registered under MAS.
   */
  route(
    app,
    "/_matrix/client/:version{v1|unstable}/register/m.login.registration_token/validity",
    {
      GET: (c) => {
        ctx.limiters.validity.check(clientIp(c));
        if (!ctx.options.registrationEnabled) throw registrationDisabled();
        const token = queryString(c, "token", true);
        return c.json({ valid: ctx.tokens.isValid(token) });
      },
    },
    passwordRegistration,
  );

  /**
   * Admin `username_available`: the same `check_username` answers, without the rate limiter and even when registration
   * is disabled. Registered with or without MAS.
   */
  route(app, "/_synapse/admin/v1/username_available", {
    GET: (c) => {
      requireAdmin(ctx.state, c);
      checkUsername(ctx.state, queryString(c, "username", true));
      return c.json({ available: true });
    },
  });
}
