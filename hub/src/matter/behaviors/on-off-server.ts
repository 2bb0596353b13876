/**
 * OnOff → HA. One file serves every domain with an OnOff cluster; {@link onOffPlan} decides per domain what "on"
 * and "off" mean in HA (turn_on, press, trigger, unmute…). A command is forwarded at once as one HA call (merged with
 * a level or colour command for the same light arriving in the same event-loop turn), and the attribute flips
 * optimistically inside the command's transaction, so a refusal by HA rolls it back.
 */
import { OnOffServer } from "@matter/main/behaviors/on-off";
import { OnOff } from "@matter/main/clusters/on-off";
import type { HassEntity } from "../../home-assistant/types.ts";
import { speakerCapabilities } from "../model/capabilities.ts";
import { runMerging, sendThenCommit } from "./command-merge.ts";
import { type EntityBinding, entityOf, unsupportedCommand } from "./ha-entity-behavior.ts";

/** How long a momentary plug (button, scene, automation) shows "on" after a press. */
export const MOMENTARY_MS = 1000;

/** Domains without an HA on/off state: a press, shown as on for {@link MOMENTARY_MS}. */
const MOMENTARY: Record<string, string> = {
  button: "button.press",
  input_button: "input_button.press",
  scene: "scene.turn_on",
  automation: "automation.trigger",
};

/** What an OnOff command does in HA. */
export type OnOffPlan =
  | { action: string; data?: Record<string, unknown>; momentary?: boolean; usesStaged?: boolean }
  | { action: undefined; momentary?: boolean }
  | { readOnly: string };

/** The HA call for switching an entity of `domain` on or off (pure; exported for tests). */
export function onOffPlan(
  domain: string,
  on: boolean,
  entity: HassEntity | undefined,
  staged: Record<string, unknown>,
): OnOffPlan {
  const momentary = MOMENTARY[domain];
  if (momentary) return on ? { action: momentary, momentary: true } : { action: undefined };
  switch (domain) {
    case "light":
      if (!on) return { action: "light.turn_off" };
      // No brightness unless one was staged while off: HA restores the last brightness itself (complaint #7).
      return Object.keys(staged).length > 0
        ? { action: "light.turn_on", data: { ...staged }, usesStaged: true }
        : { action: "light.turn_on" };
    case "media_player":
      // Matter Speaker (Device Library §10.4): OnOff is mute, on = sound. Power only when HA cannot mute.
      if (speakerCapabilities(entity).mute) return { action: "media_player.volume_mute", data: { is_volume_muted: !on } };
      return { action: on ? "media_player.turn_on" : "media_player.turn_off" };
    case "binary_sensor":
    case "sensor":
      return { readOnly: `${domain} entities are read-only` };
    case "switch":
    case "input_boolean":
    case "siren":
    case "remote":
    case "script":
    case "fan":
    case "humidifier":
    case "climate":
    case "vacuum":
      return { action: `${domain}.${on ? "turn_on" : "turn_off"}` };
    default:
      return { action: on ? "homeassistant.turn_on" : "homeassistant.turn_off" };
  }
}

/**
 * Endpoints switched on within a transaction (one command). OnWithRecallGlobalScene recalls the global scene, whose
 * OnOff value switches on through on(), and then calls on() once more (Matter 1.4 §1.5.7.5 wants the device on
 * afterwards); for HA a second call would be a button pressed twice, a script started twice.
 */
const switchedOn = new WeakMap<object, WeakSet<object>>();

/** OnOff whose commands call HA; the Lighting feature's timers and scene bookkeeping stay matter.js's. */
export class HaOnOffServer extends OnOffServer {
  override on() {
    const transaction = this.context.transaction;
    const endpoints = switchedOn.get(transaction) ?? new WeakSet<object>();
    // Already switched on earlier in this command: only matter.js's state is left to set.
    if (endpoints.has(this.endpoint)) return super.on();
    switchedOn.set(transaction, endpoints.add(this.endpoint));
    return runMerging(this, OnOff.Cluster.id, 0x01, () => this.#switch(true));
  }

  override off() {
    return runMerging(this, OnOff.Cluster.id, 0x00, () => this.#switch(false));
  }

  override toggle() {
    return runMerging(this, OnOff.Cluster.id, 0x02, () => this.#switch(!this.state.onOff));
  }

  async #switch(on: boolean) {
    const ha = entityOf(this);
    const plan = onOffPlan(ha.domain, on, ha.entity, ha.binding.staged);
    if ("readOnly" in plan) return unsupportedCommand(plan.readOnly);
    const sent = plan.action !== undefined ? ha.call(plan.action, "data" in plan ? plan.data : undefined) : undefined;
    await sendThenCommit(sent, [this], () => (on ? super.on() : super.off()));
    if ("usesStaged" in plan && plan.usesStaged) ha.binding.staged = {};
    if (plan.momentary) scheduleMomentaryOff(this.endpoint, ha.binding);
  }
}

/** Turns a momentary plug back off after {@link MOMENTARY_MS}; a new press restarts the wait. */
function scheduleMomentaryOff(endpoint: HaOnOffServer["endpoint"], binding: EntityBinding): void {
  if (binding.momentaryTimer) clearTimeout(binding.momentaryTimer);
  binding.momentaryTimer = setTimeout(() => {
    binding.momentaryTimer = undefined;
    // The endpoint may be gone by now (entity removed, bridge stopped); nothing to reset then.
    endpoint.setStateOf("onOff", { onOff: false }).catch(() => undefined);
  }, MOMENTARY_MS);
  binding.momentaryTimer.unref?.();
}
