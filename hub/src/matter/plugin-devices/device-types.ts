/**
 * The device type keys of docs/plugins.md ("Device types") and what each needs: the matter.js device type and the
 * clusters it cannot be without. A plugin's own cluster data is merged on top; further clusters from the cluster
 * table may be added (a fan with onOff, a contact sensor with a temperature).
 *
 * `color_temperature_light`: the spec's table says 0x0102, which is the obsolete Color Dimmable Light; Matter's Color
 * Temperature Light is 0x010C and that is what controllers understand (the HA-entity devices use it too).
 */
import type { MutableEndpoint } from "@matter/main";
import { AirPurifierDevice } from "@matter/main/devices/air-purifier";
import { AirQualitySensorDevice } from "@matter/main/devices/air-quality-sensor";
import { ColorTemperatureLightDevice } from "@matter/main/devices/color-temperature-light";
import { ContactSensorDevice } from "@matter/main/devices/contact-sensor";
import { DimmableLightDevice } from "@matter/main/devices/dimmable-light";
import { DimmablePlugInUnitDevice } from "@matter/main/devices/dimmable-plug-in-unit";
import { DoorLockDevice } from "@matter/main/devices/door-lock";
import { ExtendedColorLightDevice } from "@matter/main/devices/extended-color-light";
import { FanDevice } from "@matter/main/devices/fan";
import { FlowSensorDevice } from "@matter/main/devices/flow-sensor";
import { GenericSwitchDevice } from "@matter/main/devices/generic-switch";
import { HumiditySensorDevice } from "@matter/main/devices/humidity-sensor";
import { LightSensorDevice } from "@matter/main/devices/light-sensor";
import { OccupancySensorDevice } from "@matter/main/devices/occupancy-sensor";
import { OnOffLightDevice } from "@matter/main/devices/on-off-light";
import { OnOffPlugInUnitDevice } from "@matter/main/devices/on-off-plug-in-unit";
import { PressureSensorDevice } from "@matter/main/devices/pressure-sensor";
import { TemperatureSensorDevice } from "@matter/main/devices/temperature-sensor";
import { ThermostatDevice } from "@matter/main/devices/thermostat";
import { WaterLeakDetectorDevice } from "@matter/main/devices/water-leak-detector";
import { WindowCoveringDevice } from "@matter/main/devices/window-covering";
import type { PluginTypeKey } from "../model/contract.ts";

/** One device type: the matter.js type (without servers) and its mandatory cluster ids. */
export interface PluginDeviceTypeSpec {
  device: MutableEndpoint;
  clusters: readonly string[];
}

const LIGHT = ["onOff"] as const;
const DIMMABLE = ["onOff", "levelControl"] as const;
const COLOR = ["onOff", "levelControl", "colorControl"] as const;

/** The Record type makes the compiler refuse a key of the plugin API without a device here. */
export const PLUGIN_DEVICE_TYPES: Readonly<Record<PluginTypeKey, PluginDeviceTypeSpec>> = {
  on_off_light: { device: OnOffLightDevice, clusters: LIGHT },
  dimmable_light: { device: DimmableLightDevice, clusters: DIMMABLE },
  color_temperature_light: { device: ColorTemperatureLightDevice, clusters: COLOR },
  extended_color_light: { device: ExtendedColorLightDevice, clusters: COLOR },
  on_off_plugin_unit: { device: OnOffPlugInUnitDevice, clusters: LIGHT },
  dimmable_plug_in_unit: { device: DimmablePlugInUnitDevice, clusters: DIMMABLE },
  temperature_sensor: { device: TemperatureSensorDevice, clusters: ["temperatureMeasurement"] },
  humidity_sensor: { device: HumiditySensorDevice, clusters: ["relativeHumidityMeasurement"] },
  pressure_sensor: { device: PressureSensorDevice, clusters: ["pressureMeasurement"] },
  flow_sensor: { device: FlowSensorDevice, clusters: ["flowMeasurement"] },
  light_sensor: { device: LightSensorDevice, clusters: ["illuminanceMeasurement"] },
  occupancy_sensor: { device: OccupancySensorDevice, clusters: ["occupancySensing"] },
  contact_sensor: { device: ContactSensorDevice, clusters: ["booleanState"] },
  air_quality_sensor: { device: AirQualitySensorDevice, clusters: ["airQuality"] },
  thermostat: { device: ThermostatDevice, clusters: ["thermostat"] },
  door_lock: { device: DoorLockDevice, clusters: ["doorLock"] },
  fan: { device: FanDevice, clusters: ["fanControl"] },
  air_purifier: { device: AirPurifierDevice, clusters: ["fanControl"] },
  window_covering: { device: WindowCoveringDevice, clusters: ["windowCovering"] },
  generic_switch: { device: GenericSwitchDevice, clusters: ["switch"] },
  water_leak_detector: { device: WaterLeakDetectorDevice, clusters: ["booleanState"] },
};

/** True for one of the spec's device type keys. */
export function isPluginDeviceType(key: unknown): key is PluginTypeKey {
  return typeof key === "string" && Object.hasOwn(PLUGIN_DEVICE_TYPES, key);
}
