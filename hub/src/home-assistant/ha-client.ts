import { EventEmitter } from "node:events";
import { type Connection, createConnection, ERR_INVALID_AUTH, type HassConfig } from "home-assistant-js-websocket";
import type { Logger } from "../../../lib/logger.ts";
import { openHaSocket } from "./ha-socket.ts";

export type HaConnectionState = "connecting" | "connected" | "disconnected" | "failed" | "stopped";

export interface HaClientStatus {
  state: HaConnectionState;
  /** True once HA answered and reported `RUNNING`. */
  connected: boolean;
  haVersion: string | undefined;
  /** A fatal problem (invalid token): the hub will not retry until restarted. */
  fatal: string | undefined;
  lastConnectedAt: number | undefined;
  lastDisconnectedAt: number | undefined;
  reconnects: number;
}

interface HaClientEvents {
  /** HA is connected and RUNNING (first time and after every reconnect): time to (re)load. */
  ready: [];
  disconnected: [];
  fatal: [message: string];
}

export interface HaClientOptions {
  url: string;
  token: string;
  log: Logger;
  /** How often to re-ask `get_config` while HA is starting. */
  runningPollMs?: number;
  /** Backoff for the first connection: doubles from `initialRetryMs` up to `maxRetryMs`, forever. */
  initialRetryMs?: number;
  maxRetryMs?: number;
}

/**
 * The hub's link to Home Assistant: connects (retrying with backoff forever), waits until HA reports `RUNNING`,
 * and announces `ready` each time the link is usable again. Reconnection after a drop is done by
 * home-assistant-js-websocket (it re-subscribes our subscriptions); an invalid token is fatal and stops retries.
 */
export class HomeAssistantClient extends EventEmitter<HaClientEvents> {
  #connection: Connection | undefined;
  #status: HaClientStatus = {
    state: "connecting",
    connected: false,
    haVersion: undefined,
    fatal: undefined,
    lastConnectedAt: undefined,
    lastDisconnectedAt: undefined,
    reconnects: 0,
  };
  #stopped = false;
  #timer: NodeJS.Timeout | undefined;
  #readyGeneration = 0;

  constructor(private readonly options: HaClientOptions) {
    super();
  }

  get status(): Readonly<HaClientStatus> {
    return this.#status;
  }

  /** The live connection; throws when HA is not connected (callers report that as a failure). */
  get connection(): Connection {
    if (!this.#connection || !this.#status.connected) throw new Error("Home Assistant is not connected");
    return this.#connection;
  }

  /** Starts connecting in the background; `ready` fires when HA is usable. */
  start(): void {
    void this.#connectLoop(this.options.initialRetryMs ?? 1000);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#connection?.close();
    this.#set({ state: "stopped", connected: false });
  }

  async #connectLoop(delayMs: number): Promise<void> {
    if (this.#stopped) return;
    const { url, token, log } = this.options;
    try {
      this.#set({ state: "connecting" });
      const connection = await createConnection({ createSocket: () => openHaSocket(url, token) });
      if (this.#stopped) return connection.close();
      this.#connection = connection;
      connection.addEventListener("disconnected", () => this.#onDisconnected());
      connection.addEventListener("ready", () => void this.#onSocketReady());
      connection.addEventListener("reconnect-error", (_conn, error) => {
        if (error === ERR_INVALID_AUTH) this.#fail();
      });
      await this.#onSocketReady();
    } catch (error) {
      if (error === ERR_INVALID_AUTH) return this.#fail();
      const next = Math.min(delayMs * 2, this.options.maxRetryMs ?? 30_000);
      log.warn({ retryInMs: delayMs }, `cannot connect to Home Assistant at ${url}; retrying`);
      this.#set({ state: "disconnected" });
      this.#timer = setTimeout(() => void this.#connectLoop(next), delayMs);
    }
  }

  /** After every (re)connection: wait for RUNNING, then announce `ready`. */
  async #onSocketReady(): Promise<void> {
    const generation = ++this.#readyGeneration;
    const connection = this.#connection;
    if (!connection) return;
    const poll = this.options.runningPollMs ?? 2000;
    let announcedWait = false;
    while (!this.#stopped && generation === this.#readyGeneration && connection.connected) {
      try {
        const config = await connection.sendMessagePromise<HassConfig>({ type: "get_config" });
        if (config.state === "RUNNING") {
          const reconnected = this.#status.lastConnectedAt !== undefined;
          this.#set({ state: "connected", connected: true, haVersion: connection.haVersion, lastConnectedAt: Date.now() });
          if (reconnected) this.#status.reconnects++;
          this.options.log.info({ haVersion: connection.haVersion }, `connected to Home Assistant ${connection.haVersion}`);
          this.emit("ready");
          return;
        }
        if (!announcedWait) this.options.log.info({ haState: config.state }, "Home Assistant is starting; waiting for RUNNING");
        announcedWait = true;
      } catch {
        // The socket dropped while asking; the library reconnects and we get another `ready`.
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, poll));
    }
  }

  #onDisconnected(): void {
    if (this.#stopped) return;
    this.#readyGeneration++;
    this.#set({ state: "disconnected", connected: false, lastDisconnectedAt: Date.now() });
    this.options.log.warn("lost the connection to Home Assistant; reconnecting");
    this.emit("disconnected");
  }

  #fail(): void {
    // The hub never retries a refused token (docs/decisions.md), so the message says what the user has to do. A
    // token that worked before was revoked (deleted in HA's profile page) or expired: that is worth telling apart
    // from a token that was wrong from the start.
    const message =
      this.#status.lastConnectedAt === undefined
        ? "Home Assistant refused the access token (auth_invalid): check HA_TOKEN, then restart the hub"
        : "Home Assistant no longer accepts the access token (auth_invalid): it was revoked or has expired; set a new HA_TOKEN and restart the hub";
    this.#connection?.close();
    this.#set({ state: "failed", connected: false, fatal: message });
    this.options.log.fatal(message);
    this.emit("fatal", message);
  }

  #set(patch: Partial<HaClientStatus>): void {
    this.#status = { ...this.#status, ...patch };
  }
}
