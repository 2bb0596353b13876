import { findRepoRoot, readAppVersion } from "../../lib/app-info.ts";
import { runMain, type Started } from "../../lib/run-main.ts";
import { loadHubConfig } from "./config.ts";
import { createHubLogger } from "./logs/hub-logger.ts";
import { LogRing } from "./logs/log-ring.ts";

/** Composition root of the hub: config once, the logger, then the hub (hub.ts); stopped in reverse on SIGTERM/SIGINT. */
async function start(): Promise<Started> {
  const repoRoot = findRepoRoot(import.meta.url);
  const config = loadHubConfig(process.env, repoRoot);
  const logRing = new LogRing();
  const log = createHubLogger({ level: config.logLevel, ring: logRing, base: config.demo ? { demo: true } : {} });
  const version = readAppVersion(repoRoot);
  // Loaded only once the configuration is valid: matter.js takes a while to import, a typo should fail at once.
  const { createHub } = await import("./hub.ts");
  const hub = await createHub({ config, log, logRing, version });
  await hub.listen();
  hub.start();
  log.info({ version, dataDir: config.dataDir }, `Matter Hub ${version} started${config.demo ? " (DEMO)" : ""}`);
  return {
    async stop(reason) {
      log.info({ reason }, "stopping");
      await hub.stop();
      log.info("stopped");
      log.flush();
    },
  };
}

await runMain("hub", start);
