/**
 * The simple on/off and "press" domains: switch, input_boolean, siren, remote, button, input_button, scene and
 * automation. Only the siren's services require supported features in HA (SirenEntityFeature TURN_ON/TURN_OFF).
 */
import { type Fields, v } from "../protocol/schema.ts";
import { type EntityCall, entityService, nowIso, type ServiceRuntime, type ServiceSpec, writeWith } from "./types.ts";

const on = (call: EntityCall, rt: ServiceRuntime) => writeWith(rt, call, "on");
const off = (call: EntityCall, rt: ServiceRuntime) => writeWith(rt, call, "off");
const toggle = (call: EntityCall, rt: ServiceRuntime) => writeWith(rt, call, call.state.state === "on" ? "off" : "on");

/** SirenEntityFeature (homeassistant/components/siren/const.py). */
const SIREN_TURN_ON = 1;
const SIREN_TURN_OFF = 2;

function onOffServices(
  domain: string,
  options: { onFields?: Fields; features?: { on: number; off: number } } = {},
): ServiceSpec[] {
  const { on: onFeature, off: offFeature } = options.features ?? { on: 0, off: 0 };
  const needs = (...features: number[]) => {
    const set = features.reduce((all, feature) => all | feature, 0);
    return set === 0 ? {} : { requiredFeatures: [set] };
  };
  return [
    entityService(domain, "turn_on", options.onFields ?? {}, on, needs(onFeature)),
    entityService(domain, "turn_off", {}, off, needs(offFeature)),
    entityService(domain, "toggle", {}, toggle, needs(onFeature, offFeature)),
  ];
}

export function toggleServices(): ServiceSpec[] {
  return [
    ...onOffServices("switch"),
    ...onOffServices("input_boolean"),
    // Sirens and remotes are switched; their extra turn_on options (tone, activity…) are accepted, not simulated.
    ...onOffServices("siren", {
      onFields: { tone: v.string(), volume_level: v.float({ min: 0, max: 1 }), duration: v.int({ min: 0 }) },
      features: { on: SIREN_TURN_ON, off: SIREN_TURN_OFF },
    }),
    ...onOffServices("remote", { onFields: { activity: v.string() } }),
    // A button's state is the time it was last pressed (ButtonEntity._async_press_action); input_button likewise.
    entityService("button", "press", {}, (call, rt) => writeWith(rt, call, nowIso(rt))),
    entityService("input_button", "press", {}, (call, rt) => writeWith(rt, call, nowIso(rt))),
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
