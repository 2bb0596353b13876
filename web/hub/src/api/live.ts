import { wsUrl } from "../../../common/http.ts";
import { createStore } from "../../../common/store.ts";
import { listBridges } from "./bridges.ts";
import type { Bridge, EndpointInspection, InspectedChange } from "./types.ts";

/** `live`: the WebSocket pushes bridge changes; `polling`: it is unavailable and the list is re-read every few seconds. */
export type LiveMode = "connecting" | "live" | "polling";

export interface LiveState {
  bridges: Bridge[] | null;
  mode: LiveMode;
  /** The last failure reading the bridges (polling), shown by the pages. */
  error: string | null;
}

export interface DiagnosticMessage {
  type: "diagnostic_event" | "diagnostic_snapshot";
  receivedAt: number;
  data: unknown;
}

export const live = createStore<LiveState>({ bridges: null, mode: "connecting", error: null });

const POLL_MS = 5000;
const PING_MS = 25_000;
const MAX_BACKOFF_MS = 30_000;

let socket: WebSocket | undefined;
/** Bumped by every push, so a GET that started before a push never overwrites it with older data. */
let pushes = 0;
let started = false;
let backoff = 1000;
let pollTimer: ReturnType<typeof setTimeout> | undefined;
let pingTimer: ReturnType<typeof setInterval> | undefined;
const diagnosticListeners = new Set<(message: DiagnosticMessage) => void>();

/** The bridge whose device rows the open page watches (one at a time, like the hub's `subscribe_devices`). */
export interface DeviceWatcher {
  bridgeId: string;
  snapshot(data: { devices: unknown[]; pluginDevices: unknown[] }): void;
  update(rows: unknown[]): void;
}
let deviceWatcher: DeviceWatcher | undefined;

/** The endpoint the device inspector shows (one at a time, like the hub's `subscribe_endpoint`). */
export interface EndpointWatcher {
  bridgeId: string;
  endpointNumber: number;
  /** The whole endpoint again; null with the reason when there is nothing to show (bridge stopped, endpoint gone). */
  snapshot(data: EndpointInspection | null, reason: string | null): void;
  update(changes: InspectedChange[]): void;
}
let endpointWatcher: EndpointWatcher | undefined;
const watches = (m: { bridgeId?: string; endpointNumber?: number }) =>
  endpointWatcher && m.bridgeId === endpointWatcher.bridgeId && m.endpointNumber === endpointWatcher.endpointNumber;

function sortBridges(bridges: Bridge[]): Bridge[] {
  return [...bridges].sort((a, b) => a.priority - b.priority || a.name.localeCompare(b.name));
}

/** Applies a bridge record the UI got from an action or a form, without waiting for the next push. */
export function applyBridge(bridge: Bridge): void {
  live.set((state) => {
    const list = state.bridges ?? [];
    const exists = list.some((b) => b.id === bridge.id);
    const next = exists ? list.map((b) => (b.id === bridge.id ? bridge : b)) : [...list, bridge];
    return { ...state, bridges: sortBridges(next) };
  });
}

export function applyBridges(bridges: Bridge[]): void {
  live.set((state) => ({ ...state, bridges: sortBridges(bridges), error: null }));
}

export function removeBridge(id: string): void {
  live.set((state) => ({ ...state, bridges: state.bridges?.filter((b) => b.id !== id) ?? null }));
}

/** Re-reads the list now (after an action, or as the polling fallback). */
export async function reloadBridges(): Promise<void> {
  const seen = pushes;
  try {
    const bridges = await listBridges();
    if (seen === pushes) applyBridges(bridges);
  } catch (error) {
    live.set((state) => ({ ...state, error: (error as Error).message }));
  }
}

function schedulePoll(): void {
  clearTimeout(pollTimer);
  pollTimer = setTimeout(async () => {
    if (live.get().mode === "live") return;
    if (!document.hidden) await reloadBridges();
    schedulePoll();
  }, POLL_MS);
}

