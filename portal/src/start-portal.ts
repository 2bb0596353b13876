import { type RunningHttpServer, startHttpServer } from "../../lib/http-server.ts";
import type { Logger } from "../../lib/logger.ts";
import type { PortalConfig } from "./config.ts";
import { createPortalContext, type PortalContext } from "./context.ts";
import type { ScryptParams } from "./crypto/password-hash.ts";
import { openConfiguredDatabase } from "./db/database.ts";
import { prepareSchema } from "./db/prepare-schema.ts";
import { type RunningDemo, startDemo } from "./demo/demo.ts";
import { createHomeserverAgent } from "./homeserver/homeserver-client.ts";
import { OutboundPolicy } from "./homeserver/outbound-policy.ts";
import { createPortalApp } from "./http/app.ts";
import type { CapabilityProbe } from "./integrations/deployment-environment.ts";
import { portalLogger } from "./logging.ts";
import { loadOrCreateSecretKey } from "./secret-key.ts";

export interface StartPortalOptions {
  config: PortalConfig;
  log: Logger;
  version: string;
  /** Clock for sessions, tokens and limits (tests move it). */
  now?: () => number;
  /** scrypt cost for new hashes (tests lower it; production uses the default). */
  passwordHashing?: ScryptParams;
  /** Docker capabilities for integrations' deployment mode (tests inject them; the real probe otherwise). */
  deploymentCapabilities?: CapabilityProbe;
}

export interface RunningPortal {
  readonly ctx: PortalContext;
  readonly http: RunningHttpServer;
  readonly demo: RunningDemo | undefined;
  /** Stops in reverse order of start: HTTP, demo homeserver, homeserver connections, database. */
  stop(reason: string): Promise<void>;
}

/**
 * Starts the portal in order: key → database (migrated in one transaction, or checked with PORTAL_MIGRATE=off) →
 * homeserver connection pool →
 * context → administrator bootstrap → demo homeserver (demo mode) → HTTP. A failure part-way closes what
 * was started. main.ts calls this with the parsed configuration; the tests call it the same way.
 */
export async function startPortal(options: StartPortalOptions): Promise<RunningPortal> {
  const { config } = options;
  const log = portalLogger(options.log);
  const closers: (() => Promise<void>)[] = [];
  let stopping: Promise<void> | undefined;
  // Reverse order of start; a second call waits for the first instead of closing twice.
  const closeAll = () => {
    stopping ??= (async () => {
      for (const close of [...closers].reverse()) await close();
    })();
    return stopping;
  };
  try {
    const secretKey = loadOrCreateSecretKey(config.secretKey, config.dataDir);
    const db = openConfiguredDatabase(config.database, log);
    closers.push(() => db.destroy());
    await prepareSchema(db, config, log);
    const outbound = new OutboundPolicy(config.outbound);
    const http = createHomeserverAgent(outbound);
    closers.push(() => http.close());
    const ctx = createPortalContext({ ...options, log, secretKey, db, http, outbound });
    // Before the database closes (closers run in reverse): the failed-login summaries of windows that have ended.
    closers.push(() => ctx.services.loginAudit.stop());

    const movedAssets = await ctx.services.branding.moveAssetFilesIn();
    if (movedAssets > 0) log.info({ assets: movedAssets }, "branding asset files moved into the database");

    if (config.admin) {
      const outcome = await ctx.services.auth.ensureAdmin(
        config.admin.email,
        config.admin.password,
        config.admin.email.split("@")[0] ?? "admin",
      );
      log.info({ email: config.admin.email, outcome }, "portal administrator from PORTAL_ADMIN_EMAIL");
    }
    const demo = config.demo ? await startDemo(ctx) : undefined;
    if (demo) closers.push(() => demo.close());
    if (!config.admin && !demo && !(await ctx.services.auth.hasUsers())) {
      log.warn("no portal administrator exists: set PORTAL_ADMIN_EMAIL and PORTAL_ADMIN_PASSWORD");
    }

    const server = await startHttpServer({ app: createPortalApp(ctx), host: config.http.host, port: config.http.port, log });
    closers.push(() => server.close());
    return { ctx, http: server, demo, stop: closeAll };
  } catch (error) {
    await closeAll();
    throw error;
  }
}
