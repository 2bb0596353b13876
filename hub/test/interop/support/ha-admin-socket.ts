/**
 * The test's own WebSocket to a real Home Assistant (HA's documented websocket API: auth phase, then commands with
 * ids), kept apart from the hub's client so the tests check the hub against HA and not against itself. Used for
 * what only the websocket API offers: long-lived tokens, registries, and waiting for HA's start-up to finish.
 */
import { WebSocket } from "ws";

interface HaResult {
  id: number;
  type: "result" | "event";
  success?: boolean;
  result?: unknown;
  error?: { code: string; message: string };
  event?: { event_type?: string };
}

/** A failed command, with HA's error code (e.g. `unknown_command`, `not_found`). */
export class HaCommandError extends Error {
  constructor(
    readonly command: string,
    readonly code: string,
    message: string,
  ) {
    super(`${command}: ${code}: ${message}`);
  }
}

export class HaAdminSocket {
  readonly #socket: WebSocket;
  readonly #pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void; type: string }>();
  readonly #events = new Map<number, (event: HaResult["event"]) => void>();
  #nextId = 1;

  private constructor(socket: WebSocket) {
    this.#socket = socket;
    socket.on("message", (data) => {
      for (const message of [JSON.parse(String(data))].flat() as HaResult[]) this.#onMessage(message);
    });
    socket.on("close", () => {
      for (const { reject, type } of this.#pending.values()) reject(new Error(`${type}: the socket closed`));
      this.#pending.clear();
    });
  }

  /** Opens and authenticates; rejects with HA's auth_invalid message when the token is refused. */
  static connect(url: string, token: string, timeoutMs = 20_000): Promise<HaAdminSocket> {
    const socket = new WebSocket(`${url.replace(/^http/, "ws")}/api/websocket`);
    return new Promise((resolve, reject) => {
      const fail = (error: Error) => {
        clearTimeout(timer);
        socket.terminate();
        reject(error);
      };
      const timer = setTimeout(() => fail(new Error("HA websocket: no auth_ok in time")), timeoutMs);
      socket.once("error", fail);
      socket.on("message", function onAuth(data) {
        const message = JSON.parse(String(data)) as { type: string; message?: string };
        if (message.type === "auth_required") socket.send(JSON.stringify({ type: "auth", access_token: token }));
        else if (message.type === "auth_invalid") fail(new Error(`HA websocket: auth_invalid: ${message.message}`));
        else if (message.type === "auth_ok") {
          clearTimeout(timer);
          socket.off("message", onAuth);
          socket.off("error", fail);
          resolve(new HaAdminSocket(socket));
        }
      });
    });
  }

  #onMessage(message: HaResult): void {
    if (message.type === "event") {
      this.#events.get(message.id)?.(message.event);
      return;
    }
    const pending = this.#pending.get(message.id);
    if (!pending) return;
    this.#pending.delete(message.id);
    if (message.success) pending.resolve(message.result);
    else pending.reject(new HaCommandError(pending.type, message.error?.code ?? "unknown", message.error?.message ?? ""));
  }

  /** One command (`{type, ...fields}`), resolved with its `result`. */
  command<T = unknown>(message: { type: string; [field: string]: unknown }): Promise<T> {
    const id = this.#nextId++;
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (value: unknown) => void, reject, type: message.type });
      this.#socket.send(JSON.stringify({ ...message, id }));
    });
  }

  /** Calls `handler` for each event of `eventType` until the returned function unsubscribes. */
  async subscribeEvents(eventType: string, handler: () => void): Promise<() => Promise<void>> {
    const id = this.#nextId;
    this.#events.set(id, handler);
    await this.command({ type: "subscribe_events", event_type: eventType });
    return async () => {
      this.#events.delete(id);
      await this.command({ type: "unsubscribe_events", subscription: id });
    };
  }

  /** Resolves when HA reports `RUNNING` (start-up finished: integrations and their entities are set up). */
  async untilRunning(timeoutMs = 180_000): Promise<void> {
    let onStarted!: () => void;
    const started = new Promise<void>((resolve) => {
      onStarted = resolve;
    });
    // Subscribe first, then ask: the start event cannot slip between the two.
    const unsubscribe = await this.subscribeEvents("homeassistant_started", () => onStarted());
    let timer: NodeJS.Timeout | undefined;
    try {
      const config = await this.command<{ state: string }>({ type: "get_config" });
      if (config.state === "RUNNING") return;
      await Promise.race([
        started,
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`HA did not reach RUNNING within ${timeoutMs} ms`)), timeoutMs);
        }),
      ]);
    } finally {
      clearTimeout(timer);
      await unsubscribe();
    }
  }

  close(): void {
    this.#socket.close();
  }
}
