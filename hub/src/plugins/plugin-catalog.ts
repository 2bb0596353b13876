/**
 * Which plugins exist: the built-ins and the installed packages, with their install, upload, link and uninstall
 * operations and the loading of package modules. Lost package folders are reinstalled from their recorded source
 * in the background at start; a plugin waiting to start waits for that, the bridges do not.
 */
import { join } from "node:path";
import { notFound } from "../../../lib/http-error.ts";
import type { Logger } from "../../../lib/logger.ts";
import { HUB_PLUGIN_API_VERSION } from "./api.ts";
import type { BridgePluginHost } from "./bridge-plugin-host.ts";
import type { BuiltinPluginDefinition, HubBuiltinServices } from "./builtin-services.ts";
import { type InstallWatch, PluginInstaller } from "./installer.ts";
import { apiVersionWarning } from "./manifest.ts";
import type { NpmRunner } from "./npm-runner.ts";
import type { PackageSource } from "./package-record.ts";
import { type InstalledPackage, type PackagePaths, PackageRegistry } from "./package-registry.ts";
import { instantiatePlugin, type LoadedPlugin, loadPluginPackage } from "./plugin-loader.ts";
import { builtinSource, type PluginSource } from "./plugin-source.ts";

export interface PluginCatalogOptions {
  /** The npm prefix, the record and the uploads (package-registry.ts {@link packagePaths}). */
  paths: PackagePaths;
  builtins: readonly BuiltinPluginDefinition[];
  /** What the hub gives every built-in instance (builtin-providers/hub-services.ts). */
  builtinServices: HubBuiltinServices;
  npm: NpmRunner;
  log: Logger;
  hosts: () => BridgePluginHost[];
}

/**
 * The result of an install: the package, whether a hub restart is needed for its code to load, and what the user
 * should know (a plugin API version this hub does not implement: it is installed and loaded anyway).
 */
export interface InstallResult {
  package: InstalledPackage;
  restartRequired: boolean;
  warnings: string[];
}

export class PluginCatalog {
  readonly #options: PluginCatalogOptions;
  readonly #registry: PackageRegistry;
  readonly #installer: PluginInstaller;
  readonly #loaded = new Map<string, LoadedPlugin>();
  readonly #unavailable = new Map<string, string>();
  readonly #restartRequired = new Set<string>();
  readonly #reinstalling = new Set<string>();
  #ready: Promise<void> = Promise.resolve();

