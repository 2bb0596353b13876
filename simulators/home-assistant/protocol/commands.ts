/**
 * The websocket commands, after HA's websocket_api/commands.py and the registry modules' list commands. Each has
 * its voluptuous-like schema (extra keys refused, as `BASE_COMMAND_MESSAGE_SCHEMA.extend` does).
 */

import type { Logger } from "../../../lib/logger.ts";
import { compressState, entitiesEventJson } from "../core/compressed-states.ts";
import type { BusEvent, EventBus } from "../core/event-bus.ts";
import { MATCH_ALL } from "../core/event-bus.ts";
import type { ExposedEntities } from "../core/exposed-entities.ts";
import type { Registries } from "../core/registry.ts";
import { areaJson, deviceJson, entityDisplay, entityExtended, entityPartial, labelJson } from "../core/registry-json.ts";
import type { StateMachine } from "../core/state-machine.ts";
import type { ServiceRegistry, ServiceRequest } from "../services/service-registry.ts";
import type { Command, CommandConnection } from "./command-types.ts";
import { servicesJson, userJson } from "./describe.ts";
import { HaError, Invalid } from "./errors.ts";
import { exposeCommands } from "./expose-commands.ts";
import { errorMessage, eventMessage, resultMessage } from "./messages.ts";
import { type Fields, required, v } from "./schema.ts";

export type { Command, CommandConnection };

export interface CommandDeps {
  bus: EventBus;
  states: StateMachine;
  registries: Registries;
  /** Voice assistant exposure (`homeassistant/expose_entity…`). */
  exposure: ExposedEntities;
  services: ServiceRegistry;
  config(): Record<string, unknown>;
  /** The simulator's wrapper around `services.call` (recording, scripted delays and failures). */
  callService(request: ServiceRequest): Promise<unknown>;
  log: Logger | undefined;
  /** Commands of further components (the simulated cameras' `camera/*`). */
  extraCommands?: ReadonlyMap<string, Command>;
}

/** The error a failed service call answers with, as handle_call_service maps exceptions. */
export function callErrorJson(error: unknown) {
  if (error instanceof HaError) return error.toJSON();
  if (error instanceof Invalid) return { code: "invalid_format", message: error.describe() };
  return { code: "unknown_error", message: error instanceof Error ? error.message : String(error) };
}

