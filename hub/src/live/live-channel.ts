import type { Logger } from "../../../lib/logger.ts";
import type { BridgeService } from "../bridges/bridge-service.ts";
import type { DiagnosticBus } from "../diagnostics/diagnostic-bus.ts";
import { DeviceFeed } from "./device-feed.ts";
import { EndpointFeed } from "./endpoint-feed.ts";
import {
  type LiveConnection,
  type LiveSocket,
  MAX_CLIENT_MESSAGE_CHARS,
  parseClientMessage,
  type ServerMessage,
} from "./live-protocol.ts";
import { UpdateThrottle } from "./update-throttle.ts";

export interface LiveChannelOptions {
  bridges: BridgeService;
  diagnostics: DiagnosticBus;
  /** The `summary` of a `diagnostic_snapshot`. */
  summary: () => unknown;
  log: Logger;
  /** Server `ping` period (30 s, hub spec); a client that answers neither of two pings is dropped at the next. */
  pingIntervalMs?: number;
  /** At most one `bridge_update` per bridge per this many ms (100). */
  coalesceMs?: number;
  /** Connections beyond this are closed with 1013 (64; the UI opens one per tab). */
  maxClients?: number;
  /** A client whose unsent backlog exceeds this is dropped rather than buffered without end (1 MiB). */
  maxBufferedBytes?: number;
}

interface Client {
  /** Names the client's endpoint watch (`subscribe_endpoint`) in the feed. */
  id: string;
  socket: LiveSocket;
  /** Server pings sent since the client's last message. */
  unanswered: number;
  unsubscribe: (() => void) | undefined;
  /** The bridge whose device rows the client watches (`subscribe_devices`), if any. */
  devicesOf: string | undefined;
}

/**
 * The `/api/ws` channel: the bridge list on connect and on every change, coalesced per-bridge updates, diagnostics
 * for subscribers (a snapshot, then each event), keepalive pings, and dropping of clients that stopped answering.
 */
