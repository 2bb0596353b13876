import type {
  AreaRegistryEntry,
  DeviceRegistryEntry,
  EntityRegistryEntry,
  HassContext,
  HassEntity,
  HomeSnapshot,
  LabelRegistryEntry,
} from "../../hub/src/home-assistant/types.ts";
import type { Logger } from "../../lib/logger.ts";
import type { SimCameraOptions, SimCameraStats } from "./camera/sim-cameras.ts";
import type { UnitSystemName } from "./protocol/describe.ts";

export interface HaSimulatorOptions {
  /** TCP port; 0 (the default) lets the OS pick one. */
  port?: number;
  /** Listen address; default 127.0.0.1. */
  host?: string;
  /** The accepted long-lived access token; default "ha-simulator-token". */
  token?: string;
  /** The home to serve; default `createDemoHome()`. The snapshot is copied, never mutated. */
  home?: HomeSnapshot;
  /** Reported in `auth_required`, `auth_ok` and `get_config`; default "2026.11.1". */
  haVersion?: string;
  log?: Logger;
  /**
   * How long simulated motion takes, in ms: covers and valves travelling, locks locking, a vacuum returning to its
   * dock, alarms arming away, script runs. 0 makes every effect immediate. Default 250.
   */
  motionMs?: number;
  /** Codes for entities with a `code_format` (locks, alarm panels), by entity id; others accept "1234". */
  codes?: Record<string, string>;
  /** The unit system `get_config` reports; default "metric" (°C). The home's values are served as given. */
  unitSystem?: UnitSystemName;
  /** `get_config.location_name`; default "Home". */
  locationName?: string;
  /**
   * WebSocket command types this HA lacks, answered with `unknown_command` as an older HA does (e.g.
   * `homeassistant/expose_entity/list` before 2023.5, `config/entity_registry/get_entries`).
   */
  omitCommands?: string[];
}

/** A `call_service` the simulator received (recorded before any scripted delay or failure). */
export interface RecordedCall {
  domain: string;
  service: string;
  /** `service_data` as sent (without the target). */
  serviceData: Record<string, unknown>;
  /** `target` as sent, if any. */
  target: Record<string, unknown> | undefined;
  /** Entity ids named in the target or in `service_data.entity_id`, lower-cased. */
  entityIds: string[];
  returnResponse: boolean;
  context: HassContext;
  /** Epoch ms when it arrived. */
  at: number;
}

/** Scripted trouble for service calls: a delay before answering and/or a failure instead of the effect. */
export interface ServiceBehavior {
  delayMs?: number;
  /** The call takes effect and is answered only once this settles: a call in flight for as long as a test needs. */
  hold?: Promise<unknown>;
  fail?: { code: string; message: string } | undefined;
  /** Only calls this accepts are affected; all calls when absent. */
  match?: (call: RecordedCall) => boolean;
}

export interface HaSimulator {
  /** What a client passes as `hassUrl`, e.g. "http://127.0.0.1:41234"; the WebSocket is at `/api/websocket`. */
  readonly url: string;
  readonly port: number;
  readonly token: string;

  /** The current state (a copy), or undefined. */
  getState(entityId: string): HassEntity | undefined;
  /** Every current state (copies), in HA's order. */
  getStates(): HassEntity[];
  /**
   * Writes a state as an integration would: `attributes` are merged into the current ones (a key set to undefined is
   * removed) unless `replaceAttributes`. Fires `state_changed` (and the compressed diff); a new entity id fires an add.
   * `silent` is a fault for tests: the state changes without any event, as if subscribers missed it (`get_states`
   * returns it).
   */
  setState(
    entityId: string,
    state: string,
    attributes?: Record<string, unknown>,
    options?: { replaceAttributes?: boolean; silent?: boolean },
  ): HassEntity;
  /** Removes a state: `state_changed` with `new_state: null`, and `r` to entity subscribers. */
  removeState(entityId: string): void;
  /** Fires any event on the bus (e.g. a `zha_event` or `homeassistant_started`). */
  fireEvent(eventType: string, data?: Record<string, unknown>): void;

