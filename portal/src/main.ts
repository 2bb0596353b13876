import { findRepoRoot, readAppVersion } from "../../lib/app-info.ts";
import { startHttpServer } from "../../lib/http-server.ts";
import { createLogger } from "../../lib/logger.ts";
import { runMain, type Started } from "../../lib/run-main.ts";
import { loadPortalConfig } from "./config.ts";
import type { PortalContext } from "./context.ts";
import { createPortalApp } from "./http/app.ts";
import { loadOrCreateSecretKey } from "./secret-key.ts";

/** Composition root of the portal: config → logger → key → context → HTTP, stopped in reverse. */
async function start(): Promise<Started> {
  const repoRoot = findRepoRoot(import.meta.url);
  const config = loadPortalConfig(process.env, repoRoot);
  const log = createLogger({ name: "portal", level: config.logLevel, base: config.demo ? { demo: true } : {} });
  const version = readAppVersion(repoRoot);
  const secretKey = loadOrCreateSecretKey(config.secretKey, config.dataDir);
  if (config.demo) log.warn("DEMO MODE: using a built-in simulated homeserver as the default managed server");

  const ctx: PortalContext = { config, log, version, startedAt: Date.now(), secretKey };
  const http = await startHttpServer({ app: createPortalApp(ctx), host: config.http.host, port: config.http.port, log });
  log.info({ version, dataDir: config.dataDir }, `Matrix registration portal ${version} started`);

  return {
    async stop(reason) {
      log.info({ reason }, "stopping");
      await http.close();
      log.info("stopped");
      log.flush();
    },
  };
}

await runMain("portal", start);
