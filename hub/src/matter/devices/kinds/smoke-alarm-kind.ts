/** Smoke CO Alarm (0x0076): its own module, loaded with the first smoke or CO alarm (index.ts). */
import { SmokeCoAlarm } from "@matter/main/clusters/smoke-co-alarm";
import { SmokeCoAlarmDevice } from "@matter/main/devices/smoke-co-alarm";
import { HaSmokeCoAlarmServer } from "../../behaviors/smoke-co-alarm-server.ts";
import { deviceClass } from "../../model/ha-state.ts";
import { isOn } from "./binary-kinds.ts";
import type { DeviceKind, KindContext, StatePatch } from "./kind.ts";

/** Smoke for smoke (and any other class a user maps here); CO for carbon_monoxide and gas (domain-table.ts). */
function isCoAlarm(context: KindContext): boolean {
  const cls = deviceClass(context.snapshot.state);
  return cls === "carbon_monoxide" || cls === "gas";
}

/** Smoke CO Alarm (0x0076): HA `on` = Critical. */
export const smokeCoAlarm: DeviceKind = {
  endpointType: (context) =>
    SmokeCoAlarmDevice.with(
      HaSmokeCoAlarmServer.with(isCoAlarm(context) ? SmokeCoAlarm.Feature.CoAlarm : SmokeCoAlarm.Feature.SmokeAlarm),
    ),
  project: (context): StatePatch => {
    const on = isOn(context);
    if (on === undefined) return {};
    const level = on ? SmokeCoAlarm.AlarmState.Critical : SmokeCoAlarm.AlarmState.Normal;
    const co = isCoAlarm(context);
    const Expressed = SmokeCoAlarm.ExpressedState;
    return {
      smokeCoAlarm: {
        [co ? "coState" : "smokeState"]: level,
        expressedState: on ? (co ? Expressed.CoAlarm : Expressed.SmokeAlarm) : Expressed.Normal,
      },
    };
  },
  signature: (context) => (isCoAlarm(context) ? "co" : "smoke"),
};
