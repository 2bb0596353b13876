import { findRepoRoot, readAppVersion } from "../../lib/app-info.ts";
import { startHttpServer } from "../../lib/http-server.ts";
import { createLogger } from "../../lib/logger.ts";
import { runMain, type Started } from "../../lib/run-main.ts";
import { loadHubConfig } from "./config.ts";
import type { HubContext } from "./context.ts";
import { createHubApp } from "./http/app.ts";

/** Composition root of the hub: config → logger → context → HTTP, stopped in reverse on SIGTERM/SIGINT. */
async function start(): Promise<Started> {
  const repoRoot = findRepoRoot(import.meta.url);
  const config = loadHubConfig(process.env, repoRoot);
  const log = createLogger({ name: "hub", level: config.logLevel, base: config.demo ? { demo: true } : {} });
  const version = readAppVersion(repoRoot);
  if (config.demo) log.warn("DEMO MODE: no Home Assistant configured (HA_URL unset); using the built-in simulated home");

  const ctx: HubContext = {
    config,
    log,
    version,
    startedAt: Date.now(),
    health: {
      homeAssistant: () => ({ connected: false }),
      bridges: () => ({ total: 0, running: 0, stopped: 0, failed: 0 }),
    },
  };

  const http = await startHttpServer({ app: createHubApp(ctx), host: config.http.host, port: config.http.port, log });
  log.info({ version, dataDir: config.dataDir }, `Matter Hub ${version} started`);

  return {
    async stop(reason) {
      log.info({ reason }, "stopping");
      await http.close();
      log.info("stopped");
      log.flush();
    },
  };
}

await runMain("hub", start);
