import type { Context, Hono, MiddlewareHandler } from "hono";
import { HttpError } from "../../../lib/http-error.ts";
import { type RunningHttpServer, startHttpServer } from "../../../lib/http-server.ts";
import type { Logger } from "../../../lib/logger.ts";
import type { BasicAuth } from "../auth/basic-auth.ts";
import type { HubConfig } from "../config.ts";

/** The env binding that marks requests of the LAN listener (lib/http-server.ts `bindings`). */
const LAN_BINDINGS = { listener: "lan" } as const;

/** Whether a request came in on the LAN listener (HUB_LAN_PORT) rather than the main port. */
export const fromLan = (c: Context): boolean => (c.env as { listener?: unknown } | undefined)?.listener === LAN_BINDINGS.listener;

/**
 * The LAN listener's stand-in for the IP allow-list: it answers any address, so credentials are what guards it. While
 * the hub has none (removed on the settings page after the start) every request is refused with 403 rather than
 * answered openly; Basic authentication behind this then checks them on every path, the liveness probe included.
 */
export function lanGuard(auth: BasicAuth): MiddlewareHandler {
  return async (_c, next) => {
    if (!auth.enabled) {
      throw new HttpError(403, "Forbidden: the LAN port only answers authenticated clients, and no hub credentials are set");
    }
    await next();
  };
}

/**
 * Opens HUB_LAN_PORT when configured: the same app (CSRF, Host and body checks included) for LAN clients such as
 * scripts and Prometheus, in the add-on where the main port answers only the ingress proxy. Without credentials it
 * stays closed and the log says why; a port that cannot be bound is logged too, and the hub runs on without it.
 */
export async function startLanListener(options: {
  app: Hono;
  config: HubConfig;
  auth: BasicAuth;
  log: Logger;
}): Promise<RunningHttpServer | undefined> {
  const { app, config, auth, log } = options;
  const port = config.http.lanPort;
  if (port === undefined) return undefined;
  if (!auth.enabled) {
    log.warn(
      { port },
      `not opening the LAN port ${port}: it requires authentication, and no hub credentials are set (hub_username and hub_password in the add-on, HUB_AUTH_USERNAME and HUB_AUTH_PASSWORD elsewhere)`,
    );
    return undefined;
  }
  try {
    return await startHttpServer({ app, host: config.http.host, port, log, bindings: LAN_BINDINGS, name: "LAN port" });
  } catch (error) {
    log.error({ err: error, port }, `could not open the LAN port ${port}; the hub runs without it`);
    return undefined;
  }
}
