/** Water Valve (0x0042): its own module, loaded with the first valve (index.ts). */
import { ValveConfigurationAndControl } from "@matter/main/clusters/valve-configuration-and-control";
import { WaterValveDevice } from "@matter/main/devices/water-valve";
import { HaValveServer } from "../../behaviors/valve-server.ts";
import { valveHasPosition } from "../../model/capabilities.ts";
import { numberAttr } from "../../model/ha-state.ts";
import type { DeviceKind, KindContext } from "./kind.ts";

const Valve = ValveConfigurationAndControl.ValveState;

function valvePatch(context: KindContext) {
  const state = context.snapshot.state?.state;
  const current =
    state === "open"
      ? Valve.Open
      : state === "closed"
        ? Valve.Closed
        : state === "opening" || state === "closing"
          ? Valve.Transitioning
          : undefined;
  const target = state === "opening" ? Valve.Open : state === "closing" ? Valve.Closed : current;
  const values: Record<string, unknown> = { currentState: current, targetState: target };
  if (valveHasPosition(context.snapshot.state)) {
    const position = numberAttr(context.snapshot.state, "current_position");
    const level =
      position === undefined ? (current === Valve.Open ? 100 : current === Valve.Closed ? 0 : undefined) : Math.round(position);
    values.currentLevel = level;
    if (current !== Valve.Transitioning) values.targetLevel = level;
  }
  return { valveConfigurationAndControl: values };
}

/** Water Valve (0x0042): open/close, and a level when HA reports a position. */
export const waterValve: DeviceKind = {
  endpointType: (context) =>
    WaterValveDevice.with(
      valveHasPosition(context.snapshot.state)
        ? HaValveServer.with(ValveConfigurationAndControl.Feature.Level)
        : HaValveServer.with(),
    ),
  fixed: () => ({
    valveConfigurationAndControl: {
      openDuration: null,
      defaultOpenDuration: null,
      remainingDuration: null,
      currentState: null,
      targetState: null,
    },
  }),
  project: valvePatch,
  signature: (context) => String(valveHasPosition(context.snapshot.state)),
};
