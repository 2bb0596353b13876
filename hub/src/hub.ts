import { rm } from "node:fs/promises";
import { join } from "node:path";
import type { Hono } from "hono";
import { type RunningHttpServer, startHttpServer } from "../../lib/http-server.ts";
import type { Logger } from "../../lib/logger.ts";
import { BasicAuth } from "./auth/basic-auth.ts";
import { ingressProxyOf } from "./auth/client-key.ts";
import { createBackupFeatures } from "./backup/backup-wiring.ts";
import { recoverInterruptedRestore } from "./backup/restore-journal.ts";
import { bridgeFiles, MATTER_DIR } from "./bridges/bridge-files.ts";
import { BridgeService } from "./bridges/bridge-service.ts";
import { BridgeStore } from "./bridges/bridge-store.ts";
import { EndpointIdentities } from "./bridges/endpoint-identities.ts";
import type { HubConfig } from "./config.ts";
import type { HubContext } from "./context.ts";
import { DiagnosticBus } from "./diagnostics/diagnostic-bus.ts";
import { watchDiagnostics } from "./diagnostics/diagnostic-sources.ts";
import { healthSources } from "./diagnostics/health-status.ts";
import { metricsSources } from "./diagnostics/hub-metrics.ts";
import { EntityMappingStore } from "./entity-mappings/entity-mapping-store.ts";
import { diagnosticSummary } from "./health/detailed-health.ts";
import { HomeAssistantService } from "./home-assistant/home-assistant-service.ts";
import { createHubApp } from "./http/app.ts";
import { startLanListener } from "./http/lan-listener.ts";
import { LiveChannel } from "./live/live-channel.ts";
import { LockCredentialService } from "./lock-credentials/lock-credential-service.ts";
import type { LogRing } from "./logs/log-ring.ts";
import { planBridge } from "./matter/bridge/bridge-plan.ts";
import { MatterBridgeRuntime } from "./matter/bridge/runtime.ts";
import { createMatterEnvironment } from "./matter/matter-environment.ts";
import { PluginService, type PluginTuning } from "./plugins/plugin-service.ts";
import { RecoveryService } from "./recovery/recovery-service.ts";
import { SettingsFile } from "./recovery/settings-file.ts";
import { type HeapSource, v8HeapSource, watchHeap } from "./system/heap-watch.ts";

export interface HubOptions {
  config: HubConfig;
  log: Logger;
  logRing: LogRing;
  version: string;
  /** Test tuning: how often to re-ask HA while it starts, and the service-call time-out. */
  haRunningPollMs?: number;
  actionTimeoutMs?: number;
  /** Test tuning: how often to re-read HA's voice assistant exposure list (60 s by default; see HomeAssistantService). */
  haExposurePollMs?: number;
  /** Test tuning: the live channel's server ping interval (30 s by default). */
  livePingIntervalMs?: number;
  /** Test tuning of the plugin system: short lifecycle time-out and retry delay, private npm settings, a simulated cloud. */
  plugins?: PluginTuning;
  /** Restarts the hub in-process (main.ts: `restartable`); after a restore. */
  requestRestart?: () => unknown;
  /** Test tuning: the clock of the lock PINs' brute-force brake (to step over its lockout). */
  lockBrakeNow?: () => number;
  /**
   * Test tuning: the first UDP port new bridges are offered (5540). Test files run side by side in one network
   * namespace; the hub's probe for a free port cannot see a port another file is about to bind.
   */
  firstMatterPort?: number;
  /** Test tuning: heap figures and major GCs from a fake instead of V8 (the low-memory warning). */
  heapSource?: HeapSource;
}

export interface Hub {
  readonly ctx: HubContext;
  readonly app: Hono;
  /** Connects to HA and starts the bridges in the background (they wait for HA's data). */
  start(): void;
  /** Serves HTTP on the configured host and port. */
  listen(): Promise<RunningHttpServer>;
  /** Stops everything in reverse order of creation. */
  stop(): Promise<void>;
}

/**
 * Builds the whole hub from its configuration: Home Assistant (or demo mode's simulated one), the Matter
 * environment, stores, bridges, and the HTTP app. main.ts and the whole-app tests use this same wiring.
 */
