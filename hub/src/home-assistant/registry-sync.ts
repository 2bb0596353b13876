import type { Logger } from "../../../lib/logger.ts";
import type { HomeAssistantModel, Registries } from "./ha-model.ts";
import type { EntityRegistryEntry, EntityRegistryUpdated } from "./types.ts";

/** Sends one WebSocket command and resolves with HA's result (rejects with HA's error object or a lost link). */
export type SendCommand = <T>(message: { type: string; [key: string]: unknown }) => Promise<T>;

export interface RegistrySyncOptions {
  model: HomeAssistantModel;
  send: SendCommand;
  log: Logger;
  /** A burst ends after this long without a registry event (50 ms). */
  quietMs?: number;
  /** A burst is read back at the latest this long after its first event, even if events keep coming (1 s). */
  maxWaitMs?: number;
}

type ListKind = "devices" | "areas" | "labels";
const LIST_COMMANDS: Record<ListKind, string> = {
  devices: "config/device_registry/list",
  areas: "config/area_registry/list",
  labels: "config/label_registry/list",
};

interface Burst {
  /** Entity ids to read back (created or updated). */
  read: Set<string>;
  /** Entity ids HA removed. */
  removed: Set<string>;
  lists: Set<ListKind>;
  firstAt: number;
  timer: NodeJS.Timeout | undefined;
  /** Lets the model's held structural notifications go (see HomeAssistantModel.holdStructure). */
  release: () => void;
}

/**
 * Follows HA's registry events in bursts: every event of a burst (events less than 50 ms apart, at most 1 s) is
 * read back together once it ends: the entity entries with one `config/entity_registry/get_entries` (HA answers
 * only those entries: the cost follows the change, not the home), and each device, area or label list that
 * changed. The model's structural notifications are held from the burst's first event until its answers are
 * applied, so a burst of 500 updates reaches each bridge as one change. A rename moves the entry at once, before
 * HA's state events for the old and new id arrive.
 */
export class RegistrySync {
  readonly #options: RegistrySyncOptions;
  #burst: Burst | undefined;
  /** An HA that answers `get_entries` with unknown_command: read one entry at a time from then on. */
  #oneByOne = false;
  /** Registry events received, and registry commands sent for them (metrics, tests). */
  readonly stats = { events: 0, reads: 0 };

  constructor(options: RegistrySyncOptions) {
    this.#options = options;
  }

  /** One `*_registry_updated` event. */
  onEvent(eventType: string, data: unknown): void {
    this.stats.events++;
    const burst = this.#currentBurst();
    if (eventType === "entity_registry_updated") this.#onEntityEvent(burst, data as EntityRegistryUpdated);
    else if (eventType === "device_registry_updated") burst.lists.add("devices");
    else if (eventType === "area_registry_updated") burst.lists.add("areas");
    else if (eventType === "label_registry_updated") burst.lists.add("labels");
    this.#schedule(burst);
  }

  /** Drops a pending burst (the hub stops); its held notifications go out. */
  stop(): void {
    const burst = this.#burst;
    this.#burst = undefined;
    if (!burst) return;
    clearTimeout(burst.timer);
    burst.release();
  }

  #currentBurst(): Burst {
    this.#burst ??= {
      read: new Set(),
      removed: new Set(),
      lists: new Set(),
      firstAt: Date.now(),
      timer: undefined,
      release: this.#options.model.holdStructure(),
    };
    return this.#burst;
  }

  #onEntityEvent(burst: Burst, event: EntityRegistryUpdated): void {
    const id = event.entity_id;
    if (event.action === "remove") {
      burst.read.delete(id);
      burst.removed.add(id);
      return;
    }
    burst.removed.delete(id);
    burst.read.add(id);
    if (event.action !== "update" || !event.old_entity_id || event.old_entity_id === id) return;
    // A rename: the entry moves now, so that the states HA sends for the new id meet their registry identity (and
    // endpoint) instead of an unknown entity. The entry read back with the burst replaces this copy.
    const model = this.#options.model;
    const previous = model.entities.get(event.old_entity_id);
    if (previous) model.upsertEntity({ ...previous, entity_id: id }, event.old_entity_id);
    burst.read.delete(event.old_entity_id);
  }

  #schedule(burst: Burst): void {
    const { quietMs = 50, maxWaitMs = 1000 } = this.#options;
    clearTimeout(burst.timer);
    const delay = Math.max(0, Math.min(quietMs, burst.firstAt + maxWaitMs - Date.now()));
    burst.timer = setTimeout(() => void this.#flush(burst), delay);
  }

  async #flush(burst: Burst): Promise<void> {
    if (this.#burst === burst) this.#burst = undefined;
    const { model, log } = this.#options;
    try {
      const [entries, lists] = await Promise.all([this.#readEntries([...burst.read]), this.#readLists(burst.lists)]);
      model.applyRegistryLists(lists);
      const removed = [...burst.removed];
      const upserts: EntityRegistryEntry[] = [];
      for (const [id, entry] of entries) {
        if (entry) upserts.push(entry);
        else removed.push(id); // gone again before we asked
      }
      model.applyEntityChanges({ upserts, removed });
      log.debug(
        { entities: burst.read.size + burst.removed.size, lists: [...burst.lists] },
        "applied a burst of Home Assistant registry changes",
      );
    } catch (error) {
      // The link dropped: the reload on reconnection reads every registry anyway.
      log.warn({ err: error }, "could not read back Home Assistant registry changes");
    } finally {
      burst.release();
    }
  }

  async #readEntries(ids: string[]): Promise<Map<string, EntityRegistryEntry | null>> {
    const result = new Map<string, EntityRegistryEntry | null>();
    if (ids.length === 0) return result;
    const { send } = this.#options;
    if (!this.#oneByOne) {
      try {
        this.stats.reads++;
        const answer = await send<Record<string, EntityRegistryEntry | null>>({
          type: "config/entity_registry/get_entries",
          entity_ids: ids,
        });
        for (const id of ids) result.set(id, answer[id] ?? null);
        return result;
      } catch (error) {
        if ((error as { code?: unknown }).code !== "unknown_command") throw error;
        this.#oneByOne = true;
      }
    }
    await Promise.all(
      ids.map(async (id) => {
        this.stats.reads++;
        try {
          result.set(id, await send<EntityRegistryEntry>({ type: "config/entity_registry/get", entity_id: id }));
        } catch (error) {
          if ((error as { code?: unknown }).code !== "not_found") throw error;
          result.set(id, null);
        }
      }),
    );
    return result;
  }

  async #readLists(kinds: ReadonlySet<ListKind>): Promise<Partial<Omit<Registries, "entities">>> {
    const lists: Partial<Omit<Registries, "entities">> = {};
    await Promise.all(
      [...kinds].map(async (kind) => {
        this.stats.reads++;
        lists[kind] = (await this.#options.send<never[]>({ type: LIST_COMMANDS[kind] })) as never;
      }),
    );
    return lists;
  }
}
