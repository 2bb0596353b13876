import { findRepoRoot, readAppVersion } from "../../lib/app-info.ts";
import { startHttpServer } from "../../lib/http-server.ts";
import { createLogger } from "../../lib/logger.ts";
import { runMain, type Started } from "../../lib/run-main.ts";
import { loadHubConfig } from "./config.ts";
import type { HubContext } from "./context.ts";
import { startDemoHomeAssistant } from "./demo/demo-home-assistant.ts";
import { HomeAssistantService } from "./home-assistant/home-assistant-service.ts";
import { createHubApp } from "./http/app.ts";

/** Composition root of the hub: config → logger → Home Assistant → HTTP; stopped in reverse on SIGTERM/SIGINT. */
async function start(): Promise<Started> {
  const repoRoot = findRepoRoot(import.meta.url);
  const config = loadHubConfig(process.env, repoRoot);
  const log = createLogger({ name: "hub", level: config.logLevel, base: config.demo ? { demo: true } : {} });
  const version = readAppVersion(repoRoot);
  const stops: (() => Promise<void>)[] = [];

  let ha = config.ha;
  if (!ha) {
    log.warn("DEMO MODE: no Home Assistant configured (HA_URL unset); using the built-in simulated home");
    const demo = await startDemoHomeAssistant(log.child({ component: "demo-ha" }));
    stops.unshift(() => demo.close());
    ha = { url: demo.url, token: demo.token };
  }
  const homeAssistant = new HomeAssistantService({
    url: ha.url,
    token: ha.token,
    log: log.child({ component: "home-assistant" }),
  });
  homeAssistant.start();
  stops.unshift(() => homeAssistant.stop());

  const ctx: HubContext = {
    config,
    log,
    version,
    startedAt: Date.now(),
    homeAssistant,
    health: {
      homeAssistant: () => ({ connected: homeAssistant.client.status.connected, fatal: homeAssistant.client.status.fatal }),
      bridges: () => ({ total: 0, running: 0, stopped: 0, failed: 0 }),
    },
  };

  const http = await startHttpServer({ app: createHubApp(ctx), host: config.http.host, port: config.http.port, log });
  stops.unshift(() => http.close());
  log.info({ version, dataDir: config.dataDir }, `Matter Hub ${version} started`);

  return {
    async stop(reason) {
      log.info({ reason }, "stopping");
      for (const stop of stops) await stop().catch((error: unknown) => log.error({ err: error }, "error while stopping"));
      log.info("stopped");
      log.flush();
    },
  };
}

await runMain("hub", start);
