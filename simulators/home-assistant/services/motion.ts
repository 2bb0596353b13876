/**
 * Travel of covers and valves: a move writes "opening"/"closing" at once (the call returns then, as HA's service
 * returns once the command is sent), and the final "open"/"closed" with the new position after the motion time.
 * Stopping mid-way leaves the position interpolated from the elapsed time.
 */
import type { EntityCall, ServiceRuntime } from "./types.ts";

interface Motion {
  from: number;
  to: number;
  startedAt: number;
  seconds: number;
}

/** Whether the entity reports a position (`current_position` in its attributes), as HA includes it only then. */
export function reportsPosition(call: Pick<EntityCall, "state">): boolean {
  return typeof call.state.attributes.current_position === "number";
}

function currentMotion(rt: ServiceRuntime, entityId: string): Motion | undefined {
  return rt.memory(entityId).motion as Motion | undefined;
}

/** Where the entity is now, 0 (closed) to 100 (open); mid-travel for an entity that is moving. */
export function positionNow(call: Pick<EntityCall, "entityId" | "state">, rt: ServiceRuntime): number {
  const motion = currentMotion(rt, call.entityId);
  if (motion) {
    const fraction = Math.min(1, Math.max(0, (rt.clock.now() - motion.startedAt) / motion.seconds));
    return Math.round(motion.from + (motion.to - motion.from) * fraction);
  }
  if (reportsPosition(call)) return call.state.attributes.current_position as number;
  return call.state.state === "closed" ? 0 : 100;
}

export function isMoving(call: Pick<EntityCall, "entityId">, rt: ServiceRuntime): boolean {
  return currentMotion(rt, call.entityId) !== undefined;
}

function settle(entityId: string, rt: ServiceRuntime, position: number, context: EntityCall["context"]): void {
  const state = rt.states.get(entityId);
  if (!state) return;
  const attributes = { ...state.attributes };
  if (typeof attributes.current_position === "number") attributes.current_position = position;
  rt.write(entityId, position > 0 ? "open" : "closed", attributes, context);
}

/** Moves to `target` (0–100); entities without a position only ever go to 0 or 100. */
export function moveTo(call: EntityCall, rt: ServiceRuntime, target: number): void {
  const from = positionNow(call, rt);
  rt.cancel(call.entityId);
  const memory = rt.memory(call.entityId);
  memory.motion = undefined;
  if (from === target && call.state.state !== "opening" && call.state.state !== "closing") return;
  memory.lastDirection = target > from ? "open" : "close";
  if (rt.motionMs === 0 || from === target) {
    settle(call.entityId, rt, target, call.context);
    return;
  }
  const attributes = { ...call.state.attributes };
  if (typeof attributes.current_position === "number") attributes.current_position = from;
  rt.write(call.entityId, target > from ? "opening" : "closing", attributes, call.context);
  memory.motion = { from, to: target, startedAt: rt.clock.now(), seconds: rt.motionMs / 1000 } satisfies Motion;
  rt.schedule(call.entityId, rt.motionMs, () => {
    memory.motion = undefined;
    settle(call.entityId, rt, target, call.context);
  });
}

/** Stops a moving entity where it is; a stopped entity without a position that is not closed is "open". */
export function stopMoving(call: EntityCall, rt: ServiceRuntime): void {
  if (!isMoving(call, rt)) return;
  const position = positionNow(call, rt);
  rt.cancel(call.entityId);
  rt.memory(call.entityId).motion = undefined;
  settle(call.entityId, rt, reportsPosition(call) ? position : Math.max(position, 1), call.context);
}
