import type { HassConfig, MessageBase } from "home-assistant-js-websocket";
import type { Logger } from "../../../lib/logger.ts";
import { ActionCaller } from "./action-caller.ts";
import type { CompressedEvent } from "./compressed-states.ts";
import { HomeAssistantClient } from "./ha-client.ts";
import { HomeAssistantModel } from "./ha-model.ts";
import { RegistrySync, type SendCommand } from "./registry-sync.ts";
import type { AreaRegistryEntry, DeviceRegistryEntry, EntityRegistryEntry, HassEntity, LabelRegistryEntry } from "./types.ts";

export interface HomeAssistantServiceOptions {
  url: string;
  token: string;
  log: Logger;
  actionTimeoutMs?: number;
  runningPollMs?: number;
  /**
   * How often to re-read `homeassistant/expose_entity/list` while some entity takes its exposure from it (an entity
   * without a registry entry: HA announces no change of its setting). Default 60 s.
   */
  exposurePollMs?: number;
}

const REGISTRY_EVENTS = ["entity_registry_updated", "device_registry_updated", "area_registry_updated", "label_registry_updated"];

/**
 * Keeps the model in step with Home Assistant: on every `ready` (first connection, reconnect, HA restart) it loads
 * the four registries and the voice assistant exposure in parallel and (re)subscribes to `subscribe_entities`,
 * whose first event is the complete state. Afterwards only events flow: state diffs per entity, and registry events
 * read back per burst (registry-sync.ts).
 */
export class HomeAssistantService {
  readonly client: HomeAssistantClient;
  readonly model = new HomeAssistantModel();
  readonly actions: ActionCaller;
  readonly #log: Logger;
  #unsubscribers: (() => Promise<void>)[] = [];
  #loaded: Promise<void> | undefined;
  #resolveLoaded: (() => void) | undefined;
  readonly #registry: RegistrySync;
  readonly #exposurePollMs: number;
  #exposureTimer: NodeJS.Timeout | undefined;
  /** The expose list was refused once (an HA without it, a non-admin token): said once, not at every poll. */
  #exposureRefused = false;
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
    this.#registry = new RegistrySync({ model: this.model, send: this.#send, log: options.log });
    this.#exposurePollMs = options.exposurePollMs ?? 60_000;
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
    this.#scheduleExposurePoll();
  }

  async stop(): Promise<void> {
    clearTimeout(this.#exposureTimer);
    this.#exposureTimer = undefined;
    this.#registry.stop();
    await this.client.stop();
  }

  /** Registry events received and registry commands sent for them, since start (metrics). */
  get registryStats(): Readonly<{ events: number; reads: number }> {
    return this.#registry.stats;
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
          (event) => this.#registry.onEvent(event.event_type, event.data),
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
    const ask = <T>(type: string) => this.#send<T>({ type });
    // Label and area registries appeared in HA 2024.4 / 2021.x: older cores answer unknown_command.
    const optional = <T>(type: string) => ask<T[]>(type).catch(() => [] as T[]);
    const [config, entities, devices, areas, labels, exposure] = await Promise.all([
      ask<HassConfig>("get_config"),
      ask<EntityRegistryEntry[]>("config/entity_registry/list"),
      ask<DeviceRegistryEntry[]>("config/device_registry/list"),
      optional<AreaRegistryEntry>("config/area_registry/list"),
      optional<LabelRegistryEntry>("config/label_registry/list"),
      this.#readExposure(),
    ]);
    this.model.config = config;
    this.model.setRegistries({ entities, devices, areas, labels });
    if (exposure) this.model.setExposureList(exposure);
  }

  /**
   * `homeassistant/expose_entity/list`'s `exposed_entities`, or undefined when HA refuses it (an HA older than its voice assistant settings,
   * or a token of a non-admin user: the command needs an admin). Registry entities do not need it: their setting
   * is in the registry entry (HomeAssistantModel.exposedTo).
   */
  async #readExposure(): Promise<Record<string, unknown> | undefined> {
    try {
      const answer = await this.#send<{ exposed_entities?: Record<string, unknown> }>({
        type: "homeassistant/expose_entity/list",
      });
      this.#exposureRefused = false;
      return answer.exposed_entities ?? {};
    } catch (error) {
      if (!this.client.status.connected) throw error;
      if (!this.#exposureRefused)
        this.#log.warn(
          { err: error },
          "Home Assistant refused the list of entities exposed to voice assistants; exposed_to rules see only registry entities",
        );
      this.#exposureRefused = true;
      return undefined;
    }
  }

  /**
   * HA announces no change of an unregistered entity's exposure (it lives in HA's own store, not in the registry):
   * while such an entity exists, the list is read again every `exposurePollMs`. Registry entities never need this.
   */
  #scheduleExposurePoll(): void {
    this.#exposureTimer = setTimeout(async () => {
      try {
        if (this.client.status.connected && this.model.listedExposureMatters()) {
          const exposure = await this.#readExposure();
          if (exposure) this.model.setExposureList(exposure);
        }
      } catch {
        // The link dropped; the reload on reconnection reads the list again.
      }
      if (this.#exposureTimer) this.#scheduleExposurePoll();
    }, this.#exposurePollMs);
    this.#exposureTimer.unref();
  }

  readonly #send: SendCommand = (message) => this.client.connection.sendMessagePromise(message as MessageBase);
}
