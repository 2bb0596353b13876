import { MAX_ENDPOINT_NUMBER } from "../bridges/device-inspection.ts";
import type { EndpointInspection, InspectedChange } from "../bridges/endpoint-inspection.ts";
import type { DiagnosticEvent } from "../diagnostics/diagnostic-bus.ts";

/** What a client may send (hub spec, Events): anything else is answered with an `error` message. */
export const CLIENT_MESSAGE_TYPES = [
  "ping",
  "pong",
  "subscribe_diagnostics",
  "unsubscribe_diagnostics",
  // Additions to the spec (docs/live-channel.md): one bridge's device rows, live.
  "subscribe_devices",
  "unsubscribe_devices",
  // The device inspector (docs/inspector.md): one endpoint's attribute values, live.
  "subscribe_endpoint",
  "unsubscribe_endpoint",
] as const;
export type ClientMessageType = (typeof CLIENT_MESSAGE_TYPES)[number];

/** A text frame longer than this closes the connection with 1009 (no client message needs more than a few bytes). */
export const MAX_CLIENT_MESSAGE_CHARS = 4096;

/** Everything the server sends; each message is one JSON text frame with a `type`. */
export type ServerMessage =
  | { type: "bridges_update"; data: unknown[] }
  | { type: "bridge_update"; bridgeId: string; data: unknown }
  | { type: "diagnostic_snapshot"; data: { events: DiagnosticEvent[]; summary: unknown } }
  | { type: "diagnostic_event"; data: DiagnosticEvent }
  | { type: "devices_snapshot"; bridgeId: string; data: { devices: unknown[]; pluginDevices: unknown[] } }
  | { type: "devices_update"; bridgeId: string; data: unknown[] }
  | {
      type: "endpoint_snapshot";
      bridgeId: string;
      endpointNumber: number;
      /** Null when there is nothing to show now; `reason` says why (bridge stopped, no such endpoint). */
      data: EndpointInspection | null;
      reason: string | null;
    }
  | {
      type: "endpoint_update";
      bridgeId: string;
      endpointNumber: number;
      data: { readAt: string; attributes: InspectedChange[] };
    }
  | { type: "ping" }
  | { type: "pong" }
  | { type: "error"; message: string };

/**
 * Reads one client frame: the message type, or the sentence the `error` reply carries. Extra fields are ignored, so
 * clients may add their own (e.g. a request id) without breaking.
 */
export function parseClientMessage(
  data: unknown,
): { type: ClientMessageType; bridgeId?: string; endpointNumber?: number } | { error: string } {
  if (typeof data !== "string") return { error: "Binary messages are not supported: send JSON text" };
  let message: unknown;
  try {
    message = JSON.parse(data);
  } catch {
    return { error: "Malformed message: not JSON" };
  }
  if (typeof message !== "object" || message === null || Array.isArray(message)) {
    return { error: "Malformed message: expected a JSON object with a string `type`" };
  }
  const type = (message as { type?: unknown }).type;
  if (typeof type !== "string") return { error: "Malformed message: expected a JSON object with a string `type`" };
  if (!(CLIENT_MESSAGE_TYPES as readonly string[]).includes(type)) {
    return { error: `Unknown message type "${type.slice(0, 64)}"; expected one of ${CLIENT_MESSAGE_TYPES.join(", ")}` };
  }
  if (type === "subscribe_devices") {
    const bridgeId = (message as { bridgeId?: unknown }).bridgeId;
    if (typeof bridgeId !== "string" || bridgeId.length === 0 || bridgeId.length > 64) {
      return { error: "subscribe_devices needs a bridgeId (a string of 1 to 64 characters)" };
    }
    return { type, bridgeId };
  }
  if (type === "subscribe_endpoint") {
    const { bridgeId, endpointNumber } = message as { bridgeId?: unknown; endpointNumber?: unknown };
    if (typeof bridgeId !== "string" || bridgeId.length === 0 || bridgeId.length > 64) {
      return { error: "subscribe_endpoint needs a bridgeId (a string of 1 to 64 characters)" };
    }
    if (!Number.isInteger(endpointNumber) || (endpointNumber as number) < 0 || (endpointNumber as number) > MAX_ENDPOINT_NUMBER) {
      return { error: `subscribe_endpoint needs an endpointNumber (an integer from 0 to ${MAX_ENDPOINT_NUMBER})` };
    }
    return { type, bridgeId, endpointNumber: endpointNumber as number };
  }
  return { type: type as ClientMessageType };
}

/** The little the channel needs of a WebSocket (the `ws` socket behind Hono's upgrade; a fake in unit tests). */
export interface LiveSocket {
  readonly isOpen: boolean;
  /** Bytes queued but not yet sent: a client that does not read makes it grow. */
  readonly bufferedAmount: number;
  send(text: string): void;
  close(code: number, reason: string): void;
  terminate(): void;
}

/** What the route hands the channel's frames and the close to. */
export interface LiveConnection {
  receive(data: unknown): void;
  closed(): void;
}
