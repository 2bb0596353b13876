import type { Logger } from "../../lib/logger.ts";
import type { HubConfig } from "./config.ts";
import type { HomeAssistantService } from "./home-assistant/home-assistant-service.ts";

/** What the health record reports about the services the hub depends on; each later part plugs itself in. */
export interface HealthSources {
  homeAssistant(): { connected: boolean; fatal?: string | undefined };
  bridges(): { total: number; running: number; stopped: number; failed: number };
}

/**
 * The hub's small typed context: built once in main.ts and passed down. No module keeps its own singleton;
 * tests build a context with fakes.
 */
export interface HubContext {
  readonly config: HubConfig;
  readonly log: Logger;
  readonly version: string;
  /** Epoch ms when the process started serving. */
  readonly startedAt: number;
  readonly health: HealthSources;
  /** The link to Home Assistant and the in-memory model of its states and registries. */
  readonly homeAssistant: HomeAssistantService;
}
