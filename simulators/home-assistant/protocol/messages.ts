/** Message frames of HA's websocket API (websocket_api/messages.py), built as JSON strings. */
import type { ErrorJson } from "./errors.ts";

export function resultMessage(id: number, result: unknown = null): string {
  return `{"id":${id},"type":"result","success":true,"result":${JSON.stringify(result ?? null)}}`;
}

export function errorMessage(id: number, error: ErrorJson): string {
  return JSON.stringify({ id, type: "result", success: false, error });
}

/** An event for subscription `id`, with the event payload already serialised (shared between subscribers). */
export function eventMessage(id: number, eventJson: string): string {
  return `{"id":${id},"type":"event","event":${eventJson}}`;
}
