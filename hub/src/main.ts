import { findRepoRoot, readAppVersion } from "../../lib/app-info.ts";
import { runMain, type Started } from "../../lib/run-main.ts";
import { loadHubConfig } from "./config.ts";
import { createHubLogger } from "./logs/hub-logger.ts";
import { LogRing } from "./logs/log-ring.ts";
import { installRejectionGuard } from "./plugins/rejection-guard.ts";

/** Composition root of the hub: config once, the logger, then the hub (hub.ts); stopped in reverse on SIGTERM/SIGINT. */
async function start(): Promise<Started> {
  const repoRoot = findRepoRoot(import.meta.url);
  const config = loadHubConfig(process.env, repoRoot);
  // The configuration holds the password until it is hashed; nothing started later (npm for plugins, plugins
  // reading process.env) needs it in the environment.
  delete process.env.HUB_AUTH_PASSWORD;
  const logRing = new LogRing();
  const log = createHubLogger({
    level: config.logLevel,
    format: config.logFormat,
    file: config.logFile,
    ring: logRing,
    base: config.demo ? { demo: true } : {},
  });
  const version = readAppVersion(repoRoot);
  // Once per process (not per hub: a restore rebuilds the hub in-process): a plugin's stray promise rejection is
  // logged instead of ending the process (docs/plugins.md "Errors").
  const removeRejectionGuard = installRejectionGuard(process, log);
  // Loaded only once the configuration is valid: matter.js takes a while to import, a typo should fail at once.
  const { createHub } = await import("./hub.ts");
  const { restartable } = await import("./backup/restartable.ts");
  // The hub can be rebuilt in-process (after a restore) with the same configuration, logger and log ring.
  const hubs = restartable(
    async () => {
      const hub = await createHub({
        config,
        log,
        logRing,
        version,
        requestRestart: () => hubs.restart("requested over the API"),
      });
      await hub.listen();
      hub.start();
      return hub;
    },
    {
      log,
      onRestartFailed: () => {
        log.flush();
        process.exit(1);
      },
    },
  );
  await hubs.start();
  log.info({ version, dataDir: config.dataDir }, `Matter Hub ${version} started${config.demo ? " (DEMO)" : ""}`);
  return {
    async stop(reason) {
      log.info({ reason }, "stopping");
      await hubs.stop();
      removeRejectionGuard();
      logRing.close();
      log.info("stopped");
      log.flush();
    },
  };
}

await runMain("hub", start);
