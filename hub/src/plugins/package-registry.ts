/**
 * The record of installed plugin packages, `<HUB_DATA_DIR>/plugin-packages.json`: name, version and where each came
 * from, so a package whose folder is lost is reinstalled from the same source at start. It lives outside the npm
 * folder (`plugin-packages/`), as do uploaded archives (`plugin-uploads/`): that folder can be lost or deleted as a
 * whole and is rebuilt. npm's own `package.json` there lists registry and upload installs, but not local links
 * (hub-plugins.md: linked folders are not recorded in the package dependencies).
 */
import { join } from "node:path";
import { readJsonFile, SerialWriter, writeFileAtomic } from "../storage/atomic-file.ts";

/** Where a package came from. */
export type PackageSource =
  /** `npm install <spec>` from the registry. */
  | { type: "registry"; spec: string }
  /** An uploaded archive kept as `plugin-uploads/<file>`. */
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
  packages: Record<string, InstalledPackage>;
}

export class PackageRegistry {
  readonly #path: string;
  readonly #writer = new SerialWriter();
  #packages = new Map<string, InstalledPackage>();

  constructor(path: string) {
    this.#path = path;
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
