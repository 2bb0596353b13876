/**
 * Scripts: `script.turn_on` starts a run and returns once it started (state "on", `current` 1, then "off" when the
 * run ends after the motion time); calling `script.<object_id>` directly waits for the run to finish and may
 * return a response. Mode "single" ignores a start while running, as HA does (it logs "Already running").
 */
import { v } from "../protocol/schema.ts";
import { type EntityCall, entityService, nowIso, type ServiceRuntime, type ServiceSpec, writeWith } from "./types.ts";

function startRun(call: Pick<EntityCall, "entityId" | "state" | "context">, rt: ServiceRuntime): boolean {
  if (call.state.state === "on") {
    rt.log?.warn(`${call.entityId}: Already running`);
    return false;
  }
  writeWith(rt, call, "on", { last_triggered: nowIso(rt), current: 1 });
  return true;
}

function endRun(entityId: string, rt: ServiceRuntime, context: EntityCall["context"]): void {
  const state = rt.states.get(entityId);
  if (state?.state === "on") rt.write(entityId, "off", { ...state.attributes, current: 0 }, context);
}

function turnOn(call: EntityCall, rt: ServiceRuntime): void {
  if (!startRun(call, rt)) return;
  if (rt.motionMs === 0) endRun(call.entityId, rt, call.context);
  else rt.schedule(call.entityId, rt.motionMs, () => endRun(call.entityId, rt, call.context));
}

function turnOff(call: EntityCall, rt: ServiceRuntime): void {
  rt.cancel(call.entityId);
  endRun(call.entityId, rt, call.context);
}

export function scriptServices(): ServiceSpec[] {
  return [
    entityService("script", "turn_on", { variables: v.object(), wait: v.bool() }, turnOn),
    entityService("script", "turn_off", {}, turnOff),
    entityService("script", "toggle", {}, (call, rt) => (call.state.state === "on" ? turnOff(call, rt) : turnOn(call, rt))),
  ];
}

/** `script.<object_id>`: the per-script service HA registers, blocking until the run ends. */
export function directScriptService(rt: ServiceRuntime, service: string): ServiceSpec | undefined {
  const entityId = `script.${service}`;
  if (["turn_on", "turn_off", "toggle", "reload"].includes(service) || !rt.states.get(entityId)) return undefined;
  return {
    domain: "script",
    service,
    fields: {},
    allowExtra: true,
    response: "optional",
    async handle(call) {
      const state = rt.states.get(entityId);
      if (!state || state.state === "unavailable") return {};
      if (!startRun({ entityId, state, context: call.context }, rt)) return {};
      await rt.sleep(rt.motionMs);
      endRun(entityId, rt, call.context);
      return {};
    },
  };
}
