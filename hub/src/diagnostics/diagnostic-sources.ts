import type { BridgeService } from "../bridges/bridge-service.ts";
import type { ActionCaller, ActionOutcome } from "../home-assistant/action-caller.ts";
import type { HomeAssistantClient } from "../home-assistant/ha-client.ts";
import { watchBridgeLifecycle } from "./bridge-lifecycle.ts";
import type { DiagnosticBus } from "./diagnostic-bus.ts";

/** What the diagnostics sources observe; all of it exists once the hub is built. */
export interface DiagnosticSources {
  bridges: BridgeService;
  homeAssistant: { client: HomeAssistantClient; actions: ActionCaller };
}

/**
 * Connects every diagnostics source to the bus: bridge lifecycle and pairing, the Home Assistant link, and each
 * service call made for a controller. Returns the function that disconnects them all.
 */
export function watchDiagnostics(bus: DiagnosticBus, sources: DiagnosticSources): () => void {
  const offs = [
    watchBridgeLifecycle(bus, sources.bridges),
    watchHomeAssistant(bus, sources.homeAssistant.client),
    sources.homeAssistant.actions.observe((outcome) => bus.publish(commandEvent(outcome))),
  ];
  return () => {
    for (const off of offs) off();
  };
}

function watchHomeAssistant(bus: DiagnosticBus, client: HomeAssistantClient): () => void {
  const onReady = () => {
    const { haVersion, reconnects } = client.status;
    bus.publish({
      type: "ha_connected",
      level: "info",
      message: `Connected to Home Assistant${haVersion ? ` ${haVersion}` : ""}`,
      data: { haVersion: haVersion ?? null, reconnects },
    });
  };
  const onDisconnected = () =>
    bus.publish({ type: "ha_disconnected", level: "warn", message: "Lost the connection to Home Assistant; reconnecting" });
  const onFatal = (message: string) => bus.publish({ type: "ha_fatal", level: "error", message });
  client.on("ready", onReady);
  client.on("disconnected", onDisconnected);
  client.on("fatal", onFatal);
  return () => {
    client.off("ready", onReady);
    client.off("disconnected", onDisconnected);
    client.off("fatal", onFatal);
  };
}

/** A service call as an event: entity, action, result and how long HA took. */
export function commandEvent(outcome: ActionOutcome) {
  const entityIds = Array.isArray(outcome.entityId) ? outcome.entityId : [outcome.entityId];
  const target = entityIds.join(", ");
  return {
    type: "command" as const,
    level: outcome.ok ? ("info" as const) : ("warn" as const),
    ...(entityIds.length === 1 ? { entityId: entityIds[0] } : {}),
    message: outcome.ok
      ? `${outcome.action} ${target}: ok in ${outcome.durationMs} ms`
      : `${outcome.action} ${target} failed (${outcome.code ?? "error"}): ${outcome.message ?? "no details"}`,
    data: {
      action: outcome.action,
      entityIds,
      ok: outcome.ok,
      durationMs: outcome.durationMs,
      ...(outcome.ok ? {} : { code: outcome.code ?? "error", error: outcome.message ?? null }),
    },
  };
}
