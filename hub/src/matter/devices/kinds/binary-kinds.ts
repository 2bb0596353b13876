/**
 * Binary sensors: Contact Sensor, Water Leak Detector, Occupancy Sensor and On/Off Sensor (Smoke CO Alarm and
 * Generic Switch have their own modules, loaded with their first device: index.ts). `unknown` never reads as an
 * alarm (t0 fix e3bf044): the value is kept, and a new endpoint starts in the normal state (contact closed, no
 * leak, unoccupied).
 */
import { BooleanStateServer } from "@matter/main/behaviors/boolean-state";
import { OccupancySensingServer } from "@matter/main/behaviors/occupancy-sensing";
import { OccupancySensing } from "@matter/main/clusters/occupancy-sensing";
import { ContactSensorDevice } from "@matter/main/devices/contact-sensor";
import { OccupancySensorDevice } from "@matter/main/devices/occupancy-sensor";
import { OnOffSensorDevice } from "@matter/main/devices/on-off-sensor";
import { WaterLeakDetectorDevice } from "@matter/main/devices/water-leak-detector";
import { HaOnOffServer } from "../../behaviors/on-off-server.ts";
import { deviceClass, hasValue } from "../../model/ha-state.ts";
import type { DeviceKind, KindContext } from "./kind.ts";

/** `on`/`off` of a binary sensor, undefined for unknown/other states. */
export function isOn(context: KindContext): boolean | undefined {
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

/** On/Off Sensor (0x0850), by override only: OnOff server carries the state, its commands are refused. */
export const onOffSensor: DeviceKind = {
  endpointType: () => OnOffSensorDevice.with(HaOnOffServer),
  fixed: () => ({ onOff: { onOff: false } }),
  project: (context) => ({ onOff: { onOff: isOn(context) } }),
  signature: () => "on_off",
};
