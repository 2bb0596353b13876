/**
 * The boundary between the built-in plugins (`hub/src/plugins/builtin/`) and the hub. A built-in is a plugin like
 * any other: the hub drives it through the public plugin API (api.ts: `HubPlugin`, `PluginContext`), and that is
 * all it gets from the plugin host. What a built-in needs beyond that, and an external plugin cannot have, is one
 * of the members of {@link BuiltinServices} below, each saying why and who provides it. Built-ins import only
 * api.ts and this file (and `lib/`); never `hub/src/matter`, `@matter/*` or `hub/src/home-assistant`.
 * docs/plugins.md "Built-in plugins and the hub" has the picture.
 */
import type { Logger } from "../../../lib/logger.ts";
import type { HassEntity } from "../home-assistant/types.ts";
import type { CameraDeviceBackend } from "../matter/plugin-devices/camera-backend.ts";
import type { HubPlugin, PluginDeviceRegistration } from "./api.ts";
import type { CancelTimer, Clock } from "./clock.ts";

export type {
  CameraBackend,
  CameraDeviceBackend,
  CameraImage,
  CameraSession,
  IceCandidate,
  IceServerConfig,
  SessionEndReason,
  SnapshotSource,
  SolicitedSession,
} from "../matter/plugin-devices/camera-backend.ts";
export type { CancelTimer, Clock, HassEntity, Logger };

/** What a built-in plugin instance gets besides its `PluginContext` (handed to its constructor). */
export interface BuiltinServices {
  /**
   * The bridge this instance runs on, known before `onStart` (the status line and the schema need it early).
   * Provided by the plugin slot (plugin-slot.ts).
   */
  readonly bridgeId: string;
  /**
   * The hub's clock, so the security plugin's delays and the appliance cloud's polling run on time that tests can
   * drive. External plugins use Node's timers. Provided by the plugin slot (PluginService's clock).
   */
  readonly clock: Clock;
  /**
   * The hub's own logger (pino), scoped to bridge and plugin; external plugins get `context.log` only. Provided by
   * the plugin slot.
   */
  readonly log: Logger;
  /**
   * Sets the plugin's status line on this bridge (`GET /api/plugins` `status`, with `details` for its dialog).
   * `needsSettings` says the plugin runs but does nothing until its settings are saved (or completed): the API's
   * `needsSettings`, shown as "Needs settings" rather than "Running". Every call says it anew (absent: false).
   * The plugin API has no status line: external plugins speak through their log. Provided by the plugin slot.
   */
  setStatus(status: string | null, details?: Record<string, unknown>, options?: { needsSettings?: boolean }): void;
  /**
   * Home Assistant for the security plugin: the hub's own connection shared (no second subscription of the whole
   * home, the token stays in the hub), or one of its own for `haUrl` + `haToken`. External plugins get no access to
   * the hub's connection or token. Provided by PluginService (builtin-providers/ha-access.ts).
   */
  readonly openHa: HaAccessFactory;
  /**
   * Home Assistant for the camera plugin: WebRTC signalling and camera images, same sharing rules as `openHa`.
   * Provided by PluginService (builtin-providers/camera-ha.ts).
   */
  readonly openCameraHa: CameraHaFactory;
  /**
   * The registration of a Matter Camera (0x0142), for `context.registerDevice`: its live view and snapshots are
   * delegated to `backend`. The plugin API's device types have no camera, and its endpoint needs matter.js, which
   * external plugins must not bring; the Matter side builds it from these plain parts (matter/plugin-devices/
   * plugin-endpoint.ts), and the plugin host accepts such a registration from built-ins only. Provided by
   * PluginService (builtin-providers/hub-services.ts).
   */
  cameraDevice(device: { id: string; name: string; backend: CameraDeviceBackend }): PluginDeviceRegistration;
}

/** The members one PluginService provides for all bridges; the plugin slot adds the rest. */
export type HubBuiltinServices = Pick<BuiltinServices, "openHa" | "openCameraHa" | "cameraDevice">;

/** A built-in plugin: no installation, listed on every standard bridge, enabled by default. */
export interface BuiltinPluginDefinition {
  /** The plugin's id: its folder name, the API's `name`, reserved against npm packages. */
  readonly name: string;
  /** What the UI calls it ("Appliance cloud" for `appliance-cloud`). */
  readonly displayName: string;
  readonly version: string;
  readonly description: string;
  readonly experimental: boolean;
  create(services: BuiltinServices): HubPlugin;
}

/** The security plugin's view of Home Assistant: state reads and listeners, service calls, reconnects. */
export interface HaAccess {
  state(entityId: string): HassEntity | undefined;
  /** Calls `listener` with each new state of the entity; returns the unsubscribe function. */
  onState(entityId: string, listener: (state: HassEntity | undefined, previous: HassEntity | undefined) => void): () => void;
  /** Calls `domain.service` for the entity; resolves when HA confirmed it. */
  call(action: string, entityId: string, data?: Record<string, unknown>): Promise<void>;
  /** After every (re)connection, once HA answers again. */
  onReconnect(listener: () => void): () => void;
  /** Drops this access's listeners (and its own connection, if it has one). */
  close(): Promise<void>;
}

/** Opens an access: the shared connection, or one of its own for `own`. */
export type HaAccessFactory = (own?: { url: string; token: string }) => HaAccess;

/** One candidate as HA's WebSocket API carries it (`RTCIceCandidateInit`). */
export interface HaIceCandidate {
  candidate: string;
  sdpMid?: string | null;
  sdpMLineIndex?: number | null;
}

/** An event of a `camera/webrtc/offer` subscription. */
export type HaWebRtcEvent =
  | { type: "session"; session_id: string }
  | { type: "answer"; answer: string }
  | { type: "candidate"; candidate: HaIceCandidate }
  | { type: "error"; code: string; message: string };

/** An ICE server as HA's `camera/webrtc/get_client_config` names it (`RTCIceServer`). */
export interface HaIceServer {
  urls: string | string[];
  username?: string;
  credential?: string;
}

/** The camera plugin's view of Home Assistant (builtin-providers/camera-ha.ts says which HA calls serve it). */
export interface CameraHa {
  /** The camera's friendly name, if HA knows the entity. */
  friendlyName(entityId: string): string | undefined;
  /** Sends an offer; events follow until the returned function unsubscribes (which makes HA close its session). */
  offer(entityId: string, sdp: string, onEvent: (event: HaWebRtcEvent) => void): Promise<() => Promise<void>>;
  candidate(entityId: string, sessionId: string, candidate: HaIceCandidate): Promise<void>;
  /** The ICE servers HA tells its own WebRTC clients to use for the camera (its `RTCConfiguration`). */
  iceServers(entityId: string): Promise<HaIceServer[]>;
  /** The stream types HA's frontend may use for the camera (`web_rtc` is the one a Matter controller needs). */
  streamTypes(entityId: string): Promise<string[]>;
  /** HA's current image of the camera (a JPEG), scaled by HA where the camera supports it. */
  image(entityId: string, size: { width: number; height: number }): Promise<Uint8Array>;
  /** Called when the WebSocket connection drops: every open HA WebRTC session is gone then. */
  onDisconnect(listener: () => void): () => void;
  /** After every (re)connection, once HA answers again. */
  onReady(listener: () => void): () => void;
  close(): Promise<void>;
}

export type CameraHaFactory = (own?: { url: string; token: string }) => CameraHa;
