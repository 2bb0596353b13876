/**
 * Covers and valves. Feature gates follow HA's registrations (cover/__init__.py, valve/__init__.py), e.g.
 * `set_cover_position` requires SET_POSITION and `toggle` requires OPEN|CLOSE. Tilt moves at once.
 */
import { required, v } from "../protocol/schema.ts";
import { isMoving, moveTo, positionNow, reportsPosition, stopMoving } from "./motion.ts";
import { type EntityCall, entityService, featuresOf, type ServiceRuntime, type ServiceSpec, writeWith } from "./types.ts";

/** `CoverEntityFeature`. */
export const CoverFeature = {
  OPEN: 1,
  CLOSE: 2,
  SET_POSITION: 4,
  STOP: 8,
  OPEN_TILT: 16,
  CLOSE_TILT: 32,
  STOP_TILT: 64,
  SET_TILT_POSITION: 128,
} as const;

/** `ValveEntityFeature`. */
export const ValveFeature = { OPEN: 1, CLOSE: 2, SET_POSITION: 4, STOP: 8 } as const;

const position = { position: required(v.int({ min: 0, max: 100 })) };

/** Open and close go to the end stops; for valves HA turns them into set_valve_position when supported. */
const open = (call: EntityCall, rt: ServiceRuntime) => moveTo(call, rt, 100);
const close = (call: EntityCall, rt: ServiceRuntime) => moveTo(call, rt, 0);

/** HA's `CoverEntity._get_toggle_function`. */
function toggleCover(call: EntityCall, rt: ServiceRuntime): void {
  const moving = isMoving(call, rt) || call.state.state === "opening" || call.state.state === "closing";
  const now = positionNow(call, rt);
  if (featuresOf(call.state) & CoverFeature.STOP && moving) stopMoving(call, rt);
  else if (call.state.state === "closed" || call.state.state === "closing") open(call, rt);
  else if ((reportsPosition(call) && now === 100) || call.state.state === "opening") close(call, rt);
  // Part-way and not moving: the opposite of the last direction, which HA starts as "open".
  else if (rt.memory(call.entityId).lastDirection !== "close") close(call, rt);
  else open(call, rt);
}

function setTilt(call: EntityCall, rt: ServiceRuntime, tilt: number): void {
  writeWith(rt, call, call.state.state, { current_tilt_position: tilt });
}

function tiltOf(call: EntityCall): number {
  const tilt = call.state.attributes.current_tilt_position;
  return typeof tilt === "number" ? tilt : 0;
}

/** HA's `ValveEntity.async_toggle`. */
function toggleValve(call: EntityCall, rt: ServiceRuntime): void {
  const moving = isMoving(call, rt) || call.state.state === "opening" || call.state.state === "closing";
  if (featuresOf(call.state) & ValveFeature.STOP && moving) stopMoving(call, rt);
  else if (call.state.state === "closed") open(call, rt);
  else close(call, rt);
}

export function coverServices(): ServiceSpec[] {
  const F = CoverFeature;
  return [
    entityService("cover", "open_cover", {}, open, { requiredFeatures: [F.OPEN] }),
    entityService("cover", "close_cover", {}, close, { requiredFeatures: [F.CLOSE] }),
    entityService("cover", "set_cover_position", position, (call, rt) => moveTo(call, rt, call.data.position as number), {
      requiredFeatures: [F.SET_POSITION],
    }),
    entityService("cover", "stop_cover", {}, stopMoving, { requiredFeatures: [F.STOP] }),
    entityService("cover", "toggle", {}, toggleCover, { requiredFeatures: [F.OPEN | F.CLOSE] }),
    entityService("cover", "open_cover_tilt", {}, (call, rt) => setTilt(call, rt, 100), { requiredFeatures: [F.OPEN_TILT] }),
    entityService("cover", "close_cover_tilt", {}, (call, rt) => setTilt(call, rt, 0), { requiredFeatures: [F.CLOSE_TILT] }),
    // Tilt moves complete at once in the simulation, so there is never a tilt motion to stop.
    entityService("cover", "stop_cover_tilt", {}, () => undefined, { requiredFeatures: [F.STOP_TILT] }),
    entityService(
      "cover",
      "set_cover_tilt_position",
      { tilt_position: required(v.int({ min: 0, max: 100 })) },
      (call, rt) => setTilt(call, rt, call.data.tilt_position as number),
      { requiredFeatures: [F.SET_TILT_POSITION] },
    ),
    entityService("cover", "toggle_cover_tilt", {}, (call, rt) => setTilt(call, rt, tiltOf(call) === 0 ? 100 : 0), {
      requiredFeatures: [F.OPEN_TILT | F.CLOSE_TILT],
    }),
  ];
}

export function valveServices(): ServiceSpec[] {
  const F = ValveFeature;
  return [
    entityService("valve", "open_valve", {}, open, { requiredFeatures: [F.OPEN] }),
    entityService("valve", "close_valve", {}, close, { requiredFeatures: [F.CLOSE] }),
    entityService("valve", "set_valve_position", position, (call, rt) => moveTo(call, rt, call.data.position as number), {
      requiredFeatures: [F.SET_POSITION],
    }),
    entityService("valve", "stop_valve", {}, stopMoving, { requiredFeatures: [F.STOP] }),
    entityService("valve", "toggle", {}, toggleValve, { requiredFeatures: [F.OPEN | F.CLOSE] }),
  ];
}
