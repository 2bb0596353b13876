/**
 * The record of installed plugin packages, `<HUB_DATA_DIR>/plugin-packages.json`: name, version and where each came
 * from, so a package whose folder is lost is reinstalled from the same source at start. It lives outside the npm
 * folder (`plugin-packages/`), as do uploaded archives (`plugin-uploads/`): that folder can be lost or deleted as a
 * whole and is rebuilt. npm's own `package.json` there lists registry and upload installs, but not local links
 * (docs/plugins.md "Endpoints": linked folders are not recorded in the package dependencies).
 */
import { join } from "node:path";
import type { Logger } from "../../../lib/logger.ts";
import { readJsonFile, SerialWriter, writeFileAtomic } from "../storage/atomic-file.ts";
import { checkPackageFile, checkPackageRecord, type InstalledPackage } from "./package-record.ts";

export type { InstalledPackage, PackageSource } from "./package-record.ts";

/** Where installed plugins live under the data dir (docs/plugins.md "Folders"). */
export interface PackagePaths {
  /** The npm prefix: its own package.json and node_modules, isolated from the hub's; disposable. */
  prefix: string;
  /** The record of installed packages. */
  record: string;
  /** Uploaded archives, kept to reinstall from. */
  uploads: string;
}

export function packagePaths(dataDir: string): PackagePaths {
  return {
    prefix: join(dataDir, "plugin-packages"),
    record: join(dataDir, "plugin-packages.json"),
    uploads: join(dataDir, "plugin-uploads"),
  };
}

interface RegistryFile {
  version: 1;
  packages: Record<string, unknown>;
}

/** A record of the file that failed the record check: kept in the file as it was, never acted on. */
export interface RefusedPackage {
  name: string;
  raw: unknown;
  reason: string;
}

export class PackageRegistry {
  readonly #path: string;
  readonly #reservedNames: readonly string[];
  readonly #log: Logger;
  readonly #writer = new SerialWriter();
  #packages = new Map<string, InstalledPackage>();
  #refused = new Map<string, RefusedPackage>();

  constructor(path: string, options: { reservedNames: readonly string[]; log: Logger }) {
    this.#path = path;
    this.#reservedNames = options.reservedNames;
    this.#log = options.log;
  }

  /**
   * Reads the file; every record goes through the same check as an install (package-record.ts). A record that
   * fails is skipped with a warning and listed by {@link refused}: the hub never links, installs or loads it.
   */
  async load(): Promise<void> {
    const file = await readJsonFile<{ version?: unknown; packages?: unknown }>(this.#path);
    if (file && file.version !== 1) throw new Error(`${this.#path}: unknown format version ${String(file.version)}`);
    const check = checkPackageFile(file, this.#reservedNames);
    if (check.problem) this.#log.error(`${this.#path}: ${check.problem}; no plugin package is loaded from it`);
    this.#packages = new Map(check.records.map((record) => [record.name, record]));
    this.#refused = new Map(check.refused.map((refused) => [refused.name, refused]));
    for (const { name, reason } of check.refused) {
      this.#log.warn({ plugin: name }, `plugin package record ${JSON.stringify(name)} skipped: ${reason}`);
    }
  }

  list(): InstalledPackage[] {
    return [...this.#packages.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  /** Records of the file that failed the check, with the reason. */
  refused(): RefusedPackage[] {
    return [...this.#refused.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  get(name: string): InstalledPackage | undefined {
    return this.#packages.get(name);
  }

  /** Records a package; throws when the record fails the check (the installer built it, so that is a bug). */
  async put(record: InstalledPackage): Promise<void> {
    const check = checkPackageRecord(record.name, record, this.#reservedNames);
    if (!check.ok) throw new Error(`refusing to record plugin package ${JSON.stringify(record.name)}: ${check.reason}`);
    this.#refused.delete(record.name);
    this.#packages.set(record.name, check.record);
    await this.#persist();
  }

  /** Removes a record, a refused one too. */
  async delete(name: string): Promise<void> {
    this.#packages.delete(name);
    this.#refused.delete(name);
    await this.#persist();
  }

  #persist(): Promise<void> {
    // Refused records stay in the file as they were (a newer hub may understand them); only uninstall drops them.
    const packages = Object.fromEntries([
      ...[...this.#refused.values()].map(({ name, raw }) => [name, raw] as const),
      ...[...this.#packages.values()].map((record) => [record.name, record] as const),
    ]);
    const file: RegistryFile = { version: 1, packages };
    const text = `${JSON.stringify(file, null, 2)}\n`;
    return this.#writer.run(() => writeFileAtomic(this.#path, text));
  }
}
