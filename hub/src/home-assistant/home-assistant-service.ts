import type { HassConfig, MessageBase } from "home-assistant-js-websocket";
import type { Logger } from "../../../lib/logger.ts";
import { ActionCaller } from "./action-caller.ts";
import type { CompressedEvent } from "./compressed-states.ts";
import { HomeAssistantClient } from "./ha-client.ts";
import { HomeAssistantModel } from "./ha-model.ts";
import type {
  AreaRegistryEntry,
  DeviceRegistryEntry,
  EntityRegistryEntry,
  EntityRegistryUpdated,
  HassEntity,
  LabelRegistryEntry,
} from "./types.ts";

export interface HomeAssistantServiceOptions {
  url: string;
  token: string;
  log: Logger;
  actionTimeoutMs?: number;
  runningPollMs?: number;
}

const REGISTRY_EVENTS = ["entity_registry_updated", "device_registry_updated", "area_registry_updated", "label_registry_updated"];

/**
 * Keeps the model in step with Home Assistant: on every `ready` (first connection, reconnect, HA restart) it loads
 * the four registries in parallel and (re)subscribes to `subscribe_entities`, whose first event is the complete
 * state. Afterwards only events flow: state diffs per entity, and registry events handled per entry (devices,
 * areas and labels are small lists and are re-read when one changes).
 */
export class HomeAssistantService {
  readonly client: HomeAssistantClient;
  readonly model = new HomeAssistantModel();
  readonly actions: ActionCaller;
  readonly #log: Logger;
  #unsubscribers: (() => Promise<void>)[] = [];
  #loaded: Promise<void> | undefined;
  #resolveLoaded: (() => void) | undefined;
  #pendingLists = new Map<string, NodeJS.Timeout>();
  /** For REST calls (camera images); the token stays in here. */
  readonly #rest: { url: string; token: string };

