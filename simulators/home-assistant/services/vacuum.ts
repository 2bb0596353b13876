/**
 * Vacuums after HA's vacuum/__init__.py (`StateVacuumEntity`, states cleaning/docked/returning/paused/idle/error):
 * returning to the dock takes the motion time. Services are gated on `VacuumEntityFeature`.
 */
import { serviceValidationError } from "../protocol/errors.ts";
import { required, v } from "../protocol/schema.ts";
import { type EntityCall, entityService, type ServiceRuntime, type ServiceSpec, writeWith } from "./types.ts";

/** `VacuumEntityFeature`. */
export const VacuumFeature = {
  TURN_ON: 1,
  TURN_OFF: 2,
  PAUSE: 4,
  STOP: 8,
  RETURN_HOME: 16,
  FAN_SPEED: 32,
  BATTERY: 64,
  SEND_COMMAND: 256,
  LOCATE: 512,
  CLEAN_SPOT: 1024,
  MAP: 2048,
  STATE: 4096,
  START: 8192,
} as const;

function go(state: string) {
  return (call: EntityCall, rt: ServiceRuntime) => {
    rt.cancel(call.entityId);
    writeWith(rt, call, state);
  };
}

function returnToBase(call: EntityCall, rt: ServiceRuntime): void {
  rt.cancel(call.entityId);
  if (call.state.state === "docked") return;
  if (rt.motionMs === 0) {
    writeWith(rt, call, "docked");
    return;
  }
  writeWith(rt, call, "returning");
  rt.schedule(call.entityId, rt.motionMs, () => {
    const state = rt.states.get(call.entityId);
    if (state?.state === "returning") rt.write(call.entityId, "docked", { ...state.attributes }, call.context);
  });
}

export function vacuumServices(): ServiceSpec[] {
  const F = VacuumFeature;
  return [
    entityService("vacuum", "start", {}, go("cleaning"), { requiredFeatures: [F.START] }),
    entityService("vacuum", "pause", {}, go("paused"), { requiredFeatures: [F.PAUSE] }),
    entityService("vacuum", "stop", {}, go("idle"), { requiredFeatures: [F.STOP] }),
    entityService("vacuum", "return_to_base", {}, returnToBase, { requiredFeatures: [F.RETURN_HOME] }),
    entityService("vacuum", "clean_spot", {}, go("cleaning"), { requiredFeatures: [F.CLEAN_SPOT] }),
    // Locating makes the robot beep; nothing in its state changes.
    entityService("vacuum", "locate", {}, () => undefined, { requiredFeatures: [F.LOCATE] }),
    entityService("vacuum", "send_command", { command: required(v.string()), params: v.object() }, () => undefined, {
      requiredFeatures: [F.SEND_COMMAND],
    }),
    entityService(
      "vacuum",
      "set_fan_speed",
      { fan_speed: required(v.string()) },
      (call, rt) => {
        const speed = call.data.fan_speed as string;
        const speeds = Array.isArray(call.state.attributes.fan_speed_list)
          ? call.state.attributes.fan_speed_list.map(String)
          : [];
        // Core passes the speed on; integrations such as Roborock reject unknown ones.
        if (!speeds.includes(speed))
          throw serviceValidationError(
            `Fan speed ${speed} is not supported`,
            "invalid_fan_speed",
            { fan_speed: speed },
            "vacuum",
          );
        writeWith(rt, call, call.state.state, { fan_speed: speed });
      },
      { requiredFeatures: [F.FAN_SPEED] },
    ),
  ];
}
