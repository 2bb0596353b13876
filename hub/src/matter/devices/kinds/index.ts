/**
 * Every DeviceTypeKey's kind, each loaded on first use. The Record type makes the compiler refuse a key without an
 * implementation.
 *
 * Why loaders and not the kinds themselves: a kind module brings the matter.js device type and cluster behaviors it
 * builds on, and those stay alive for the life of the process (docs/PERFORMANCE.md "Start-up memory": the kinds of
 * every device type cost 4.2 MB of heap, most of it behaviors a given home never uses). A home pays for the device
 * types it exposes. The module loader caches each import, so only the first endpoint of a type waits for it.
 */
import type { DeviceTypeKey } from "../../model/contract.ts";
import type { DeviceKind } from "./kind.ts";

/** How to load the kind behind each device type key. */
export const KIND_LOADERS: Readonly<Record<DeviceTypeKey, () => Promise<DeviceKind>>> = {
  on_off_light: async () => (await import("./light-kinds.ts")).onOffLight,
  dimmable_light: async () => (await import("./light-kinds.ts")).dimmableLight,
  color_temperature_light: async () => (await import("./light-kinds.ts")).colorTemperatureLight,
  extended_color_light: async () => (await import("./light-kinds.ts")).extendedColorLight,
  on_off_plugin_unit: async () => (await import("./light-kinds.ts")).onOffPlugInUnit,
  dimmable_plug_in_unit: async () => (await import("./light-kinds.ts")).dimmablePlugInUnit,
  temperature_sensor: async () => (await import("./sensor-kinds.ts")).temperatureSensor,
  humidity_sensor: async () => (await import("./sensor-kinds.ts")).humiditySensor,
  pressure_sensor: async () => (await import("./sensor-kinds.ts")).pressureSensor,
  flow_sensor: async () => (await import("./sensor-kinds.ts")).flowSensor,
  light_sensor: async () => (await import("./sensor-kinds.ts")).lightSensor,
  occupancy_sensor: async () => (await import("./binary-kinds.ts")).occupancySensor,
  contact_sensor: async () => (await import("./binary-kinds.ts")).contactSensor,
  air_quality_sensor: async () => (await import("./air-quality-kind.ts")).airQualitySensor,
  thermostat: async () => (await import("./climate-kind.ts")).thermostat,
  door_lock: async () => (await import("./appliance-kinds.ts")).doorLock,
  fan: async () => (await import("./fan-kinds.ts")).fan,
  air_purifier: async () => (await import("./fan-kinds.ts")).airPurifier,
  window_covering: async () => (await import("./cover-kind.ts")).windowCovering,
  generic_switch: async () => (await import("./switch-kind.ts")).genericSwitch,
  water_leak_detector: async () => (await import("./binary-kinds.ts")).waterLeakDetector,
  smoke_co_alarm: async () => (await import("./smoke-alarm-kind.ts")).smokeCoAlarm,
  robotic_vacuum_cleaner: async () => (await import("./vacuum-kind.ts")).roboticVacuumCleaner,
  speaker: async () => (await import("./appliance-kinds.ts")).speaker,
  water_valve: async () => (await import("./valve-kind.ts")).waterValve,
  mode_select: async () => (await import("./mode-select-kind.ts")).modeSelect,
  humidifier: async () => (await import("./fan-kinds.ts")).humidifier,
  on_off_sensor: async () => (await import("./binary-kinds.ts")).onOffSensor,
  electrical_sensor: async () => (await import("./electrical-kind.ts")).electricalSensor,
  water_heater: async () => (await import("./water-heater-kind.ts")).waterHeater,
};

/** The kind of a device type key (loading its module on first use). */
export function loadKind(key: DeviceTypeKey): Promise<DeviceKind> {
  return KIND_LOADERS[key]();
}

export type { DeviceKind, KindContext, StatePatch } from "./kind.ts";
