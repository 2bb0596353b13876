/**
 * The simple on/off and "press" domains: switch, input_boolean, button, scene and automation. None of their
 * services require a supported feature in HA.
 */
import { v } from "../protocol/schema.ts";
import { type EntityCall, entityService, nowIso, type ServiceRuntime, type ServiceSpec, writeWith } from "./types.ts";

const on = (call: EntityCall, rt: ServiceRuntime) => writeWith(rt, call, "on");
const off = (call: EntityCall, rt: ServiceRuntime) => writeWith(rt, call, "off");
const toggle = (call: EntityCall, rt: ServiceRuntime) => writeWith(rt, call, call.state.state === "on" ? "off" : "on");

function onOffServices(domain: string): ServiceSpec[] {
  return [
    entityService(domain, "turn_on", {}, on),
    entityService(domain, "turn_off", {}, off),
    entityService(domain, "toggle", {}, toggle),
  ];
}

export function toggleServices(): ServiceSpec[] {
  return [
    ...onOffServices("switch"),
    ...onOffServices("input_boolean"),
    // A button's state is the time it was last pressed (ButtonEntity._async_press_action).
    entityService("button", "press", {}, (call, rt) => writeWith(rt, call, nowIso(rt))),
    // A scene's state is the time it was last activated. Applying the scene's member states is the scene
    // integration's business and is not simulated; the call is recorded for tests to assert on.
    entityService("scene", "turn_on", { transition: v.float({ min: 0, max: 6553 }) }, (call, rt) =>
      writeWith(rt, call, nowIso(rt)),
    ),
    entityService("automation", "turn_on", {}, on),
    entityService("automation", "turn_off", { stop_actions: v.bool() }, off),
    entityService("automation", "toggle", {}, toggle),
    // Triggering runs the actions even when the automation is off; only last_triggered shows it.
    entityService("automation", "trigger", { skip_condition: v.bool(), variables: v.object() }, (call, rt) =>
      writeWith(rt, call, call.state.state, { last_triggered: nowIso(rt) }),
    ),
  ];
}