  /** Registers an entity; with `state` (or, when absent and not disabled, HA's restored "unavailable") it appears too. */
  addEntity(entry: EntityRegistryEntry, state?: HassEntity): void;
  /** Updates a registry entry; `changes.entity_id` renames it (the event carries `old_entity_id`, the state moves). */
  updateEntity(entityId: string, changes: Partial<EntityRegistryEntry>): void;
  /** Removes the registry entry and its state. */
  removeEntity(entityId: string): void;
  addDevice(device: DeviceRegistryEntry): void;
  updateDevice(deviceId: string, changes: Partial<DeviceRegistryEntry>): void;
  /** Removes the device and, as HA does, its entities. */
  removeDevice(deviceId: string): void;
  addArea(area: AreaRegistryEntry): void;
  updateArea(areaId: string, changes: Partial<AreaRegistryEntry>): void;
  /** Removes the area and clears it from devices and entities. */
  removeArea(areaId: string): void;
  addLabel(label: LabelRegistryEntry): void;
  updateLabel(labelId: string, changes: Partial<LabelRegistryEntry>): void;
  /** Removes the label and clears it from areas, devices and entities. */
  removeLabel(labelId: string): void;
  /**
   * HA's `async_expose_entity` for each entity and assistant, as `homeassistant/expose_entity` does (without its
   * checks): a registry entity's entry options change (with `entity_registry_updated`), another entity's setting
   * changes silently.
   */
  exposeEntities(entityIds: string[], assistants: string[], shouldExpose: boolean): void;
  /** What `homeassistant/expose_entity/list` answers (`exposed_entities`). */
  exposedEntities(): Record<string, Record<string, true>>;
  /** The current registries and states as a snapshot (copies). */
  snapshot(): HomeSnapshot;

  /** Every `call_service` received, oldest first. */
  readonly calls: readonly RecordedCall[];
  clearCalls(): void;
  /** Resolves with the first recorded call (past or future) that matches; rejects after `timeoutMs` (default 2000). */
  waitForCall(predicate: (call: RecordedCall) => boolean, timeoutMs?: number): Promise<RecordedCall>;
  /** Delays and/or fails matching calls until replaced or reset with undefined. */
  setServiceBehavior(behavior: ServiceBehavior | undefined): void;

  /**
   * Adds a camera entity (state `idle`): its WebRTC offers are answered by a real WebRTC peer streaming a generated
   * H.264 test video (werift, a development dependency, loaded on the first offer) and `/api/camera_proxy/<id>`
   * serves a known JPEG (camera/test-image.ts).
   */
  addCamera(entityId: string, options?: SimCameraOptions): void;
  /** Offers, open sessions, candidates and RTP packets of a simulated camera; undefined for an unknown one. */
  cameraStats(entityId: string): SimCameraStats | undefined;

  /** Open WebSocket connections (authenticated or not). */
  connectionCount(): number;
  /** Closes every client socket at once, as a network cut or HA stopping its websocket server would. */
  dropConnections(): void;
  /**
   * For `ms`, new connections are refused with HTTP 502 before any WebSocket handshake; then accepted again. A new
   * call replaces the window (0 ends it). Open connections are not affected: combine with `dropConnections`.
   */
  refuseConnections(ms: number): void;
  /**
   * Drops every connection and reports `NOT_RUNNING` for `notRunningMs` (default 1000), then `STARTING`,
   * `homeassistant_start`, `RUNNING` and `homeassistant_started`. With `downMs`, connections are refused first for
   * that long. Resolves once the connections are dropped.
   */
  restart(options?: { notRunningMs?: number; downMs?: number }): Promise<void>;
  /**
   * Changes the accepted token. Connections authenticated with the old one are closed, as HA closes the sessions of
   * a revoked token; reconnecting with it then meets `auth_invalid`.
   */
  setToken(token: string): void;
  /** Stops everything: sockets, pending effects and the HTTP server. */
  close(): Promise<void>;
}