export class LiveChannel {
  readonly #options: Required<Omit<LiveChannelOptions, "bridges" | "diagnostics" | "summary" | "log">>;
  readonly #clients = new Set<Client>();
  readonly #throttle: UpdateThrottle;
  readonly #devices: DeviceFeed;
  readonly #endpoints: EndpointFeed;
  #nextClientId = 1;
  #pingTimer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(private readonly deps: LiveChannelOptions) {
    this.#options = {
      pingIntervalMs: deps.pingIntervalMs ?? 30_000,
      coalesceMs: deps.coalesceMs ?? 100,
      maxClients: deps.maxClients ?? 64,
      maxBufferedBytes: deps.maxBufferedBytes ?? 1024 * 1024,
    };
    this.#throttle = new UpdateThrottle(this.#options.coalesceMs, (bridgeId) => this.#sendBridge(bridgeId));
    this.#devices = new DeviceFeed(
      deps.bridges,
      (bridgeId, message) => this.#toWatchers(bridgeId, message),
      this.#options.coalesceMs,
    );
    this.#endpoints = new EndpointFeed(deps.bridges, this.#options.coalesceMs);
    deps.bridges.on("changed", this.#onChanged);
    deps.bridges.on("listChanged", this.#onListChanged);
  }

  get clientCount(): number {
    return this.#clients.size;
  }

  /** A new WebSocket: greets it with the bridge list and returns where its frames and its close go. */
  attach(socket: LiveSocket): LiveConnection {
    if (this.#closed || this.#clients.size >= this.#options.maxClients) {
      socket.close(this.#closed ? 1001 : 1013, this.#closed ? "Server shutting down" : "Too many live connections");
      return { receive: () => undefined, closed: () => undefined };
    }
    const client: Client = {
      id: String(this.#nextClientId++),
      socket,
      unanswered: 0,
      unsubscribe: undefined,
      devicesOf: undefined,
    };
    this.#clients.add(client);
    this.#send(client, { type: "bridges_update", data: this.#bridgeList() });
    this.#pingTimer ??= setInterval(() => this.#ping(), this.#options.pingIntervalMs).unref();
    return { receive: (data) => this.#receive(client, data), closed: () => this.#drop(client) };
  }

  /** Closes every connection (1001) and detaches from the bridges; the hub is stopping. */
  close(): void {
    this.#closed = true;
    this.deps.bridges.off("changed", this.#onChanged);
    this.deps.bridges.off("listChanged", this.#onListChanged);
    this.#throttle.reset();
    this.#devices.close();
    this.#endpoints.close();
    for (const client of [...this.#clients]) {
      client.socket.close(1001, "Server shutting down");
      this.#drop(client);
    }
  }

  #receive(client: Client, data: unknown): void {
    client.unanswered = 0;
    if (typeof data === "string" && data.length > MAX_CLIENT_MESSAGE_CHARS) {
      client.socket.close(1009, "Message too big");
      this.#drop(client);
      return;
    }
    const message = parseClientMessage(data);
    if ("error" in message) {
      this.#send(client, { type: "error", message: message.error });
      return;
    }
    switch (message.type) {
      case "ping":
        this.#send(client, { type: "pong" });
        return;
      case "pong":
        return; // resetting `unanswered` is all it is for
      case "subscribe_diagnostics": {
        client.unsubscribe?.();
        const { diagnostics, summary } = this.deps;
        // Snapshot and subscription in one synchronous step: no event can fall between them.
        this.#send(client, { type: "diagnostic_snapshot", data: { events: diagnostics.recent(), summary: summary() } });
        client.unsubscribe = diagnostics.subscribe((event) => this.#send(client, { type: "diagnostic_event", data: event }));
        return;
      }
      case "unsubscribe_diagnostics":
        client.unsubscribe?.();
        client.unsubscribe = undefined;
        return;
      case "subscribe_devices": {
        const bridgeId = message.bridgeId as string;
        let snapshot: { devices: unknown[]; pluginDevices: unknown[] };
        try {
          snapshot = this.#devices.watch(bridgeId);
        } catch {
          this.#send(client, { type: "error", message: `Bridge not found: ${bridgeId.slice(0, 64)}` });
          return;
        }
        this.#unwatchDevices(client);
        client.devicesOf = bridgeId;
        this.#send(client, { type: "devices_snapshot", bridgeId, data: snapshot });
        return;
      }
      case "unsubscribe_devices":
        this.#unwatchDevices(client);
        return;
      case "subscribe_endpoint": {
        const bridgeId = message.bridgeId as string;
        try {
          this.#endpoints.watch(client.id, bridgeId, message.endpointNumber as number, (m) => this.#send(client, m));
        } catch {
          this.#send(client, { type: "error", message: `Bridge not found: ${bridgeId.slice(0, 64)}` });
        }
        return;
      }
      case "unsubscribe_endpoint":
        this.#endpoints.unwatch(client.id);
        return;
    }
  }

  /**
   * Counts unanswered pings rather than wall time: a stalled event loop delays our timer and the client's answer
   * alike, and must not make a healthy client look dead. Two pings unanswered (no message at all since) → dropped.
   */
  #ping(): void {
    for (const client of [...this.#clients]) {
      if (client.unanswered >= 2) {
        this.deps.log.info("dropping a live client that stopped answering pings");
        client.socket.terminate();
        this.#drop(client);
      } else {
        client.unanswered++;
        this.#send(client, { type: "ping" });
      }
    }
  }

  #unwatchDevices(client: Client): void {
    if (client.devicesOf !== undefined) this.#devices.unwatch(client.devicesOf);
    client.devicesOf = undefined;
  }

  /** Sends to the clients watching this bridge's devices. */
  #toWatchers(bridgeId: string, message: ServerMessage): void {
    let text: string | undefined;
    for (const client of [...this.#clients]) {
      if (client.devicesOf !== bridgeId) continue;
      text ??= JSON.stringify(message);
      this.#send(client, text);
    }
  }

  #drop(client: Client): void {
    if (!this.#clients.delete(client)) return;
    this.#unwatchDevices(client);
    this.#endpoints.unwatch(client.id);
    client.unsubscribe?.();
    client.unsubscribe = undefined;
    if (this.#clients.size === 0) {
      clearInterval(this.#pingTimer);
      this.#pingTimer = undefined;
    }
  }

  #send(client: Client, message: ServerMessage | string): void {
    const { socket } = client;
    if (!socket.isOpen) return;
    if (socket.bufferedAmount > this.#options.maxBufferedBytes) {
      this.deps.log.warn({ bufferedAmount: socket.bufferedAmount }, "dropping a live client that does not read its messages");
      socket.terminate();
      this.#drop(client);
      return;
    }
    try {
      socket.send(typeof message === "string" ? message : JSON.stringify(message));
    } catch (error) {
      this.deps.log.warn({ err: error }, "could not send to a live client; dropping it");
      socket.terminate();
      this.#drop(client);
    }
  }

  #broadcast(message: ServerMessage): void {
    if (this.#clients.size === 0) return;
    const text = JSON.stringify(message);
    for (const client of [...this.#clients]) this.#send(client, text);
  }

  #bridgeList(): { id: string }[] {
    try {
      return this.deps.bridges.list();
    } catch (error) {
      this.deps.log.warn({ err: error }, "could not list the bridges for the live channel");
      return [];
    }
  }

  #sendBridge(bridgeId: string): void {
    let record: unknown;
    try {
      record = this.deps.bridges.record(bridgeId);
    } catch {
      return; // deleted: the `bridges_update` of the deletion already said so
    }
    this.#broadcast({ type: "bridge_update", bridgeId, data: record });
    // The device set may have changed (entities added or removed, plugin devices): watchers get the whole set again.
    if (this.#devices.watched(bridgeId)) {
      this.#toWatchers(bridgeId, {
        type: "devices_snapshot",
        bridgeId,
        data: { devices: this.deps.bridges.devices(bridgeId), pluginDevices: this.deps.bridges.pluginDevices(bridgeId) },
      });
    }
    // A restart gives a new node and a device set change may remove the endpoint: inspectors start over.
    this.#endpoints.bridgeChanged(bridgeId);
  }

  readonly #onChanged = (bridgeId: string) => {
    if (this.#clients.size > 0) this.#throttle.touch(bridgeId);
  };

  readonly #onListChanged = () => {
    if (this.#clients.size === 0) return;
    const list = this.#bridgeList();
    // The full list carries every pending per-bridge update.
    this.#throttle.reset(new Set(list.map((bridge) => bridge.id)));
    this.#broadcast({ type: "bridges_update", data: list });
    this.#endpoints.listChanged();
  };
}