export async function createHub(options: HubOptions): Promise<Hub> {
  const { config, log, logRing, version } = options;
  const stops: (() => Promise<void>)[] = [];
  const stopAll = async () => {
    for (const stop of stops.splice(0)) await stop().catch((error: unknown) => log.error({ err: error }, "error while stopping"));
  };
  try {
    // Before anything reads the data dir: a restore killed half-way is finished (or undone) first (docs/backup.md).
    await recoverInterruptedRestore(config.dataDir, log.child({ component: "backup" }));
    const auth = await BasicAuth.load({
      dataDir: config.dataDir,
      env: config.auth,
      ingressProxy: ingressProxyOf(config.http.allowedIps),
      log: log.child({ component: "auth" }),
    });
    let ha = config.ha;
    if (!ha) {
      // A notice, not a problem: demo mode is what an unconfigured hub is for (the UI shows it on its own).
      log.info("DEMO MODE: no Home Assistant configured (HA_URL unset); using the built-in simulated home");
      // Loaded only here: the simulator and the demo home are dozens of modules a real installation never needs.
      const { startDemoHomeAssistant } = await import("./demo/demo-home-assistant.ts");
      const demo = await startDemoHomeAssistant(log.child({ component: "demo-ha" }));
      stops.unshift(() => demo.close());
      ha = { url: demo.url, token: demo.token };
    }
    const homeAssistant = new HomeAssistantService({
      url: ha.url,
      token: ha.token,
      log: log.child({ component: "home-assistant" }),
      runningPollMs: options.haRunningPollMs,
      actionTimeoutMs: options.actionTimeoutMs,
      exposurePollMs: options.haExposurePollMs,
    });
    stops.unshift(() => homeAssistant.stop());

    const matterPath = join(config.dataDir, MATTER_DIR);
    const environment = createMatterEnvironment({
      storagePath: matterPath,
      log: log.child({ component: "matter" }),
      mdnsInterface: config.mdnsInterface,
    });
    stops.unshift(() => environment.close());
    const mappings = new EntityMappingStore(config.dataDir);
    await mappings.load();
    const lockCredentials = new LockCredentialService({
      dataDir: config.dataDir,
      log: log.child({ component: "lock-credentials" }),
      brake: options.lockBrakeNow ? { now: options.lockBrakeNow } : undefined,
    });
    await lockCredentials.load();
    // Before the bridges (their runtimes get a plugin host each) and stopped after them: a bridge shuts its plugins
    // down while it stops. start() loads the package records; lost package folders are reinstalled in the background.
    const plugins = new PluginService({
      dataDir: config.dataDir,
      log: log.child({ component: "plugins" }),
      homeAssistant,
      ...options.plugins,
    });
    await plugins.start();
    stops.unshift(() => plugins.stop());
    const bridgeLog = log.child({ component: "bridges" });
    const bridges = new BridgeService(
      new BridgeStore(config.dataDir),
      (bridgeConfig, onChange, onDeviceChange) =>
        new MatterBridgeRuntime(
          bridgeConfig,
          {
            environment,
            ha: homeAssistant,
            mappings,
            identities: (id) => new EndpointIdentities(config.dataDir, id),
            log: bridgeLog,
            version,
            // Remote unlocks of every DoorLock endpoint are checked against the lock PINs (docs/lock-credentials.md).
            pinCheck: lockCredentials.pinCheck,
            plugins: plugins.forBridge,
          },
          onChange,
          onDeviceChange,
        ),
      bridgeLog,
      async (id) => {
        // Everything the bridge owned: its Matter identity, known controller addresses, endpoint identities, mappings.
        const owned = bridgeFiles(id);
        for (const path of [owned.matterStorage, owned.controllers, owned.identities]) {
          await rm(join(config.dataDir, path), { recursive: true, force: true });
        }
        await mappings.deleteAll(id);
        await plugins.removeBridge(id);
      },
      (bridgeConfig) => planBridge({ model: homeAssistant.model, mappings }, bridgeConfig),
      options.firstMatterPort,
    );
    stops.unshift(() => bridges.stop());
    await bridges.load();

    const diagnostics = new DiagnosticBus();
    const unwatch = watchDiagnostics(diagnostics, { bridges, homeAssistant });
    stops.unshift(async () => unwatch());
    const recovery = await RecoveryService.load({
      settingsFile: new SettingsFile(config.dataDir),
      bridges,
      haClient: homeAssistant.client,
      diagnostics,
      log: log.child({ component: "recovery" }),
    });
    stops.unshift(() => recovery.stop());
    const live = new LiveChannel({
      bridges,
      diagnostics,
      summary: () => diagnosticSummary({ bridges, homeAssistant, recovery, diagnostics }),
      log: log.child({ component: "live" }),
      pingIntervalMs: options.livePingIntervalMs,
    });
    stops.unshift(async () => live.close());

    const startedAt = Date.now();
    const ctx: HubContext = {
      config,
      log,
      version,
      startedAt,
      homeAssistant,
      bridges,
      mappings,
      lockCredentials,
      plugins,
      diagnostics,
      recovery,
      live,
      requestRestart: options.requestRestart ?? (() => log.warn("a restart was requested but this hub cannot restart itself")),
      logs: logRing,
      auth,
      health: healthSources({ bridges, homeAssistant }),
      metrics: metricsSources({ startedAt, bridges, homeAssistant, logRing }),
      heap: options.heapSource ?? v8HeapSource,
    };
    const app = createHubApp(ctx, createBackupFeatures(ctx, { requestRestart: ctx.requestRestart }));

    return {
      ctx,
      app,
      start() {
        const heapLimitMb = Math.round(ctx.heap.limit() / 1024 / 1024);
        log.info({ heapLimitMb }, `JavaScript heap limit ${heapLimitMb} MB`);
        const unwatchHeap = watchHeap({ source: ctx.heap, load: () => exposedLoad(bridges), log });
        stops.unshift(async () => unwatchHeap());
        homeAssistant.start();
        recovery.start();
        bridges
          .start()
          .then(() => (config.demo ? createDemoBridge(bridges, log) : undefined))
          .catch((error: unknown) => bridgeLog.error({ err: error }, "could not start the bridges"));
      },
      async listen() {
        const http = await startHttpServer({ app, host: config.http.host, port: config.http.port, log });
        stops.unshift(() => http.close());
        const lan = await startLanListener({ app, config, auth, log });
        if (lan) stops.unshift(() => lan.close());
        // Before the HTTP server closes: SSE streams end so that close() does not wait for them. The ring itself
        // outlives this hub (an in-process restart keeps the log).
        stops.unshift(async () => logRing.endStreams());
        return http;
      },
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/** What the low-memory warning says of the home: exposed devices over all bridges. */
function exposedLoad(bridges: BridgeService): { devices: number; bridges: number } {
  const list = bridges.list();
  return { devices: list.reduce((sum, bridge) => sum + bridge.deviceCount, 0), bridges: list.length };
}

/**
 * Demo mode on a fresh data dir: one bridge over the demo home's everyday devices, ready to pair. Composed: the
 * locks, contacts and motion sensor carry their batteries and the plugs their meters, whatever the filter says of
 * the sensors. The "Energy monitoring" label adds the meters with nothing to switch (solar inverter, P1 meter, EV
 * charger, the relay cabinet's total) as Electrical Sensors, about six endpoints; the whole sensor domain would add
 * some thirty temperature, humidity and air-quality sensors and bury the composed devices.
 */
async function createDemoBridge(bridges: BridgeService, log: Logger): Promise<void> {
  if (bridges.list().length > 0) return;
  const domains = ["light", "switch", "cover", "lock", "climate", "fan", "binary_sensor", "media_player"];
  const include = [...domains.map((value) => ({ type: "domain" as const, value })), { type: "label" as const, value: "energy" }];
  const bridge = await bridges.create({
    name: "Demo bridge",
    port: await bridges.nextPort(),
    filter: { include, exclude: [], includeHidden: false },
    priority: 100,
    serverMode: false,
    composeDevices: true,
    autoStart: true,
  });
  // The pairing code stays out of the log, as for every bridge: the UI shows it (docs/decisions.md "Bridges").
  log.info(
    { bridgeId: bridge.id, port: bridge.port },
    `DEMO MODE: created "Demo bridge" on port ${bridge.port}; its pairing codes are on its page in the hub UI`,
  );
}