function send(message: object): void {
  if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function onMessage(raw: string): void {
  let message: { type?: string; data?: unknown; bridgeId?: string; endpointNumber?: number; reason?: string | null };
  try {
    message = JSON.parse(raw) as typeof message;
  } catch {
    return;
  }
  switch (message.type) {
    case "bridges_update":
      pushes++;
      if (Array.isArray(message.data)) applyBridges(message.data as Bridge[]);
      break;
    case "bridge_update":
      pushes++;
      if (message.data && typeof message.data === "object") applyBridge(message.data as Bridge);
      else if (message.bridgeId) removeBridge(message.bridgeId);
      break;
    case "ping":
      send({ type: "pong" });
      break;
    case "devices_snapshot":
      if (deviceWatcher && message.bridgeId === deviceWatcher.bridgeId)
        deviceWatcher.snapshot(message.data as { devices: unknown[]; pluginDevices: unknown[] });
      break;
    case "devices_update":
      if (deviceWatcher && message.bridgeId === deviceWatcher.bridgeId && Array.isArray(message.data))
        deviceWatcher.update(message.data);
      break;
    case "endpoint_snapshot":
      if (watches(message))
        endpointWatcher?.snapshot((message.data ?? null) as EndpointInspection | null, message.reason ?? null);
      break;
    case "endpoint_update":
      if (watches(message)) endpointWatcher?.update((message.data as { attributes: InspectedChange[] }).attributes);
      break;
    case "diagnostic_event":
    case "diagnostic_snapshot": {
      const event: DiagnosticMessage = { type: message.type, receivedAt: Date.now(), data: message.data ?? message };
      for (const listener of diagnosticListeners) listener(event);
      break;
    }
  }
}

function connect(): void {
  let opened = false;
  try {
    socket = new WebSocket(wsUrl("api/ws"));
  } catch {
    reconnectLater();
    return;
  }
  const current = socket;
  current.onopen = () => {
    opened = true;
    backoff = 1000;
    live.set((state) => ({ ...state, mode: "live", error: null }));
    if (diagnosticListeners.size > 0) send({ type: "subscribe_diagnostics" });
    if (deviceWatcher) send({ type: "subscribe_devices", bridgeId: deviceWatcher.bridgeId });
    if (endpointWatcher) {
      const { bridgeId, endpointNumber } = endpointWatcher;
      send({ type: "subscribe_endpoint", bridgeId, endpointNumber });
    }
    clearInterval(pingTimer);
    pingTimer = setInterval(() => send({ type: "ping" }), PING_MS);
  };
  current.onmessage = (event) => onMessage(String(event.data));
  current.onclose = () => {
    if (socket !== current) return;
    clearInterval(pingTimer);
    socket = undefined;
    if (opened || live.get().mode !== "polling") {
      live.set((state) => ({ ...state, mode: "polling" }));
      void reloadBridges();
      schedulePoll();
    }
    reconnectLater();
  };
}

function reconnectLater(): void {
  const delay = backoff;
  backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
  setTimeout(connect, delay);
}

/** Starts the live channel once (first bridge list comes from the socket, or from one GET if it is slow). */
export function startLive(): void {
  if (started) return;
  started = true;
  connect();
  // Don't wait for the socket to show the first list.
  void reloadBridges();
}

/** Live diagnostic events (Health page). Returns the unsubscribe function. */
export function subscribeDiagnostics(listener: (message: DiagnosticMessage) => void): () => void {
  diagnosticListeners.add(listener);
  if (diagnosticListeners.size === 1) send({ type: "subscribe_diagnostics" });
  return () => {
    diagnosticListeners.delete(listener);
    if (diagnosticListeners.size === 0) send({ type: "unsubscribe_diagnostics" });
  };
}

/**
 * Live device rows of one bridge (bridge page): a snapshot on subscribe and on every change of the device set, then
 * the rows that changed. Re-subscribes after a reconnect. Returns the unsubscribe function.
 */
export function watchDevices(watcher: DeviceWatcher): () => void {
  deviceWatcher = watcher;
  send({ type: "subscribe_devices", bridgeId: watcher.bridgeId });
  return () => {
    if (deviceWatcher !== watcher) return;
    deviceWatcher = undefined;
    send({ type: "unsubscribe_devices" });
  };
}

/**
 * Live attribute values of one endpoint (device inspector): a snapshot on subscribe and whenever the bridge's record
 * changes, then the attributes that changed. Re-subscribes after a reconnect. Returns the unsubscribe function.
 */
export function watchEndpoint(watcher: EndpointWatcher): () => void {
  endpointWatcher = watcher;
  send({ type: "subscribe_endpoint", bridgeId: watcher.bridgeId, endpointNumber: watcher.endpointNumber });
  return () => {
    if (endpointWatcher !== watcher) return;
    endpointWatcher = undefined;
    send({ type: "unsubscribe_endpoint" });
  };
}
