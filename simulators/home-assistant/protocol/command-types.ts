/** What a websocket command is, and the connection as commands see it (shared by the command modules). */
import type { HassContext } from "../../../hub/src/home-assistant/types.ts";
import type { SimUser } from "./describe.ts";
import type { Fields } from "./schema.ts";

/** The connection as commands see it. */
export interface CommandConnection {
  readonly user: SimUser;
  /** Subscription id → unsubscribe, dropped when the connection closes (HA's `connection.subscriptions`). */
  readonly subscriptions: Map<number, () => void>;
  send(message: string): void;
  setFeatures(features: Record<string, unknown>): void;
  /** A new context carrying this connection's user, as HA's `connection.context(msg)`. */
  context(): HassContext;
}

export interface Command {
  fields: Fields;
  handle(conn: CommandConnection, msg: Record<string, unknown> & { id: number }): void | Promise<void>;
}
