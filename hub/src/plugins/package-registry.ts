/**
 * The record of installed plugin packages, `<HUB_DATA_DIR>/plugin-packages/installed.json`: name, version and
 * where each came from, so a package whose folder is lost (a recreated container) is reinstalled from the same
 * source at start. npm's own `package.json` in that folder lists registry and upload installs too, but not local
 * links (hub-plugins.md: linked folders are not recorded in the package dependencies).
 */
import { join } from "node:path";
import { readJsonFile, SerialWriter, writeFileAtomic } from "../storage/atomic-file.ts";

/** Where a package came from. */
export type PackageSource =
  /** `npm install <spec>` from the registry. */
  | { type: "registry"; spec: string }
  /** An uploaded archive kept under `plugin-packages/uploads/<file>`. */
  | { type: "upload"; file: string }
  /** A symlink to a local folder (development). */
  | { type: "local"; path: string };

export interface InstalledPackage {
  name: string;
  version: string;
  description: string;
  source: PackageSource;
  installedAt: string;
  hubPluginApiVersion: number | null;
}

interface RegistryFile {
  version: 1;
  packages: Record<string, InstalledPackage>;
}

export class PackageRegistry {
  readonly #path: string;
  readonly #writer = new SerialWriter();
  #packages = new Map<string, InstalledPackage>();

  constructor(prefix: string) {
    this.#path = join(prefix, "installed.json");
  }

  async load(): Promise<void> {
    const file = await readJsonFile<RegistryFile>(this.#path);
    if (file && file.version !== 1) throw new Error(`${this.#path}: unknown format version ${String(file.version)}`);
    this.#packages = new Map(Object.entries(file?.packages ?? {}));
  }

  list(): InstalledPackage[] {
    return [...this.#packages.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  get(name: string): InstalledPackage | undefined {
    return this.#packages.get(name);
  }

  async put(record: InstalledPackage): Promise<void> {
    this.#packages.set(record.name, record);
    await this.#persist();
  }

  async delete(name: string): Promise<void> {
    this.#packages.delete(name);
    await this.#persist();
  }

  #persist(): Promise<void> {
    const file: RegistryFile = { version: 1, packages: Object.fromEntries(this.#packages) };
    const text = `${JSON.stringify(file, null, 2)}\n`;
    return this.#writer.run(() => writeFileAtomic(this.#path, text));
  }
}
