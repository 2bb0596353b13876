/**
 * Fans after HA's fan/__init__.py: feature gates (TURN_ON/TURN_OFF since 2024.8), preset validation
 * (`not_valid_preset_mode`), percentage 0 meaning off, and speeds quantised to the fan's `percentage_step` as
 * integrations do with `percentage_to_ranged_value` / `ranged_value_to_percentage`.
 */
import { serviceValidationError } from "../protocol/errors.ts";
import { required, v } from "../protocol/schema.ts";
import { type EntityCall, entityService, type ServiceRuntime, type ServiceSpec, writeWith } from "./types.ts";

/** `FanEntityFeature`. */
export const FanFeature = { SET_SPEED: 1, OSCILLATE: 2, DIRECTION: 4, PRESET_MODE: 8, TURN_OFF: 16, TURN_ON: 32 } as const;

function speedCount(call: EntityCall): number {
  const step = call.state.attributes.percentage_step;
  return typeof step === "number" && step > 0 ? Math.round(100 / step) : 100;
}

/** The percentage the fan ends up at for a requested one: the speed step at or above it. */
export function quantize(percentage: number, count: number): number {
  if (percentage <= 0) return 0;
  const speed = Math.ceil((count * percentage) / 100);
  return Math.trunc((speed * 100) / count);
}

function checkPreset(call: EntityCall, preset: string): void {
  const presets = Array.isArray(call.state.attributes.preset_modes) ? call.state.attributes.preset_modes.map(String) : [];
  if (!presets.includes(preset)) {
    throw serviceValidationError(
      `Preset mode ${preset} is not valid, valid preset modes are: ${presets.join(", ")}.`,
      "not_valid_preset_mode",
      { preset_mode: preset, preset_modes: presets.join(", ") },
      "fan",
    );
  }
}

function off(call: EntityCall, rt: ServiceRuntime): void {
  const changes: Record<string, unknown> = {};
  if ("percentage" in call.state.attributes) changes.percentage = 0;
  if ("preset_mode" in call.state.attributes) changes.preset_mode = null;
  writeWith(rt, call, "off", changes);
}

function setSpeed(call: EntityCall, rt: ServiceRuntime, percentage: number): void {
  if (percentage === 0) {
    off(call, rt);
    return;
  }
  const value = quantize(percentage, speedCount(call));
  rt.memory(call.entityId).percentage = value;
  const changes: Record<string, unknown> = { percentage: value };
  if ("preset_mode" in call.state.attributes) changes.preset_mode = null;
  writeWith(rt, call, "on", changes);
}

function turnOn(call: EntityCall, rt: ServiceRuntime): void {
  const { percentage, preset_mode: preset } = call.data as { percentage?: number; preset_mode?: string };
  if (preset !== undefined) {
    checkPreset(call, preset);
    writeWith(rt, call, "on", { preset_mode: preset });
  } else if (percentage !== undefined) {
    setSpeed(call, rt, percentage);
  } else if (call.state.state !== "on") {
    restoreSpeed(call, rt);
  }
}

function restoreSpeed(call: EntityCall, rt: ServiceRuntime): void {
  const remembered = rt.memory(call.entityId).percentage;
  const changes: Record<string, unknown> = {};
  if ("percentage" in call.state.attributes) changes.percentage = typeof remembered === "number" ? remembered : 100;
  writeWith(rt, call, "on", changes);
}

/** HA's `_async_adjust_speed`: a given step is added as is, else one speed up or down. */
function adjust(direction: 1 | -1) {
  return (call: EntityCall, rt: ServiceRuntime) => {
    const current =
      call.state.state === "on" && typeof call.state.attributes.percentage === "number" ? call.state.attributes.percentage : 0;
    const step = call.data.percentage_step as number | undefined;
    const count = speedCount(call);
    const next =
      step !== undefined
        ? current + step * direction
        : Math.trunc(((Math.ceil((count * current) / 100) + direction) * 100) / count);
    setSpeed(call, rt, Math.max(0, Math.min(100, next)));
  };
}

export function fanServices(): ServiceSpec[] {
  const F = FanFeature;
  const percentage = v.int({ min: 0, max: 100 });
  return [
    entityService("fan", "turn_on", { percentage, preset_mode: v.string() }, turnOn, { requiredFeatures: [F.TURN_ON] }),
    entityService("fan", "turn_off", {}, off, { requiredFeatures: [F.TURN_OFF] }),
    entityService("fan", "toggle", {}, (call, rt) => (call.state.state === "on" ? off(call, rt) : turnOn(call, rt)), {
      requiredFeatures: [F.TURN_OFF | F.TURN_ON],
    }),
    entityService(
      "fan",
      "set_percentage",
      { percentage: required(percentage) },
      (call, rt) => setSpeed(call, rt, call.data.percentage as number),
      {
        requiredFeatures: [F.SET_SPEED],
      },
    ),
    entityService("fan", "increase_speed", { percentage_step: percentage }, adjust(1), { requiredFeatures: [F.SET_SPEED] }),
    entityService("fan", "decrease_speed", { percentage_step: percentage }, adjust(-1), { requiredFeatures: [F.SET_SPEED] }),
    entityService(
      "fan",
      "set_preset_mode",
      { preset_mode: required(v.string()) },
      (call, rt) => {
        checkPreset(call, call.data.preset_mode as string);
        writeWith(rt, call, "on", { preset_mode: call.data.preset_mode });
      },
      { requiredFeatures: [F.PRESET_MODE] },
    ),
    entityService(
      "fan",
      "oscillate",
      { oscillating: required(v.bool()) },
      (call, rt) => writeWith(rt, call, call.state.state, { oscillating: call.data.oscillating }),
      { requiredFeatures: [F.OSCILLATE] },
    ),
    entityService(
      "fan",
      "set_direction",
      { direction: required(v.oneOf(["forward", "reverse"])) },
      (call, rt) => writeWith(rt, call, call.state.state, { direction: call.data.direction }),
      { requiredFeatures: [F.DIRECTION] },
    ),
  ];
}
