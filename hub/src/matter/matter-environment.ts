import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import {
  Crypto,
  Entropy,
  Environment,
  Filesystem,
  HttpEndpointFactory,
  MemoryStorageDriver,
  Network,
  RuntimeService,
  ServiceBundle,
  StorageService,
  WalStorageDriver,
} from "@matter/main";
import {
  DirectoryBlobStorageDriver,
  FileStorageDriver,
  FlatFileBlobStorageDriver,
  NodeJsCrypto,
  NodeJsFilesystem,
  NodeJsHttpEndpoint,
  NodeJsNetwork,
} from "@matter/nodejs";
import type { Logger } from "../../../lib/logger.ts";
import { forwardMatterLogs, type MatterLogLevel } from "./matter-log.ts";

export type { MatterLogLevel } from "./matter-log.ts";

export interface MatterEnvironmentOptions {
  /** Folder for all matter.js storage of this environment; every node gets a sub-folder named by its id. */
  storagePath: string;
  /** matter.js logs are forwarded here, with a `facility` field (see matter-log.ts for the level mapping). */
  log: Logger;
  /** Network interface for mDNS (e.g. `eth0`, `lo` in tests); all interfaces when absent. */
  mdnsInterface?: string | undefined;
  /** matter.js log threshold; by default derived from the pino logger's level. */
  logLevel?: MatterLogLevel | undefined;
}

/** One matter.js Environment owned by the hub (never `Environment.default`), shared by all of its bridges. */
export interface MatterEnvironment {
  readonly environment: Environment;
  readonly storagePath: string;
  /** Stops the environment's remaining workers (close the nodes first) and detaches the log forwarding. */
  close(): Promise<void>;
}

/**
 * Builds a standalone matter.js Environment: what `NodeJsEnvironment()` sets up for the default environment
 * (crypto, network, filesystem, file storage) minus the `ProcessManager`, which is what traps SIGINT/SIGTERM,
 * SIGUSR2 and SIGABRT and sets `process.exitCode` when its runtime starts and stops. Without a parent, nothing is
 * inherited from `Environment.default`, so its runtime never starts for us and no signal handler is installed:
 * main.ts alone owns the signals and closes the nodes itself.
 */
export function createMatterEnvironment(options: MatterEnvironmentOptions): MatterEnvironment {
  const storagePath = resolve(options.storagePath);
  mkdirSync(storagePath, { recursive: true });
  disableDefaultProcessManager();

  const environment = new Environment("matter-hub");
  const vars = environment.vars;
  // MATTER_* variables stay an escape hatch for matter.js tuning (argv and config.json are not read);
  // our explicit options below win over them.
  vars.addUnixEnvStyle(process.env);
  vars.set("storage.path", storagePath);
  vars.set("runtime.signals", false);
  vars.set("runtime.exitcode", false);
  if (options.mdnsInterface) vars.set("mdns.networkInterface", options.mdnsInterface);

  const crypto = new NodeJsCrypto();
  environment.set(Entropy, crypto);
  environment.set(Crypto, crypto);
  environment.set(Network, new NodeJsNetwork());
  environment.set(HttpEndpointFactory, new NodeJsHttpEndpoint.Factory());
  environment.set(Filesystem, new NodeJsFilesystem(storagePath));

  const storage = environment.get(StorageService);
  storage.registerDriver(MemoryStorageDriver);
  storage.registerDriver(WalStorageDriver);
  storage.registerDriver(FileStorageDriver);
  storage.registerBlobDriver(FlatFileBlobStorageDriver);
  storage.registerBlobDriver(DirectoryBlobStorageDriver);
  // matter.js's write-ahead-log driver for new storage: every attribute change of a bridged device is persisted, and
  // appending a record to the log costs about a third of the CPU of the "file" driver's temp-file + rename per key
  // (docs/PERFORMANCE.md) and far fewer writes to an SD card. A bridge whose storage the "file" driver created keeps
  // using it (matter.js reads the kind from driver.json). sqlite needs Node 22.
  storage.defaultDriver = "wal";
  storage.defaultBlobDriver = "file";

  ServiceBundle.default.deploy(environment);
  const stopLogs = forwardMatterLogs(options.log, options.logLevel);

  let closed = false;
  return {
    environment,
    storagePath,
    async close() {
      if (closed) return;
      closed = true;
      try {
        if (environment.owns(RuntimeService)) await environment.get(RuntimeService).close();
      } finally {
        environment[Symbol.dispose]();
        stopLogs();
      }
    },
  };
}

/**
 * Importing @matter/main creates `Environment.default` with a ProcessManager that installs SIGINT/SIGTERM handlers
 * as soon as anything runs in the default environment. The hub never does; this makes sure that even a stray
 * code path that did could not take over the signals or `process.exitCode` (the manager reads these variables when
 * its runtime starts). This is the only thing we change in the default environment.
 */
function disableDefaultProcessManager(): void {
  Environment.default.vars.set("runtime.signals", false);
  Environment.default.vars.set("runtime.exitcode", false);
}
