/**
 * Locks and alarm panels. Codes: HA core checks a given lock code against `code_format` (lock/__init__.py
 * `add_default_code`) and refuses arming without a code when `code_arm_required` (alarm_control_panel
 * `check_code_arm_required`); whether the code is right is the integration's call, simulated here like the
 * manual alarm and template lock do, against the code the simulator holds for the entity.
 */

import { serviceValidationError } from "../protocol/errors.ts";
import { v } from "../protocol/schema.ts";
import { type EntityCall, entityService, type ServiceRuntime, type ServiceSpec, writeWith } from "./types.ts";

/** `LockEntityFeature`. */
export const LockFeature = { OPEN: 1 } as const;

/** `AlarmControlPanelEntityFeature`. */
export const AlarmFeature = {
  ARM_HOME: 1,
  ARM_AWAY: 2,
  ARM_NIGHT: 4,
  TRIGGER: 8,
  ARM_CUSTOM_BYPASS: 16,
  ARM_VACATION: 32,
} as const;

const codeField = { code: v.string() };

function codeFormat(call: EntityCall): string | null {
  const format = call.state.attributes.code_format;
  return typeof format === "string" && format !== "" ? format : null;
}

function checkLockCode(call: EntityCall, rt: ServiceRuntime): void {
  const format = codeFormat(call);
  if (format === null) return;
  const code = call.data.code as string | undefined;
  // Python's re.match anchors at the start only: a sticky regex does the same.
  if (code !== undefined && !new RegExp(format, "y").test(code)) {
    throw serviceValidationError(
      `The code for ${call.entityId} doesn't match pattern ${format}.`,
      "add_default_code",
      {
        entity_id: call.entityId,
        code_format: format,
      },
      "lock",
    );
  }
  if (code !== rt.codeFor(call.entityId)) {
    throw serviceValidationError(`Invalid code for ${call.entityId}`, "invalid_code", { entity_id: call.entityId }, "lock");
  }
}

/** A lock move: the transitional state at once, the final one after the motion time. */
function lockMove(transitional: string, final: string) {
  return (call: EntityCall, rt: ServiceRuntime) => {
    checkLockCode(call, rt);
    rt.cancel(call.entityId);
    if (rt.motionMs === 0) return writeWith(rt, call, final);
    writeWith(rt, call, transitional);
    rt.schedule(call.entityId, rt.motionMs, () => {
      const state = rt.states.get(call.entityId);
      if (state) rt.write(call.entityId, final, { ...state.attributes }, call.context);
    });
  };
}

export function lockServices(): ServiceSpec[] {
  return [
    entityService("lock", "lock", codeField, lockMove("locking", "locked")),
    entityService("lock", "unlock", codeField, lockMove("unlocking", "unlocked")),
    entityService("lock", "open", codeField, lockMove("opening", "open"), { requiredFeatures: [LockFeature.OPEN] }),
  ];
}

function checkAlarmCode(call: EntityCall, rt: ServiceRuntime, arming: boolean): void {
  if (codeFormat(call) === null) return;
  const code = call.data.code as string | undefined;
  if (arming) {
    if (call.state.attributes.code_arm_required === false) return;
    if (!code) {
      throw serviceValidationError(
        `Arming requires a code but none was given for ${call.entityId}.`,
        "code_arm_required",
        { entity_id: call.entityId },
        "alarm_control_panel",
      );
    }
  }
  if (code !== rt.codeFor(call.entityId)) {
    throw serviceValidationError("Invalid alarm code provided", "invalid_code", undefined, "manual");
  }
}

function arm(target: string, viaArming: boolean) {
  return (call: EntityCall, rt: ServiceRuntime) => {
    checkAlarmCode(call, rt, true);
    rt.cancel(call.entityId);
    if (!viaArming || rt.motionMs === 0) return writeWith(rt, call, target);
    writeWith(rt, call, "arming");
    rt.schedule(call.entityId, rt.motionMs, () => {
      const state = rt.states.get(call.entityId);
      if (state?.state === "arming") rt.write(call.entityId, target, { ...state.attributes }, call.context);
    });
  };
}

export function alarmServices(): ServiceSpec[] {
  const F = AlarmFeature;
  const service = (name: string, handle: (call: EntityCall, rt: ServiceRuntime) => void, feature?: number) =>
    entityService("alarm_control_panel", name, codeField, handle, feature ? { requiredFeatures: [feature] } : {});
  return [
    service("alarm_disarm", (call, rt) => {
      checkAlarmCode(call, rt, false);
      rt.cancel(call.entityId);
      writeWith(rt, call, "disarmed");
    }),
    service("alarm_arm_home", arm("armed_home", false), F.ARM_HOME),
    // Leaving the house gets an exit delay, as alarm panels give for away and vacation.
    service("alarm_arm_away", arm("armed_away", true), F.ARM_AWAY),
    service("alarm_arm_night", arm("armed_night", false), F.ARM_NIGHT),
    service("alarm_arm_vacation", arm("armed_vacation", true), F.ARM_VACATION),
    service("alarm_arm_custom_bypass", arm("armed_custom_bypass", false), F.ARM_CUSTOM_BYPASS),
    service(
      "alarm_trigger",
      (call, rt) => {
        rt.cancel(call.entityId);
        writeWith(rt, call, "triggered");
      },
      F.TRIGGER,
    ),
  ];
}
