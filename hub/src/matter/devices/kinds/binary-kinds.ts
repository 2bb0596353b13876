/**
 * Binary sensors and event buttons: Contact Sensor, Water Leak Detector, Occupancy Sensor, Smoke CO Alarm,
 * On/Off Sensor and Generic Switch. `unknown` never reads as an alarm (t0 fix e3bf044): the value is kept, and a
 * new endpoint starts in the normal state (contact closed, no leak, unoccupied, no smoke).
 */
import { BooleanStateServer } from "@matter/main/behaviors/boolean-state";
import { OccupancySensingServer } from "@matter/main/behaviors/occupancy-sensing";
import { OccupancySensing } from "@matter/main/clusters/occupancy-sensing";
import { SmokeCoAlarm } from "@matter/main/clusters/smoke-co-alarm";
import { Switch } from "@matter/main/clusters/switch";
import { ContactSensorDevice } from "@matter/main/devices/contact-sensor";
import { GenericSwitchDevice } from "@matter/main/devices/generic-switch";
import { OccupancySensorDevice } from "@matter/main/devices/occupancy-sensor";
import { OnOffSensorDevice } from "@matter/main/devices/on-off-sensor";
import { SmokeCoAlarmDevice } from "@matter/main/devices/smoke-co-alarm";
import { WaterLeakDetectorDevice } from "@matter/main/devices/water-leak-detector";
import { HaOnOffServer } from "../../behaviors/on-off-server.ts";
import { HaSmokeCoAlarmServer } from "../../behaviors/smoke-co-alarm-server.ts";
import { HaSwitchServer, pressKind } from "../../behaviors/switch-server.ts";
import { deviceClass, hasValue, stringAttr, stringListAttr } from "../../model/ha-state.ts";
import type { DeviceKind, KindContext, StatePatch } from "./kind.ts";

/** `on`/`off` of a binary sensor, undefined for unknown/other states. */
function isOn(context: KindContext): boolean | undefined {
  const state = context.snapshot.state;
  if (!hasValue(state)) return undefined;
  return state.state === "on" ? true : state.state === "off" ? false : undefined;
}

/**
 * Contact Sensor (0x0015). Matter BooleanState for contact sensors is inverted against HA: StateValue true means
 * "contact", i.e. closed (Device Library §7.1), while HA `on` means open. Other binary classes mapped here (problem,
 * tamper, …) follow the same rule: HA `on` (the alert) shows as "open".
 */
export const contactSensor: DeviceKind = {
  endpointType: () => ContactSensorDevice.with(BooleanStateServer),
  fixed: () => ({ booleanState: { stateValue: true } }),
  project: (context) => {
    const on = isOn(context);
    return { booleanState: { stateValue: on === undefined ? undefined : !on } };
  },
  signature: () => "boolean",
};

/** Water Leak Detector (0x0043): StateValue true = leak (Device Library §7.13), same sense as HA moisture `on`. */
export const waterLeakDetector: DeviceKind = {
  endpointType: () => WaterLeakDetectorDevice.with(BooleanStateServer),
  fixed: () => ({ booleanState: { stateValue: false } }),
  project: (context) => ({ booleanState: { stateValue: isOn(context) } }),
  signature: () => "boolean",
};

/** motion/moving are PIR-like; occupancy/presence detect a person being there (RX uses PhysicalContact too). */
function occupancyFeature(context: KindContext) {
  const cls = deviceClass(context.snapshot.state);
  return cls === "motion" || cls === "moving"
    ? OccupancySensing.Feature.PassiveInfrared
    : OccupancySensing.Feature.PhysicalContact;
}

/** Occupancy Sensor (0x0107). */
export const occupancySensor: DeviceKind = {
  endpointType: (context) => OccupancySensorDevice.with(OccupancySensingServer.with(occupancyFeature(context))),
  fixed: () => ({ occupancySensing: { occupancy: { occupied: false } } }),
  project: (context) => {
    const on = isOn(context);
    return { occupancySensing: { occupancy: on === undefined ? undefined : { occupied: on } } };
  },
  signature: (context) => occupancyFeature(context),
};

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

/** On/Off Sensor (0x0850), by override only: OnOff server carries the state, its commands are refused. */
export const onOffSensor: DeviceKind = {
  endpointType: () => OnOffSensorDevice.with(HaOnOffServer),
  fixed: () => ({ onOff: { onOff: false } }),
  project: (context) => ({ onOff: { onOff: isOn(context) } }),
  signature: () => "on_off",
};

/** Presses the event entity can report (Switch MultiPressMax is at least 2). */
function multiPressMax(context: KindContext): number {
  const kinds = stringListAttr(context.snapshot.state, "event_types").map(pressKind);
  return kinds.includes("triple") ? 3 : 2;
}

/** Generic Switch (0x000F) for HA event entities; each new event (new state timestamp) is one press. */
export const genericSwitch: DeviceKind = {
  endpointType: () =>
    GenericSwitchDevice.with(
      HaSwitchServer.with(
        Switch.Feature.MomentarySwitch,
        Switch.Feature.MomentarySwitchRelease,
        Switch.Feature.MomentarySwitchLongPress,
        Switch.Feature.MomentarySwitchMultiPress,
      ),
    ),
  fixed: (context) => ({ switch: { numberOfPositions: 2, currentPosition: 0, multiPressMax: multiPressMax(context) } }),
  project: () => ({}),
  signature: (context) => String(multiPressMax(context)),
  async afterUpdate(endpoint, previous, next) {
    const before = previous.state;
    const after = next.state;
    // A new timestamp is a press; coming back from `unavailable` is HA restoring the last one, not a press.
    if (!before || before.state === "unavailable" || !hasValue(after) || before.state === after.state) return;
    const kind = pressKind(stringAttr(after, "event_type"));
    await endpoint.act("ha-event", (agent) => agent.get(HaSwitchServer).emitPress(kind));
  },
};
