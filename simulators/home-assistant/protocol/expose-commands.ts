/**
 * HA's voice assistant exposure commands (`homeassistant/exposed_entities.py`: all `require_admin`, and the
 * simulator's one user is an admin) and `config/entity_registry/get_entries`, with their voluptuous schemas.
 */
import { CLOUD_NEVER_EXPOSED_ENTITIES, type ExposedEntities, KNOWN_ASSISTANTS } from "../core/exposed-entities.ts";
import type { Registries } from "../core/registry.ts";
import { entityExtended } from "../core/registry-json.ts";
import type { Command, CommandConnection } from "./command-types.ts";
import { HaError } from "./errors.ts";
import { resultMessage } from "./messages.ts";
import { required, v } from "./schema.ts";

export function exposeCommands(exposure: ExposedEntities, registries: Registries): Map<string, Command> {
  const commands = new Map<string, Command>();
  const sendResult = (conn: CommandConnection, id: number, result?: unknown) => conn.send(resultMessage(id, result));
  const assistant = v.oneOf(KNOWN_ASSISTANTS);

  commands.set("homeassistant/expose_entity", {
    fields: {
      assistants: required(v.listOf(assistant)),
      entity_ids: required(v.listOf(v.type("str"))),
      should_expose: required(v.type("bool")),
    },
    handle(conn, msg) {
      const entityIds = msg.entity_ids as string[];
      const blocked = entityIds.find((id) => CLOUD_NEVER_EXPOSED_ENTITIES.includes(id));
      if (blocked) throw new HaError("not_allowed", `can't expose '${blocked}'`);
      for (const entityId of entityIds) {
        for (const name of msg.assistants as string[]) exposure.expose(name, entityId, msg.should_expose as boolean);
      }
      sendResult(conn, msg.id);
    },
  });
  commands.set("homeassistant/expose_entity/list", {
    fields: {},
    handle: (conn, msg) => sendResult(conn, msg.id, { exposed_entities: exposure.list() }),
  });
  commands.set("homeassistant/expose_new_entities/get", {
    fields: { assistant: required(assistant) },
    handle: (conn, msg) => sendResult(conn, msg.id, { expose_new: exposure.exposeNew(msg.assistant as string) }),
  });
  commands.set("homeassistant/expose_new_entities/set", {
    fields: { assistant: required(assistant), expose_new: required(v.type("bool")) },
    handle(conn, msg) {
      exposure.setExposeNew(msg.assistant as string, msg.expose_new as boolean);
      sendResult(conn, msg.id);
    },
  });
  // The extended entries of the given entity ids, null for an id not in the registry (websocket_get_entities).
  commands.set("config/entity_registry/get_entries", {
    fields: { entity_ids: required(v.entityIdList()) },
    handle(conn, msg) {
      const entries: Record<string, unknown> = {};
      for (const id of msg.entity_ids as string[]) {
        const entry = registries.entities.get(id);
        entries[id] = entry ? entityExtended(entry) : null;
      }
      sendResult(conn, msg.id, entries);
    },
  });
  return commands;
}
