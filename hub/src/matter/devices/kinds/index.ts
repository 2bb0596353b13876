/**
 * Every DeviceTypeKey's kind. The Record type makes the compiler refuse a key without an implementation.
 */
import type { DeviceTypeKey } from "../../model/contract.ts";
import { doorLock, modeSelect, roboticVacuumCleaner, speaker, waterValve } from "./appliance-kinds.ts";
import { contactSensor, genericSwitch, occupancySensor, onOffSensor, smokeCoAlarm, waterLeakDetector } from "./binary-kinds.ts";
import { thermostat } from "./climate-kind.ts";
import { windowCovering } from "./cover-kind.ts";
import { electricalSensor } from "./electrical-kind.ts";
import { airPurifier, fan, humidifier } from "./fan-kinds.ts";
import type { DeviceKind } from "./kind.ts";
import {
  colorTemperatureLight,
  dimmableLight,
  dimmablePlugInUnit,
  extendedColorLight,
  onOffLight,
  onOffPlugInUnit,
} from "./light-kinds.ts";
import { airQualitySensor, flowSensor, humiditySensor, lightSensor, pressureSensor, temperatureSensor } from "./sensor-kinds.ts";
import { waterHeater } from "./water-heater-kind.ts";

/** The kind behind each device type key. */
export const KINDS: Readonly<Record<DeviceTypeKey, DeviceKind>> = {
  on_off_light: onOffLight,
  dimmable_light: dimmableLight,
  color_temperature_light: colorTemperatureLight,
  extended_color_light: extendedColorLight,
  on_off_plugin_unit: onOffPlugInUnit,
  dimmable_plug_in_unit: dimmablePlugInUnit,
  temperature_sensor: temperatureSensor,
  humidity_sensor: humiditySensor,
  pressure_sensor: pressureSensor,
  flow_sensor: flowSensor,
  light_sensor: lightSensor,
  occupancy_sensor: occupancySensor,
  contact_sensor: contactSensor,
  air_quality_sensor: airQualitySensor,
  thermostat,
  door_lock: doorLock,
  fan,
  air_purifier: airPurifier,
  window_covering: windowCovering,
  generic_switch: genericSwitch,
  water_leak_detector: waterLeakDetector,
  smoke_co_alarm: smokeCoAlarm,
  robotic_vacuum_cleaner: roboticVacuumCleaner,
  speaker,
  water_valve: waterValve,
  mode_select: modeSelect,
  humidifier,
  on_off_sensor: onOffSensor,
  electrical_sensor: electricalSensor,
  water_heater: waterHeater,
};

export type { DeviceKind, KindContext, StatePatch } from "./kind.ts";
