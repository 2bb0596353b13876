/**
 * The plugins of one bridge: a slot per known plugin (built-ins and installed packages), the bridge's plugin domain
 * mappings, and the start/stop the bridge runtime drives through its seam. Starting never blocks the bridge: each
 * plugin starts in the background and fails alone. A Server Mode bridge hosts no plugins at all.
 */
import type { Logger } from "../../../lib/logger.ts";
import type { DeviceTypeKey } from "../matter/model/contract.ts";
import type { PluginBridgeSeam, PluginHostForBridge } from "../matter/plugin-devices/seam.ts";
import type { Clock } from "./clock.ts";
import { DomainMappings } from "./domain-mappings.ts";
import { ManagedPluginSlot, type SlotInfo } from "./managed-slot.ts";
import { PluginFiles } from "./plugin-files.ts";
import type { PluginSource } from "./plugin-source.ts";

export interface BridgePluginHostDeps {
  dataDir: string;
  log: Logger;
  clock: Clock;
  timeoutMs: number;
  retryDelayMs: number;
  /** The plugins that exist right now (built-ins first, then installed packages). */
  sources: () => readonly PluginSource[];
  /** The bridge was deleted: forget this host. */
  onDispose: (host: BridgePluginHost) => void;
}

export class BridgePluginHost implements PluginHostForBridge {
  readonly #slots = new Map<string, Promise<ManagedPluginSlot>>();
  readonly #mappings: DomainMappings;
  readonly #log: Logger;
  #started = false;

  constructor(
    private readonly seam: PluginBridgeSeam,
    private readonly deps: BridgePluginHostDeps,
  ) {
    this.#log = deps.log.child({ bridgeId: seam.bridgeId });
    this.#mappings = new DomainMappings(this.#log);
  }

  get bridgeId(): string {
    return this.seam.bridgeId;
  }

  get serverMode(): boolean {
    return this.seam.serverMode();
  }

  start(): void {
    if (this.seam.serverMode()) {
      this.#log.info("Server Mode bridge: it hosts no plugins");
      return;
    }
    this.#started = true;
    void (async () => {
      for (const source of this.deps.sources()) {
        const slot = await this.slot(source.name);
        if (this.#started) slot?.start();
      }
    })().catch((error: unknown) => this.#log.error({ err: error }, "could not start the plugins"));
  }

  async stop(reason: string): Promise<void> {
    this.#started = false;
    const slots = await Promise.all(this.#slots.values());
    await Promise.all(
      slots.map((slot) => slot.stop(reason).catch((error: unknown) => this.#log.warn({ err: error }, "plugin stop failed"))),
    );
  }

  async dispose(): Promise<void> {
    await this.stop("bridge deleted");
    this.deps.onDispose(this);
  }

  mappingFor(domain: string): DeviceTypeKey | undefined {
    return this.#mappings.get(domain);
  }

  domainMappings() {
    return this.#mappings.list();
  }

  /** The slot of a plugin (created and loaded on first use), or undefined for an unknown plugin. */
  slot(name: string): Promise<ManagedPluginSlot | undefined> {
    const existing = this.#slots.get(name);
    if (existing) return existing;
    const source = this.deps.sources().find((candidate) => candidate.name === name);
    if (!source) return Promise.resolve(undefined);
    const created = (async () => {
      const slot = new ManagedPluginSlot({
        bridgeId: this.seam.bridgeId,
        source,
        seam: this.seam,
        files: new PluginFiles(this.deps.dataDir, this.seam.bridgeId, name),
        mappings: this.#mappings,
        log: this.#log.child({ plugin: name }),
        clock: this.deps.clock,
        timeoutMs: this.deps.timeoutMs,
        retryDelayMs: this.deps.retryDelayMs,
        canRun: () => this.#started && this.seam.running() && !this.seam.serverMode(),
      });
      await slot.load();
      return slot;
    })();
    this.#slots.set(name, created);
    created.catch(() => this.#slots.delete(name));
    return created;
  }

  /** Every known plugin's record on this bridge, in catalogue order. */
  async infos(): Promise<SlotInfo[]> {
    const infos: SlotInfo[] = [];
    for (const source of this.deps.sources()) {
      const slot = await this.slot(source.name);
      if (slot) infos.push(await slot.info());
    }
    return infos;
  }

  /** An uninstalled package: its devices leave the bridge and its files on this bridge are deleted. */
  async removePlugin(name: string): Promise<void> {
    const slot = await this.#slots.get(name);
    this.#slots.delete(name);
    if (slot) await slot.remove();
    else await new PluginFiles(this.deps.dataDir, this.seam.bridgeId, name).remove();
  }
}
