/**
 * Home Assistant's voice assistants, as its "Expose" settings name them (core
 * `homeassistant/exposed_entities.py` KNOWN_ASSISTANTS, frontend `src/data/expose.ts` voiceAssistants). A leaf
 * module: plain constants and pure functions, no imports, so the UI contract may re-export it.
 */

/** The assistants HA's UI offers, by the id its settings use, with the name its UI shows. */
export const KNOWN_ASSISTANTS = [
  { id: "conversation", name: "Assist" },
  { id: "cloud.alexa", name: "Amazon Alexa" },
  { id: "cloud.google_assistant", name: "Google Assistant" },
] as const;

/**
 * What an assistant id may look like: HA's ids are an integration domain, optionally with a sub-key
 * (`cloud.alexa`). Ids HA adds later, or a custom integration's, pass; anything else is refused (docs/decisions.md).
 */
export const ASSISTANT_ID_PATTERN = /^[a-z0-9_]{1,64}(\.[a-z0-9_]{1,64})?$/;

/**
 * The assistants a registry entry's `options` expose the entity to: HA keeps each assistant's setting in
 * `options[<assistant>].should_expose` (exposed_entities.py `async_expose_entity`), sorted.
 */
export function assistantsFromOptions(options: Record<string, unknown> | null | undefined): string[] {
  const found: string[] = [];
  for (const [key, value] of Object.entries(options ?? {})) {
    if (typeof value === "object" && value !== null && (value as { should_expose?: unknown }).should_expose === true)
      found.push(key);
  }
  return found.sort();
}

/**
 * The assistants one entry of `homeassistant/expose_entity/list` exposes the entity to. Newer HA lists only exposed
 * entities with `true`; older HA also lists `false` and empty objects: only `true` counts.
 */
export function assistantsFromListEntry(entry: unknown): string[] {
  if (typeof entry !== "object" || entry === null) return [];
  return Object.entries(entry)
    .filter(([, value]) => value === true)
    .map(([key]) => key)
    .sort();
}