  constructor(options: HomeAssistantServiceOptions) {
    this.#log = options.log;
    this.#rest = { url: options.url.replace(/\/+$/, ""), token: options.token };
    this.client = new HomeAssistantClient({
      url: options.url,
      token: options.token,
      log: options.log,
      runningPollMs: options.runningPollMs,
    });
    this.actions = new ActionCaller(this.client, options.log, options.actionTimeoutMs);
    this.#loaded = new Promise((resolve) => {
      this.#resolveLoaded = resolve;
    });
    this.client.on("ready", () => void this.#sync());
  }

  /** Resolves once the first complete load finished (bridges wait for this). */
  whenLoaded(): Promise<void> {
    return this.#loaded ?? Promise.resolve();
  }

  start(): void {
    this.client.start();
  }

  async stop(): Promise<void> {
    for (const timer of this.#pendingLists.values()) clearTimeout(timer);
    await this.client.stop();
  }

  /** A GET on HA's REST API (`path` from `/api/…`) with the hub's token, e.g. a camera image. */
  fetchApi(path: string, init: { signal?: AbortSignal } = {}): Promise<Response> {
    return fetch(`${this.#rest.url}${path}`, {
      headers: { Authorization: `Bearer ${this.#rest.token}` },
      ...(init.signal && { signal: init.signal }),
    });
  }

  /** Re-reads the registries and HA's configuration (the `refresh` endpoint). */
  async refresh(): Promise<void> {
    await this.#loadRegistries();
  }

  /**
   * Re-reads every state from HA (`get_states`) and applies what the event stream missed (force-sync); resolves with
   * the entity ids that changed. Rejects while HA is not connected.
   */
  async resyncStates(): Promise<string[]> {
    const states = await this.client.connection.sendMessagePromise<HassEntity[]>({ type: "get_states" });
    return this.model.applyStates(states);
  }

  async #sync(): Promise<void> {
    try {
      for (const unsubscribe of this.#unsubscribers.splice(0)) await unsubscribe().catch(() => undefined);
      const connection = this.client.connection;
      let first = true;
      const states = new Promise<void>((resolve, reject) => {
        connection
          .subscribeMessage<CompressedEvent>(
            (event) => {
              this.model.applyCompressed(event, first);
              if (first) resolve();
              first = false;
            },
            { type: "subscribe_entities" },
            { resubscribe: false },
          )
          .then((unsubscribe) => this.#unsubscribers.push(unsubscribe), reject);
      });
      for (const eventType of REGISTRY_EVENTS) {
        // The library hands subscription callbacks the message's `event` member, not the whole message.
        const unsubscribe = await connection.subscribeMessage<{ event_type: string; data: unknown }>(
          (event) => this.#onRegistryEvent(event.event_type, event.data),
          { type: "subscribe_events", event_type: eventType },
          { resubscribe: false },
        );
        this.#unsubscribers.push(unsubscribe);
      }
      await Promise.all([this.#loadRegistries(), states]);
      this.#log.info(
        { states: this.model.states.size, entities: this.model.entities.size, devices: this.model.devices.size },
        "Home Assistant data loaded",
      );
      this.#resolveLoaded?.();
    } catch (error) {
      // The connection dropped mid-load: the next `ready` starts over.
      this.#log.warn({ err: error }, "loading Home Assistant data was interrupted");
    }
  }

  async #loadRegistries(): Promise<void> {
    const connection = this.client.connection;
    const ask = <T>(type: string) => connection.sendMessagePromise<T>({ type } as MessageBase);
    // Label and area registries appeared in HA 2024.4 / 2021.x: older cores answer unknown_command.
    const optional = <T>(type: string) => ask<T[]>(type).catch(() => [] as T[]);
    const [config, entities, devices, areas, labels] = await Promise.all([
      ask<HassConfig>("get_config"),
      ask<EntityRegistryEntry[]>("config/entity_registry/list"),
      ask<DeviceRegistryEntry[]>("config/device_registry/list"),
      optional<AreaRegistryEntry>("config/area_registry/list"),
      optional<LabelRegistryEntry>("config/label_registry/list"),
    ]);
    this.model.config = config;
    this.model.setRegistries({ entities, devices, areas, labels });
  }

  #onRegistryEvent(eventType: string, data: unknown): void {
    if (eventType === "entity_registry_updated") {
      void this.#onEntityRegistryEvent(data as EntityRegistryUpdated);
      return;
    }
    // Device, area and label events carry ids only; their lists are small, so re-read the one list, once per burst.
    const listType = eventType.replace("_updated", "").replace("_registry", "_registry/list");
    this.#debounce(`config/${listType}`, () => this.#reloadList(`config/${listType}`));
  }

  async #onEntityRegistryEvent(event: EntityRegistryUpdated): Promise<void> {
    if (event.action === "remove") {
      this.model.removeEntity(event.entity_id);
      return;
    }
    // A rename: move the entry at once, before its states (old removed, new added) are applied, so consumers see
    // the new entity id with its registry identity and never as an unknown entity. The full entry follows.
    const previous = event.action === "update" && event.old_entity_id ? this.model.entities.get(event.old_entity_id) : undefined;
    if (previous && event.action === "update")
      this.model.upsertEntity({ ...previous, entity_id: event.entity_id }, event.old_entity_id);
    try {
      const entry = await this.client.connection.sendMessagePromise<EntityRegistryEntry>({
        type: "config/entity_registry/get",
        entity_id: event.entity_id,
      });
      this.model.upsertEntity(entry, event.action === "update" ? event.old_entity_id : undefined);
    } catch (error) {
      this.#log.warn({ err: error, entityId: event.entity_id }, "could not read an updated registry entry");
    }
  }

  async #reloadList(type: string): Promise<void> {
    try {
      const list = await this.client.connection.sendMessagePromise<unknown[]>({ type } as MessageBase);
      const m = this.model;
      const registries = {
        entities: [...m.entities.values()],
        devices: [...m.devices.values()],
        areas: [...m.areas.values()],
        labels: [...m.labels.values()],
      };
      if (type.includes("device")) registries.devices = list as DeviceRegistryEntry[];
      if (type.includes("area")) registries.areas = list as AreaRegistryEntry[];
      if (type.includes("label")) registries.labels = list as LabelRegistryEntry[];
      m.setRegistries(registries);
    } catch (error) {
      this.#log.warn({ err: error, type }, "could not re-read a registry");
    }
  }

  #debounce(key: string, run: () => Promise<void>): void {
    clearTimeout(this.#pendingLists.get(key));
    this.#pendingLists.set(
      key,
      setTimeout(() => {
        this.#pendingLists.delete(key);
        void run();
      }, 50),
    );
  }
}