export function createCommands(deps: CommandDeps): Map<string, Command> {
  const { bus, states, registries } = deps;
  const commands = new Map<string, Command>();
  const add = (type: string, fields: Fields, handle: Command["handle"]) => commands.set(type, { fields, handle });
  const sendResult = (conn: CommandConnection, id: number, result?: unknown) => conn.send(resultMessage(id, result));

  add("ping", {}, (conn, msg) => conn.send(`{"id":${msg.id},"type":"pong"}`));
  add("supported_features", { features: required(v.object()) }, (conn, msg) => {
    conn.setFeatures(msg.features as Record<string, unknown>);
    sendResult(conn, msg.id);
  });
  add("auth/current_user", {}, (conn, msg) => sendResult(conn, msg.id, userJson(conn.user)));
  add("get_states", {}, (conn, msg) => sendResult(conn, msg.id, states.all()));
  add("get_config", {}, (conn, msg) => sendResult(conn, msg.id, deps.config()));
  add("get_services", {}, (conn, msg) => sendResult(conn, msg.id, servicesJson(deps.services.all())));

  add("subscribe_events", { event_type: v.string() }, (conn, msg) => {
    const eventType = typeof msg.event_type === "string" ? msg.event_type : MATCH_ALL;
    conn.subscriptions.set(
      msg.id,
      bus.listen(eventType, (event: BusEvent) => conn.send(eventMessage(msg.id, event.toJsonString()))),
    );
    sendResult(conn, msg.id);
  });
  add("unsubscribe_events", { subscription: required(v.int({ min: 0 })) }, (conn, msg) => {
    const unsubscribe = conn.subscriptions.get(msg.subscription as number);
    if (!unsubscribe) {
      conn.send(errorMessage(msg.id, { code: "not_found", message: "Subscription not found." }));
      return;
    }
    conn.subscriptions.delete(msg.subscription as number);
    unsubscribe();
    sendResult(conn, msg.id);
  });
  add("subscribe_entities", { entity_ids: v.entityIds() }, (conn, msg) => {
    const wanted = Array.isArray(msg.entity_ids) ? new Set(msg.entity_ids as string[]) : undefined;
    // Listen before taking the snapshot and never yield in between, as HA does, so no change is missed.
    conn.subscriptions.set(
      msg.id,
      bus.listen("state_changed", (event) => {
        if (wanted && !wanted.has((event.data as { entity_id: string }).entity_id)) return;
        conn.send(eventMessage(msg.id, entitiesEventJson(event)));
      }),
    );
    sendResult(conn, msg.id);
    const snapshot: Record<string, unknown> = {};
    for (const state of states.all()) {
      if (!wanted || wanted.has(state.entityId)) snapshot[state.entityId] = compressState(state);
    }
    conn.send(eventMessage(msg.id, JSON.stringify({ a: snapshot })));
  });

  add(
    "call_service",
    {
      domain: required(v.string()),
      service: required(v.string()),
      target: v.object(),
      service_data: v.object(),
      return_response: v.bool(),
    },
    async (conn, msg) => {
      const context = conn.context();
      try {
        const response = await deps.callService({
          domain: msg.domain as string,
          service: msg.service as string,
          serviceData: msg.service_data as Record<string, unknown> | undefined,
          target: msg.target as Record<string, unknown> | undefined,
          context,
          returnResponse: msg.return_response === true,
        });
        // HA adds `response` only when the caller asked for it.
        sendResult(conn, msg.id, msg.return_response === true ? { context, response } : { context });
      } catch (error) {
        if (!(error instanceof HaError) && !(error instanceof Invalid)) deps.log?.error({ err: error }, "service call failed");
        conn.send(errorMessage(msg.id, callErrorJson(error)));
      }
    },
  );
  add("fire_event", { event_type: required(v.string()), event_data: v.object() }, (conn, msg) => {
    const context = conn.context();
    bus.fire(msg.event_type as string, (msg.event_data as Record<string, unknown>) ?? {}, context);
    sendResult(conn, msg.id, { context });
  });

  add("config/entity_registry/list", {}, (conn, msg) =>
    sendResult(conn, msg.id, [...registries.entities.values()].map(entityPartial)),
  );
  add("config/entity_registry/list_for_display", {}, (conn, msg) => {
    const entities = [...registries.entities.values()].filter((entry) => entry.disabled_by === null).map(entityDisplay);
    sendResult(conn, msg.id, { entity_categories: { 0: "config", 1: "diagnostic" }, entities });
  });
  add("config/entity_registry/get", { entity_id: required(v.entityId()) }, (conn, msg) => {
    const entry = registries.entities.get(msg.entity_id as string);
    if (!entry) conn.send(errorMessage(msg.id, { code: "not_found", message: "Entity not found" }));
    else sendResult(conn, msg.id, entityExtended(entry));
  });
  add("config/device_registry/list", {}, (conn, msg) =>
    sendResult(conn, msg.id, [...registries.devices.values()].map(deviceJson)),
  );
  add("config/area_registry/list", {}, (conn, msg) => sendResult(conn, msg.id, [...registries.areas.values()].map(areaJson)));
  add("config/label_registry/list", {}, (conn, msg) => sendResult(conn, msg.id, [...registries.labels.values()].map(labelJson)));
  for (const [type, command] of exposeCommands(deps.exposure, registries)) commands.set(type, command);
  for (const [type, command] of deps.extraCommands ?? []) commands.set(type, command);
  return commands;
}
