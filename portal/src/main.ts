import { findRepoRoot, readAppVersion } from "../../lib/app-info.ts";
import { createLogger } from "../../lib/logger.ts";
import { runMain, type Started } from "../../lib/run-main.ts";
import { loadPortalConfig } from "./config.ts";

/**
 * Composition root of the portal: configuration parsed once → logger → startPortal (key, database, context,
 * administrator, demo homeserver, HTTP, in that order) → stop in reverse on SIGTERM/SIGINT.
 */
async function start(): Promise<Started> {
  const repoRoot = findRepoRoot(import.meta.url);
  const config = loadPortalConfig(process.env, repoRoot);
  const log = createLogger({
    name: "portal",
    level: config.logLevel,
    format: config.logFormat,
    file: config.logFile,
    base: config.demo ? { demo: true } : {},
  });
  const version = readAppVersion(repoRoot);
  if (config.demo) log.warn("DEMO MODE: using a built-in simulated homeserver as the default managed server");

  // Loaded only once the configuration is valid: a bad variable fails in a fraction of a second.
  const { startPortal } = await import("./start-portal.ts");
  const portal = await startPortal({ config, log, version });
  log.info({ version, dataDir: config.dataDir }, `Matrix registration portal ${version} started`);

  return {
    async stop(reason) {
      log.info({ reason }, "stopping");
      await portal.stop(reason);
      log.info("stopped");
      log.flush();
    },
  };
}

await runMain("portal", start);
