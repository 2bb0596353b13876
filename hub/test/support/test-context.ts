import { fileURLToPath } from "node:url";
import type { Logger } from "../../../lib/logger.ts";
import { memoryLogger } from "../../../lib/testing/fixtures.ts";
import { loadHubConfig } from "../../src/config.ts";
import type { HubContext } from "../../src/context.ts";
import { HomeAssistantService } from "../../src/home-assistant/home-assistant-service.ts";

const root = fileURLToPath(new URL("../../..", import.meta.url));

export interface TestHub {
  ctx: HubContext;
  log: Logger;
  logLines: () => string[];
  homeAssistant: HomeAssistantService;
}

/**
 * A hub context for in-process tests: real config parsing, a real (memory-backed) logger and a real
 * HomeAssistantService pointed at `ha` (a simulator), not started unless `start` is true.
 */
export function createTestHub(
  options: { ha?: { url: string; token: string }; env?: Record<string, string>; start?: boolean } = {},
): TestHub {
  const { log, lines } = memoryLogger("debug");
  const ha = options.ha ?? { url: "http://127.0.0.1:9", token: "unused" };
  const homeAssistant = new HomeAssistantService({
    url: ha.url,
    token: ha.token,
    log,
    runningPollMs: 100,
    actionTimeoutMs: 2000,
  });
  if (options.start) homeAssistant.start();
  const ctx: HubContext = {
    config: loadHubConfig({ HUB_DATA_DIR: "/tmp/hub-test", HA_URL: ha.url, HA_TOKEN: ha.token, ...options.env }, root),
    log,
    version: "9.9.9",
    startedAt: Date.now() - 5000,
    homeAssistant,
    health: {
      homeAssistant: () => ({ connected: homeAssistant.client.status.connected, fatal: homeAssistant.client.status.fatal }),
      bridges: () => ({ total: 0, running: 0, stopped: 0, failed: 0 }),
    },
  };
  return { ctx, log, logLines: lines, homeAssistant };
}

/** Polls until `check` returns a truthy value (or throws its last error after `timeoutMs`). */
export async function eventually<T>(check: () => T | Promise<T>, timeoutMs = 5000, intervalMs = 20): Promise<T> {
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
