/**
 * Which entities are exposed to which voice assistant, after HA's `homeassistant/exposed_entities.py`: a registry
 * entity's setting lives in its entry, `options[<assistant>].should_expose`, so changing it updates the entry and
 * fires `entity_registry_updated` (`changes: {options: <old options>}`); an entity without a registry entry has its
 * setting in HA's own store, and changing it fires nothing. The list answers only entities exposed to at least one
 * of the known assistants, each with `true` (current HA; older HA also listed `false`).
 */
import type { EntityRegistryEntry } from "../../../hub/src/home-assistant/types.ts";
import { cloneJson } from "./json.ts";
import type { Registries } from "./registry.ts";

/** HA's KNOWN_ASSISTANTS: the ones its commands accept. */
export const KNOWN_ASSISTANTS = ["cloud.alexa", "cloud.google_assistant", "conversation"] as const;
/** HA's CLOUD_NEVER_EXPOSED_ENTITIES: `homeassistant/expose_entity` refuses these with `not_allowed`. */
export const CLOUD_NEVER_EXPOSED_ENTITIES = ["group.all_locks"];
/** Assistants that expose new entities unless told otherwise (DEFAULT_EXPOSED_ASSISTANT). */
const DEFAULT_EXPOSE_NEW: Record<string, boolean> = { conversation: true };

type AssistantSettings = Record<string, Record<string, unknown>>;

export interface ExposedEntities {
  /** `async_expose_entity`: sets one assistant's setting for one entity; an unchanged setting changes nothing. */
  expose(assistant: string, entityId: string, shouldExpose: boolean): void;
  /** `homeassistant/expose_entity/list`'s `exposed_entities`. */
  list(): Record<string, Record<string, true>>;
  exposeNew(assistant: string): boolean;
  setExposeNew(assistant: string, exposeNew: boolean): void;
  /** The store's settings of entities without a registry entry, per assistant (for snapshots). */
  unregistered(): Record<string, Record<string, boolean>>;
}

/** `unregistered`: the initial settings of entities without a registry entry (`{<entity_id>: {<assistant>: bool}}`). */
export function createExposedEntities(
  registries: Registries,
  unregistered: Record<string, Record<string, boolean>> = {},
): ExposedEntities {
  const store = new Map<string, AssistantSettings>();
  for (const [entityId, assistants] of Object.entries(unregistered)) {
    store.set(
      entityId,
      Object.fromEntries(Object.entries(assistants).map(([assistant, value]) => [assistant, { should_expose: value }])),
    );
  }
  const exposeNew = new Map<string, boolean>();

  const settingsOf = (entityId: string): AssistantSettings | undefined => {
    const entry = registries.entities.get(entityId);
    if (entry) return (entry.options ?? {}) as AssistantSettings;
    return store.get(entityId);
  };

  return {
    expose(assistant, entityId, shouldExpose) {
      const entry = registries.entities.get(entityId);
      if (!entry) {
        const settings = store.get(entityId) ?? {};
        const current = settings[assistant];
        if (current && Object.keys(current).length > 0 && current.should_expose === shouldExpose) return;
        store.set(entityId, { ...settings, [assistant]: { ...current, should_expose: shouldExpose } });
        return;
      }
      const options = (entry.options ?? {}) as AssistantSettings;
      const current = options[assistant];
      if (current && Object.keys(current).length > 0 && current.should_expose === shouldExpose) return;
      // entity_registry.async_update_entity_options: the whole options mapping is replaced, the event carries the old one.
      const next: EntityRegistryEntry["options"] = { ...options, [assistant]: { ...current, should_expose: shouldExpose } };
      registries.updateEntity(entityId, { options: next });
    },
    list() {
      const result: Record<string, Record<string, true>> = {};
      for (const entityId of new Set([...store.keys(), ...registries.entities.keys()])) {
        const settings = settingsOf(entityId) ?? {};
        const exposedTo: Record<string, true> = {};
        for (const assistant of KNOWN_ASSISTANTS) if (settings[assistant]?.should_expose) exposedTo[assistant] = true;
        if (Object.keys(exposedTo).length > 0) result[entityId] = exposedTo;
      }
      return result;
    },
    exposeNew: (assistant) => exposeNew.get(assistant) ?? DEFAULT_EXPOSE_NEW[assistant] ?? false,
    setExposeNew: (assistant, value) => void exposeNew.set(assistant, value),
    unregistered() {
      const result: Record<string, Record<string, boolean>> = {};
      for (const [entityId, settings] of store) {
        result[entityId] = {};
        for (const [assistant, options] of Object.entries(settings)) {
          if (typeof options.should_expose === "boolean") result[entityId][assistant] = options.should_expose;
        }
      }
      return cloneJson(result);
    },
  };
}
