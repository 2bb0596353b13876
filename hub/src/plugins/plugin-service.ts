/**
 * The hub's plugin system (docs/plugins.md): installed packages, built-in plugins, and one plugin host per bridge
 * (made through {@link PluginService.forBridge}, the factory MatterBridgeDeps.plugins takes). Created once in
 * hub.ts; nothing here is a module singleton. Package operations and per-bridge operations are in
 * {@link PluginCatalog} and the routes; this class ties them together. The process-level guard against unhandled
 * rejections (rejection-guard.ts) belongs to the process, so main.ts installs it once, not this service: the hub
 * is rebuilt in-process after a restore.
 */
import { rm } from "node:fs/promises";
import type { Logger } from "../../../lib/logger.ts";
import type { HomeAssistantService } from "../home-assistant/home-assistant-service.ts";
import type { PluginBridgeSeam, PluginHostForBridge } from "../matter/plugin-devices/seam.ts";
import { BridgePluginHost } from "./bridge-plugin-host.ts";
import type { ApplianceCloudClient } from "./builtin/appliance-cloud/cloud-client.ts";
import { builtinPlugins } from "./builtin/builtin-plugins.ts";
import { hubBuiltinServices } from "./builtin-providers/hub-services.ts";
import type { BuiltinPluginDefinition } from "./builtin-services.ts";
import { type Clock, systemClock } from "./clock.ts";
import { InstallJobs } from "./install-jobs.ts";
import { LIFECYCLE_TIMEOUT_MS } from "./lifecycle-call.ts";
import { createNpmRunner, type NpmOptions, type NpmRunner } from "./npm-runner.ts";
import { packagePaths } from "./package-registry.ts";
import { PluginCatalog } from "./plugin-catalog.ts";
import { bridgePluginsDir } from "./plugin-files.ts";

export interface PluginServiceOptions {
  dataDir: string;
  log: Logger;
  /** For the default built-in plugins (camera and security need Home Assistant; without it there are none). */
  homeAssistant?: HomeAssistantService;
  /** Replaces the default built-ins (tests). */
  builtins?: BuiltinPluginDefinition[];
  /** The appliance cloud plugin's client, one per instance; default the VeSync-style client (tests: a simulated cloud). */
  cloudClient?: () => ApplianceCloudClient;
  clock?: Clock;
  /** Per lifecycle call; default 10 s (tests use a short one). */
  lifecycleTimeoutMs?: number;
  /** Delay before a failed start is retried; default 30 s. */
  retryDelayMs?: number;
  /** Largest accepted `.tgz` upload; default 20 MiB. */
  uploadLimitBytes?: number;
  npm?: NpmOptions;
}

/** What HubOptions may tune (tests): everything but the hub's own services. */
export type PluginTuning = Partial<Omit<PluginServiceOptions, "dataDir" | "log" | "homeAssistant">>;

export const DEFAULT_UPLOAD_LIMIT = 20 * 1024 * 1024;

export class PluginService {
  readonly catalog: PluginCatalog;
  /** Installs as jobs with progress and cancel (install-jobs.ts). */
  readonly installs = new InstallJobs();
  readonly uploadLimitBytes: number;
  readonly #hosts = new Map<string, BridgePluginHost>();
  readonly #options: PluginServiceOptions;
  readonly #log: Logger;
  readonly #clock: Clock;
  readonly #npm: NpmRunner;

  constructor(options: PluginServiceOptions) {
    this.#options = options;
    this.#log = options.log;
    this.#clock = options.clock ?? systemClock();
    this.uploadLimitBytes = options.uploadLimitBytes ?? DEFAULT_UPLOAD_LIMIT;
    this.#npm = createNpmRunner(options.npm);
    const builtins = options.builtins ?? (options.homeAssistant ? builtinPlugins({ cloudClient: options.cloudClient }) : []);
    this.catalog = new PluginCatalog({
      paths: packagePaths(options.dataDir),
      builtins,
      builtinServices: hubBuiltinServices({ homeAssistant: options.homeAssistant, log: options.log }),
      npm: this.#npm,
      log: options.log,
      hosts: () => [...this.#hosts.values()],
    });
  }

  /** Loads the package records and reinstalls lost packages in the background. */
  async start(): Promise<void> {
    await this.catalog.load();
  }

  /** Ends npm runs and waits for the background reinstall to give up (bridges are stopped before this). */
  async stop(): Promise<void> {
    this.#npm.close();
    await this.catalog.idle();
  }

  /** MatterBridgeDeps.plugins: the plugin host of one bridge. */
  readonly forBridge = (seam: PluginBridgeSeam): PluginHostForBridge => {
    const host = new BridgePluginHost(seam, {
      dataDir: this.#options.dataDir,
      log: this.#log,
      clock: this.#clock,
      timeoutMs: this.#options.lifecycleTimeoutMs ?? LIFECYCLE_TIMEOUT_MS,
      retryDelayMs: this.#options.retryDelayMs ?? 30_000,
      sources: () => this.catalog.sources(),
      onDispose: (disposed) => {
        if (this.#hosts.get(disposed.bridgeId) === disposed) this.#hosts.delete(disposed.bridgeId);
      },
    });
    this.#hosts.set(seam.bridgeId, host);
    return host;
  };

  /** The host of a bridge, if the bridge exists. */
  host(bridgeId: string): BridgePluginHost | undefined {
    return this.#hosts.get(bridgeId);
  }

  /** Deletes what a deleted bridge's plugins kept (config, secrets, storage, state). */
  async removeBridge(bridgeId: string): Promise<void> {
    await rm(bridgePluginsDir(this.#options.dataDir, bridgeId), { recursive: true, force: true });
  }
}
