import { join } from "node:path";
import { readJsonFile, SerialWriter, writeFileAtomic } from "../storage/atomic-file.ts";
import type { BridgeConfig } from "./bridge-config.ts";
import { BRIDGES_FILE } from "./bridge-files.ts";

interface BridgesFile {
  version: 1;
  bridges: BridgeConfig[];
}

/** Persists bridge configurations in `<dataDir>/bridges.json`, atomically, one writer at a time. */
export class BridgeStore {
  readonly #path: string;
  readonly #writer = new SerialWriter();
  #bridges = new Map<string, BridgeConfig>();

  constructor(dataDir: string) {
    this.#path = join(dataDir, BRIDGES_FILE);
  }

  async load(): Promise<void> {
    const file = await readJsonFile<BridgesFile>(this.#path);
    if (file && file.version !== 1) throw new Error(`${this.#path}: unknown format version ${String(file.version)}`);
    // Bridges stored before `composeDevices` existed compose, like new ones (the default); before `controllers`
    // existed they had none (no checks, nothing left out).
    this.#bridges = new Map(
      (file?.bridges ?? []).map((bridge) => [
        bridge.id,
        {
          ...bridge,
          composeDevices: bridge.composeDevices ?? true,
          controllers: bridge.controllers ?? [],
          leaveOutUnsupported: bridge.leaveOutUnsupported ?? false,
        },
      ]),
    );
  }

  list(): BridgeConfig[] {
    return [...this.#bridges.values()];
  }

  get(id: string): BridgeConfig | undefined {
    return this.#bridges.get(id);
  }

  /** Stores one bridge (create or replace) and persists before resolving. */
  async put(bridge: BridgeConfig): Promise<void> {
    this.#bridges.set(bridge.id, bridge);
    await this.#persist();
  }

  /** Stores several at once (priorities, import) in one write. */
  async putMany(bridges: BridgeConfig[]): Promise<void> {
    for (const bridge of bridges) this.#bridges.set(bridge.id, bridge);
    await this.#persist();
  }

  async delete(id: string): Promise<void> {
    this.#bridges.delete(id);
    await this.#persist();
  }

  #persist(): Promise<void> {
    return this.#writer.run(() => {
      const file: BridgesFile = { version: 1, bridges: this.list() };
      return writeFileAtomic(this.#path, `${JSON.stringify(file, null, 2)}\n`);
    });
  }
}
