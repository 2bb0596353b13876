/**
 * What the hub keeps per bridge and plugin, in `<HUB_DATA_DIR>/plugins/<bridgeId>/<plugin>/`:
 * - `state.json`: enabled (the user's choice), auto-disabled by the breaker, consecutive failures, last error;
 * - `config.json`: the saved configuration without secrets;
 * - `secrets.json`: the schema's `secret` fields (e.g. the appliance cloud password), never sent back, never in backups;
 * - `storage.json`: the plugin's own key-value storage (`context.storage`).
 * Scoped package names are folder-encoded (`@scope/name` → `%40scope%2Fname`).
 */
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { readJsonFile, SerialWriter, writeFileAtomic } from "../storage/atomic-file.ts";
import type { PluginConfig, PluginStorage } from "./api.ts";

/** The persisted enablement and breaker state of a plugin on a bridge. */
export interface SlotRecord {
  /** The user's choice; undefined = the default (built-ins on, installed packages off). */
  enabled?: boolean | undefined;
  autoDisabled: boolean;
  failures: number;
  lastError: string | null;
}

const EMPTY: SlotRecord = { autoDisabled: false, failures: 0, lastError: null };

/** The folder name of a plugin (a package name may hold `/` and `@`). */
export function pluginFolderName(name: string): string {
  return encodeURIComponent(name);
}

/** The folder of everything a bridge's plugins keep (removed with the bridge). */
export function bridgePluginsDir(dataDir: string, bridgeId: string): string {
  return join(dataDir, "plugins", bridgeId);
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** The files of one plugin on one bridge; writes are atomic and serialised. */
export class PluginFiles {
  readonly dir: string;
  readonly #writer = new SerialWriter();

  constructor(dataDir: string, bridgeId: string, pluginName: string) {
    this.dir = join(bridgePluginsDir(dataDir, bridgeId), pluginFolderName(pluginName));
  }

  async readState(): Promise<SlotRecord> {
    return { ...EMPTY, ...(await readJsonFile<Partial<SlotRecord>>(join(this.dir, "state.json"))) };
  }

  writeState(record: SlotRecord): Promise<void> {
    return this.#write("state.json", record);
  }

  /** The saved configuration without secrets, or undefined when none was saved. */
  readConfig(): Promise<PluginConfig | undefined> {
    return readJsonFile<PluginConfig>(join(this.dir, "config.json"));
  }

  async readSecrets(): Promise<Record<string, string>> {
    return (await readJsonFile<Record<string, string>>(join(this.dir, "secrets.json"))) ?? {};
  }

  async writeConfig(config: PluginConfig, secrets: Record<string, string>): Promise<void> {
    await this.#write("config.json", config);
    if (Object.keys(secrets).length > 0) await this.#write("secrets.json", secrets);
    else await rm(join(this.dir, "secrets.json"), { force: true });
  }

  /** Loads `storage.json` into a {@link PluginStorage} whose `set` persists before it resolves. */
  async openStorage(): Promise<PluginStorage> {
    const data = (await readJsonFile<Record<string, unknown>>(join(this.dir, "storage.json"))) ?? {};
    return {
      get: <T>(key: string) => (key in data ? (structuredClone(data[key]) as T) : undefined),
      set: async (key: string, value: unknown) => {
        if (typeof key !== "string" || key === "") throw new TypeError("storage keys are non-empty strings");
        if (value === undefined) delete data[key];
        else data[key] = JSON.parse(JSON.stringify(value)) as unknown;
        await this.#write("storage.json", data);
      },
    };
  }

  /** Everything of this plugin on this bridge (uninstall). */
  remove(): Promise<void> {
    return this.#writer.run(() => rm(this.dir, { recursive: true, force: true }));
  }

  #write(name: string, value: unknown): Promise<void> {
    const text = json(value);
    return this.#writer.run(() => writeFileAtomic(join(this.dir, name), text));
  }
}
