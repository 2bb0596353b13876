/**
 * A hub with plugins for tests, wired like hub.ts does it (see docs/plugins.md "Wiring"): Home Assistant (a
 * simulator), the Matter environment, stores, bridges whose runtimes get the plugin service's host factory, and an
 * HTTP app with the hub's error handling, the bridge routes and `/api/plugins`. Test tuning (short lifecycle
 * time-out and retry delay, a private npm cache) comes in through the plugin service options.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Hono } from "hono";
import type { Logger } from "../../../../lib/logger.ts";
import { memoryLogger } from "../../../../lib/testing/fixtures.ts";
import { BridgeService } from "../../bridges/bridge-service.ts";
import { BridgeStore } from "../../bridges/bridge-store.ts";
import { bridgeRoutes } from "../../bridges/bridges.routes.ts";
import { EndpointIdentities } from "../../bridges/endpoint-identities.ts";
import { EntityMappingStore } from "../../entity-mappings/entity-mapping-store.ts";
import { HomeAssistantService } from "../../home-assistant/home-assistant-service.ts";
import { hubErrorHandler, hubNotFound } from "../../http/errors.ts";
import { MatterBridgeRuntime } from "../../matter/bridge-runtime.ts";
import { createMatterEnvironment } from "../../matter/matter-environment.ts";
import { PluginService, type PluginServiceOptions } from "../plugin-service.ts";
import { pluginRoutes } from "../plugins.routes.ts";

export interface PluginHub {
  app: Hono;
  plugins: PluginService;
  bridges: BridgeService;
  homeAssistant: HomeAssistantService;
  dataDir: string;
  log: Logger;
  logLines: () => string[];
  /** JSON request against the app; `raw` sends bytes as application/octet-stream. */
  call<T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
    raw?: Uint8Array,
  ): Promise<{ status: number; body: T }>;
  stop(): Promise<void>;
}

export async function startPluginHub(options: {
  ha: { url: string; token: string };
  dataDir?: string;
  plugins?: Partial<Omit<PluginServiceOptions, "dataDir" | "log">>;
}): Promise<PluginHub> {
  const { log, lines } = memoryLogger("debug");
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), "plugin-hub-")));
  const stops: (() => Promise<void>)[] = [];
  const homeAssistant = new HomeAssistantService({ ...options.ha, log, runningPollMs: 100, actionTimeoutMs: 2000 });
  stops.unshift(() => homeAssistant.stop());
  const environment = createMatterEnvironment({ storagePath: join(dataDir, "matter"), log, mdnsInterface: "lo" });
  stops.unshift(() => environment.close());
  const mappings = new EntityMappingStore(dataDir);
  await mappings.load();
  const plugins = new PluginService({ dataDir, log: log.child({ component: "plugins" }), homeAssistant, ...options.plugins });
  await plugins.start();
  stops.unshift(() => plugins.stop());
  const bridges = new BridgeService(
    new BridgeStore(dataDir),
    (config, onChange) =>
      new MatterBridgeRuntime(
        config,
        {
          environment,
          ha: homeAssistant,
          mappings,
          identities: (id) => new EndpointIdentities(dataDir, id),
          log,
          version: "9.9.9",
          plugins: plugins.forBridge,
        },
        onChange,
      ),
    log,
    (id) => plugins.removeBridge(id),
  );
  stops.unshift(() => bridges.stop());
  const app = new Hono();
  app.onError(hubErrorHandler(log));
  app.notFound(hubNotFound);
  app.route("/api/matter", bridgeRoutes(bridges, homeAssistant.model));
  app.route("/api/plugins", pluginRoutes(plugins, bridges));
  homeAssistant.start();
  await homeAssistant.whenLoaded();
  await bridges.start();
  return {
    app,
    plugins,
    bridges,
    homeAssistant,
    dataDir,
    log,
    logLines: lines,
    async call<T>(method: string, path: string, body?: unknown, raw?: Uint8Array) {
      const headers: Record<string, string> = {};
      if (raw) headers["content-type"] = "application/octet-stream";
      else if (body !== undefined) headers["content-type"] = "application/json";
      const response = await app.request(path, {
        method,
        headers,
        body: raw ? Buffer.from(raw) : body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
    },
    async stop() {
      for (const stop of stops.splice(0)) await stop().catch(() => undefined);
      if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}
