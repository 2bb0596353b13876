/**
 * Home Assistant's voice assistants as the UI names them: the hub's own list (its contract), so the names and the
 * accepted shape of an assistant id cannot drift from what the hub validates.
 */
import { ASSISTANT_ID_PATTERN, KNOWN_ASSISTANTS } from "../../../../hub/src/contract.ts";

const NAMES = new Map<string, string>(KNOWN_ASSISTANTS.map((assistant) => [assistant.id, assistant.name]));

/** "Assist" for `conversation`, the id itself for an assistant HA's UI does not name. */
export function assistantName(id: string): string {
  return NAMES.get(id) ?? id;
}

/** True when `value` has the shape of an assistant id (the hub refuses anything else with a 400). */
export function isAssistantId(value: string): boolean {
  return ASSISTANT_ID_PATTERN.test(value.trim().toLowerCase());
}