  constructor(options: PluginCatalogOptions) {
    this.#options = options;
    const reservedNames = options.builtins.map((builtin) => builtin.name);
    this.#registry = new PackageRegistry(options.paths.record, { reservedNames, log: options.log });
    this.#installer = new PluginInstaller({
      paths: options.paths,
      npm: options.npm,
      registry: this.#registry,
      reservedNames,
      log: options.log,
    });
  }

  async load(): Promise<void> {
    await this.#installer.recover();
    await this.#registry.load();
    for (const record of this.#registry.list()) {
      if (await this.#installer.missing(record)) this.#reinstalling.add(record.name);
    }
    this.#ready = this.#restoreAll();
  }

  /** Resolves when the background reinstall is done. */
  idle(): Promise<void> {
    return this.#ready;
  }

  sources(): PluginSource[] {
    const hub = this.#options.builtinServices;
    return [
      ...this.#options.builtins.map((definition) => builtinSource(definition, hub)),
      ...this.#registry.list().map((record) => this.#source(record.name)),
    ];
  }

  builtins() {
    return this.#options.builtins.map(({ name, displayName, version, description, experimental }) => ({
      name,
      displayName,
      version,
      description,
      experimental,
    }));
  }

  /** Installed packages with their status; a record refused at load is listed `unavailable` with the reason. */
  packages() {
    const installed = this.#registry.list().map((record) => ({
      ...record,
      status: this.#reinstalling.has(record.name)
        ? "reinstalling"
        : this.#unavailable.has(record.name)
          ? "unavailable"
          : "installed",
      error: this.#unavailable.get(record.name) ?? null,
      apiVersionMismatch: record.hubPluginApiVersion !== HUB_PLUGIN_API_VERSION,
      loadedVersion: this.#loaded.get(record.name)?.version ?? null,
      restartRequired: this.#restartRequired.has(record.name),
    }));
    const refused = this.#registry.refused().map(({ name, raw, reason }) => ({
      ...refusedRecord(name, raw),
      status: "unavailable" as const,
      error: `the record in plugin-packages.json is refused: ${reason}; uninstall it`,
      apiVersionMismatch: false,
      loadedVersion: null,
      restartRequired: false,
    }));
    return [...installed, ...refused].sort((a, b) => a.name.localeCompare(b.name));
  }

  install(spec: string, watch?: InstallWatch): Promise<InstallResult> {
    return this.#installed(this.#installer.installFromRegistry(spec, watch));
  }

  upload(archive: Uint8Array, watch?: InstallWatch): Promise<InstallResult> {
    return this.#installed(this.#installer.installFromArchive(archive, watch));
  }

  installLocal(path: string): Promise<InstallResult> {
    return this.#installed(this.#installer.linkLocal(path));
  }

  /** Takes the plugin off every bridge (its per-bridge files too), then removes the package. */
  async uninstall(name: string): Promise<void> {
    if (this.#registry.refused().some((refused) => refused.name === name)) {
      // Never installed, linked or loaded: dropping the record is all there is to do (no npm run on its name).
      await this.#registry.delete(name);
      this.#options.log.info({ plugin: name }, `refused plugin package record ${JSON.stringify(name)} removed`);
      return;
    }
    if (!this.#registry.get(name)) throw notFound(`Plugin package not installed: ${name}`);
    for (const host of this.#options.hosts()) await host.removePlugin(name);
    await this.#installer.uninstall(name);
    this.#unavailable.delete(name);
    this.#options.log.info({ plugin: name }, `plugin package ${name} uninstalled`);
  }

  async #installed(operation: Promise<InstalledPackage>): Promise<InstallResult> {
    const record = await operation;
    this.#unavailable.delete(record.name);
    // An ES module stays cached by its URL: code already loaded in this process changes only with a restart.
    const loaded = this.#loaded.get(record.name);
    if (loaded && record.source.type !== "local") this.#restartRequired.add(record.name);
    this.#options.log.info(
      { plugin: record.name, version: record.version, source: record.source },
      `plugin package ${record.name} installed`,
    );
    const warning = apiVersionWarning(record.name, record.hubPluginApiVersion ?? undefined);
    return { package: record, restartRequired: this.#restartRequired.has(record.name), warnings: warning ? [warning] : [] };
  }

  async #restoreAll(): Promise<void> {
    for (const record of this.#registry.list()) {
      if (!this.#reinstalling.has(record.name)) continue;
      const reason = await this.#installer.restore(record).catch((error: unknown) => (error as Error).message);
      this.#reinstalling.delete(record.name);
      if (!reason) continue;
      this.#unavailable.set(record.name, reason);
      this.#options.log.error({ plugin: record.name }, `plugin ${record.name} could not be reinstalled: ${reason}`);
    }
  }

  #source(name: string): PluginSource {
    return {
      name,
      builtin: false,
      ready: () => this.#ready,
      instantiate: async () => {
        await this.#ready;
        const record = this.#registry.get(name);
        if (!record) throw new Error(`${name} is no longer installed`);
        const reason = this.#unavailable.get(name);
        if (reason) throw new Error(`${name} is not available: ${reason}`);
        return instantiatePlugin(await this.#module(record));
      },
    };
  }

  async #module(record: InstalledPackage): Promise<LoadedPlugin> {
    const local = record.source.type === "local";
    const cached = this.#loaded.get(record.name);
    if (cached && !local) return cached;
    const loaded = await loadPluginPackage(this.#installer.packageDir(record.name), {
      fresh: local,
      within: local ? undefined : join(this.#options.paths.prefix, "node_modules"),
    });
    if (!cached) for (const warning of loaded.warnings) this.#options.log.warn({ plugin: record.name }, warning);
    this.#loaded.set(record.name, loaded);
    return loaded;
  }
}

/** What the API can show of a refused record: its key, and its fields only where they have the expected type. */
function refusedRecord(name: string, raw: unknown): InstalledPackage {
  const fields = (typeof raw === "object" && raw !== null ? raw : {}) as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === "string" ? value.slice(0, 256) : "");
  const source = (typeof fields.source === "object" && fields.source !== null ? fields.source : {}) as Record<string, unknown>;
  const shown: PackageSource =
    source.type === "upload"
      ? { type: "upload", file: text(source.file) }
      : source.type === "local"
        ? { type: "local", path: text(source.path) }
        : { type: "registry", spec: text(source.spec) };
  return {
    name,
    version: text(fields.version),
    description: "",
    source: shown,
    installedAt: text(fields.installedAt),
    hubPluginApiVersion: null,
  };
}
