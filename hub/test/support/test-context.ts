import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Hono } from "hono";
import type { Logger } from "../../../lib/logger.ts";
import { memoryLogger } from "../../../lib/testing/fixtures.ts";
import { loadHubConfig } from "../../src/config.ts";
import type { HubContext } from "../../src/context.ts";
import type { HomeAssistantService } from "../../src/home-assistant/home-assistant-service.ts";
import { createHub, type Hub, type HubOptions } from "../../src/hub.ts";
import { LogRing } from "../../src/logs/log-ring.ts";
import type { PluginTuning } from "../../src/plugins/plugin-service.ts";

/**
 * Where a test hub's new bridges start looking for a port (nextPort, the demo bridge, split): a random one between
 * 20000 and 32000, not 5540, since test files run side by side and a probed-free port may be taken before the
 * bridge binds it.
 */
export function randomMatterPortBase(): number {
  return 20_000 + Math.floor(Math.random() * 12_000);
}

const root = fileURLToPath(new URL("../../..", import.meta.url));

export interface TestHub {
  hub: Hub;
  ctx: HubContext;
  app: Hono;
  log: Logger;
  logLines: () => string[];
  homeAssistant: HomeAssistantService;
  dataDir: string;
  /** Stops the hub and removes its temporary data dir (unless `keepData`). */
  stop(options?: { keepData?: boolean }): Promise<void>;
}

export interface TestHubOptions {
  ha?: { url: string; token: string };
  env?: Record<string, string>;
  start?: boolean;
  dataDir?: string;
  /** Plugin system tuning (short lifecycle time-out, private npm cache...), passed through HubOptions. */
  plugins?: PluginTuning;
  /** Other test tuning of HubOptions. */
  hubOptions?: Pick<HubOptions, "lockBrakeNow" | "livePingIntervalMs" | "haExposurePollMs" | "heapSource">;
}

/**
 * The real hub (hub.ts wiring) for in-process tests: real config parsing, a memory-backed logger, a temporary data
 * dir (or the given one), and Home Assistant at `ha` (a simulator). `start` connects to HA and starts bridges.
 */
export async function createTestHub(options: TestHubOptions = {}): Promise<TestHub> {
  const { log, lines } = memoryLogger("debug");
  const ha = options.ha ?? { url: "http://127.0.0.1:9", token: "unused" };
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), "hub-test-"));
  const config = loadHubConfig(
    { HUB_DATA_DIR: dataDir, HA_URL: ha.url, HA_TOKEN: ha.token, HUB_HOST: "127.0.0.1", HUB_PORT: "0", ...options.env },
    root,
  );
  const hub = await createHub({
    config,
    log,
    logRing: new LogRing(),
    version: "9.9.9",
    haRunningPollMs: 100,
    actionTimeoutMs: 2000,
    plugins: options.plugins,
    firstMatterPort: randomMatterPortBase(),
    ...options.hubOptions,
  });
  if (options.start) hub.start();
  return {
    hub,
    ctx: hub.ctx,
    app: hub.app,
    log,
    logLines: lines,
    homeAssistant: hub.ctx.homeAssistant,
    dataDir,
    async stop(stopOptions = {}) {
      await hub.stop();
      if (!stopOptions.keepData && !options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Polls until `check` returns a truthy value (or throws its last error after `timeoutMs`). */
export async function eventually<T>(
  check: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  timeoutMs = 5000,
  intervalMs = 20,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value) return value;
    } catch (error) {
      lastError = error;
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  throw lastError instanceof Error ? lastError : new Error(`condition not met within ${timeoutMs} ms`);
}
