/**
 * Window Covering (0x0202). Lift and/or tilt with position awareness always on: covers that only know
 * open/closed report 0 % (open) or 100 % (closed) from their state, so controllers still show where they are —
 * with the right polarity, which t0 got wrong for non-positional covers (docs/research-notes.md "Cover polarity").
 * Type and EndProductType follow the HA device class (Matter 1.3 §5.3.5.2/§5.3.5.21).
 */
import { WindowCovering } from "@matter/main/clusters/window-covering";
import { WindowCoveringDevice } from "@matter/main/devices/window-covering";
import { HaWindowCoveringServer } from "../../behaviors/window-covering-server.ts";
import { type CoverCapabilities, coverCapabilities } from "../../model/capabilities.ts";
import { haPositionToMatter, MATTER_CLOSED, MATTER_OPEN, positionFromCoverState } from "../../model/convert/cover.ts";
import { deviceClass, numberAttr } from "../../model/ha-state.ts";
import type { DeviceKind, KindContext, StatePatch } from "./kind.ts";

const { Feature, MovementStatus, WindowCoveringType: Type, EndProductType: Product } = WindowCovering;

function features(caps: CoverCapabilities) {
  const list: WindowCovering.Feature[] = [];
  if (caps.lift) list.push(Feature.Lift, Feature.PositionAwareLift);
  if (caps.tilt) list.push(Feature.Tilt, Feature.PositionAwareTilt);
  return list;
}

/** Matter Type / EndProductType for an HA cover device class. */
export function coverTypes(cls: string | undefined, caps: CoverCapabilities) {
  if (caps.tilt && !caps.lift) return { type: Type.TiltBlindTiltOnly, endProductType: Product.TiltOnlyInteriorBlind };
  if (caps.tilt) return { type: Type.TiltBlindLift, endProductType: Product.InteriorVenetianBlind };
  switch (cls) {
    case "curtain":
      return { type: Type.Drapery, endProductType: Product.CentralCurtain };
    case "awning":
      return { type: Type.Awning, endProductType: Product.AwningTerracePatio };
    case "shutter":
      return { type: Type.Shutter, endProductType: Product.RollerShutter };
    case "blind":
      return { type: Type.Rollershade, endProductType: Product.InteriorBlind };
    case "shade":
      return { type: Type.Rollershade, endProductType: Product.RollerShade };
    case "garage":
    case "gate":
    case "door":
    case "damper":
    case "window":
      return { type: Type.Unknown, endProductType: Product.Unknown };
    default:
      return { type: Type.Rollershade, endProductType: Product.RollerShade };
  }
}

/** Current and target position of one axis; undefined keeps the last known value. */
function axis(position: number | undefined, state: string, moving: boolean) {
  const current = position !== undefined ? haPositionToMatter(position) : positionFromCoverState(state);
  let target = current;
  if (moving && state === "opening") target = MATTER_OPEN;
  if (moving && state === "closing") target = MATTER_CLOSED;
  return { current, target };
}

function project(context: KindContext): StatePatch {
  const entity = context.snapshot.state;
  const state = entity?.state ?? "unknown";
  const caps = coverCapabilities(entity);
  const values: Record<string, unknown> = {};
  const movement =
    state === "opening" ? MovementStatus.Opening : state === "closing" ? MovementStatus.Closing : MovementStatus.Stopped;
  if (caps.lift) {
    const lift = axis(numberAttr(entity, "current_position"), state, true);
    values.currentPositionLiftPercent100ths = lift.current;
    values.targetPositionLiftPercent100ths = lift.target;
  }
  if (caps.tilt) {
    // Opening/closing is about the lift when there is one; the tilt then just reports where it is.
    const tilt = axis(numberAttr(entity, "current_tilt_position"), caps.lift ? "" : state, !caps.lift);
    values.currentPositionTiltPercent100ths = tilt.current;
    values.targetPositionTiltPercent100ths = tilt.target;
  }
  values.operationalStatus = {
    global: movement,
    lift: caps.lift ? movement : MovementStatus.Stopped,
    tilt: caps.lift ? MovementStatus.Stopped : movement,
  };
  return { windowCovering: values };
}

/** Window Covering (0x0202). */
export const windowCovering: DeviceKind = {
  endpointType: (context) =>
    WindowCoveringDevice.with(HaWindowCoveringServer.with(...features(coverCapabilities(context.snapshot.state)))),
  fixed: (context) => {
    const caps = coverCapabilities(context.snapshot.state);
    return {
      windowCovering: {
        ...coverTypes(deviceClass(context.snapshot.state), caps),
        configStatus: {
          operational: true,
          onlineReserved: true,
          liftPositionAware: caps.lift,
          tiltPositionAware: caps.tilt,
        },
        mode: {},
      },
    };
  },
  project,
  signature: (context) =>
    JSON.stringify([features(coverCapabilities(context.snapshot.state)), deviceClass(context.snapshot.state)]),
};
