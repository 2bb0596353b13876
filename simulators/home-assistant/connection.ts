/**
 * One client connection, after HA's websocket_api auth.py, http.py and connection.py: `auth_required`, then an
 * `auth` message within 10 s (else the socket closes); `auth_ok` or `auth_invalid` + close. Afterwards frames may
 * be single messages or arrays; ids must increase (`id_reuse`), malformed messages get `invalid_format`, unknown
 * types `unknown_command`. Outgoing messages queued in the same tick go out as one JSON array once the client
 * announced `coalesce_messages`. Subscriptions end with the connection.
 */
import type { WebSocket } from "ws";
import type { HassContext } from "../../hub/src/home-assistant/types.ts";
import type { Logger } from "../../lib/logger.ts";
import { pyRepr } from "./core/json.ts";
import { type Clock, newContext } from "./core/time.ts";
import type { Command, CommandConnection } from "./protocol/commands.ts";
import { callErrorJson } from "./protocol/commands.ts";
import type { SimUser } from "./protocol/describe.ts";
import { HaError, Invalid } from "./protocol/errors.ts";
import { errorMessage } from "./protocol/messages.ts";
import { type Fields, v, validateMapping } from "./protocol/schema.ts";

export interface ConnectionDeps {
  haVersion: () => string;
  token: () => string;
  user: SimUser;
  commands: Map<string, Command>;
  clock: Clock;
  log: Logger | undefined;
}

export interface SimConnection {
  readonly authenticated: boolean;
  /** The token this connection authenticated with. */
  readonly token: string | undefined;
  close(): void;
}

const AUTH_TIMEOUT_MS = 10_000;
const BASE_FIELDS: Fields = { id: v.int({ min: 0 }), type: v.string() };

/** voluptuous' `humanize_error`: the error and the offending value. */
function humanize(error: Invalid, data: unknown): string {
  let value: unknown = data;
  for (const key of error.path)
    value = typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  return `${error.describe()}. Got ${pyRepr(value)}`;
}

export function openConnection(socket: WebSocket, deps: ConnectionDeps): SimConnection {
  let authenticated = false;
  let token: string | undefined;
  let lastId = 0;
  let coalesce = false;
  let queue: string[] = [];
  let flushScheduled = false;
  const subscriptions = new Map<number, () => void>();

  const flush = () => {
    flushScheduled = false;
    const batch = queue;
    queue = [];
    if (socket.readyState !== socket.OPEN || batch.length === 0) return;
    if (coalesce && batch.length > 1) socket.send(`[${batch.join(",")}]`);
    else for (const message of batch) socket.send(message);
  };

  const conn: CommandConnection = {
    user: deps.user,
    subscriptions,
    send(message) {
      if (socket.readyState !== socket.OPEN) return;
      queue.push(message);
      if (!flushScheduled) {
        flushScheduled = true;
        setImmediate(flush);
      }
    },
    setFeatures(features) {
      coalesce = features.coalesce_messages === 1 || features.coalesce_messages === true;
    },
    context: (): HassContext => newContext(deps.clock.now(), deps.user.id),
  };

  const authTimer = setTimeout(() => {
    deps.log?.warn("Did not receive auth message within 10 seconds");
    socket.close();
  }, AUTH_TIMEOUT_MS);

  const authInvalid = (message: string) => {
    socket.send(JSON.stringify({ type: "auth_invalid", message }));
    socket.close();
  };

  function authenticate(msg: unknown): void {
    clearTimeout(authTimer);
    try {
      validateMapping({ type: v.oneOf(["auth"]), access_token: v.string(), api_password: v.string() }, msg);
      if ((msg as { type?: unknown }).type !== "auth") throw new Invalid("required key not provided", ["type"]);
    } catch (error) {
      if (!(error instanceof Invalid)) throw error;
      authInvalid(`Auth message incorrectly formatted: ${humanize(error, msg)}`);
      return;
    }
    const given = (msg as { access_token?: string }).access_token;
    if (given === undefined || given !== deps.token()) {
      deps.log?.warn("Login attempt or request with invalid authentication");
      authInvalid("Invalid access token or password");
      return;
    }
    authenticated = true;
    token = given;
    socket.send(JSON.stringify({ type: "auth_ok", ha_version: deps.haVersion() }));
  }

  async function handle(msg: unknown): Promise<void> {
    const record = typeof msg === "object" && msg !== null && !Array.isArray(msg) ? (msg as Record<string, unknown>) : undefined;
    const id = record?.id;
    if (
      !record ||
      typeof id !== "number" ||
      !Number.isInteger(id) ||
      id <= 0 ||
      typeof record.type !== "string" ||
      record.type === ""
    ) {
      deps.log?.error(`Received invalid command: ${JSON.stringify(msg)}`);
      conn.send(
        errorMessage(typeof id === "number" ? id : 0, { code: "invalid_format", message: "Message incorrectly formatted." }),
      );
      return;
    }
    if (id <= lastId) {
      conn.send(errorMessage(id, { code: "id_reuse", message: "Identifier values have to increase." }));
      return;
    }
    const command = deps.commands.get(record.type);
    if (!command) {
      deps.log?.info(`Received unknown command: ${record.type}`);
      conn.send(errorMessage(id, { code: "unknown_command", message: "Unknown command." }));
      return;
    }
    lastId = id;
    let validated: Record<string, unknown>;
    try {
      validated = validateMapping({ ...BASE_FIELDS, ...command.fields }, record);
    } catch (error) {
      if (!(error instanceof Invalid)) throw error;
      conn.send(errorMessage(id, { code: "invalid_format", message: humanize(error, record) }));
      return;
    }
    try {
      await command.handle(conn, validated as Record<string, unknown> & { id: number });
    } catch (error) {
      // HA's async_handle_exception: its own errors keep their code, anything else is an "Unknown error".
      deps.log?.error({ err: error }, `Error handling message: ${record.type}`);
      const known = error instanceof HaError || error instanceof Invalid;
      conn.send(errorMessage(id, known ? callErrorJson(error) : { code: "unknown_error", message: "Unknown error" }));
    }
  }

  socket.send(JSON.stringify({ type: "auth_required", ha_version: deps.haVersion() }));

  socket.on("message", (data) => {
    if (socket.readyState !== socket.OPEN) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(String(data));
    } catch {
      // HA ends the connection on a frame that is not JSON ("Received invalid JSON.").
      deps.log?.warn("Received invalid JSON.");
      socket.close();
      return;
    }
    if (!authenticated) {
      authenticate(parsed);
      return;
    }
    for (const msg of Array.isArray(parsed) ? parsed : [parsed]) void handle(msg);
  });

  socket.on("close", () => {
    clearTimeout(authTimer);
    for (const unsubscribe of subscriptions.values()) unsubscribe();
    subscriptions.clear();
    queue = [];
  });
  socket.on("error", (error) => deps.log?.debug({ err: error }, "websocket error"));

  return {
    get authenticated() {
      return authenticated;
    },
    get token() {
      return token;
    },
    close: () => socket.terminate(),
  };
}
