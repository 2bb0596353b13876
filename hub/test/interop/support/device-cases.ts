/**
 * Every row of the device-type matrix, and what they must cover: each domain of the domain table, each device type
 * key (KIND_LOADERS), each built-in plugin and each device it shows. A new domain, kind, built-in plugin or plugin device
 * without a row fails device-cases.test.ts in `npm test`, before the interop run would silently leave it out.
 */
import { DOMAIN_TABLE } from "../../../src/matter/devices/domain-table.ts";
import { KIND_LOADERS } from "../../../src/matter/devices/kinds/index.ts";
import { APPLIANCE_CASES } from "./appliance-cases.ts";
import { APPLIANCE_CLOUD_CASES } from "./appliance-cloud-cases.ts";
import { CLIMATE_COVER_CASES } from "./climate-cover-cases.ts";
import { COMPOSED_CASES } from "./composed-cases.ts";
import { type DeviceCase, isEntitySource } from "./device-case.ts";
import { LIGHT_PLUG_CASES } from "./light-plug-cases.ts";
import { PLUGIN_CASES } from "./plugin-cases.ts";
import { SENSOR_CASES } from "./sensor-cases.ts";
import { WATER_HEATER_CASES } from "./water-heater-cases.ts";

export const DEVICE_CASES: readonly DeviceCase[] = [
  ...LIGHT_PLUG_CASES,
  ...CLIMATE_COVER_CASES,
  ...WATER_HEATER_CASES,
  ...APPLIANCE_CASES,
  ...SENSOR_CASES,
  ...COMPOSED_CASES,
  ...PLUGIN_CASES,
  ...APPLIANCE_CLOUD_CASES,
];

/** A device a built-in plugin registers: the plugin's name and the id it registers the device with. */
export interface PluginDevice {
  plugin: string;
  device: string;
}

/** What the rows leave uncovered (all empty when the matrix is complete). */
export function uncovered(
  rows: readonly DeviceCase[],
  builtinPlugins: readonly string[],
  pluginDevices: readonly PluginDevice[],
) {
  const entityRows = rows.filter((row) => isEntitySource(row.source));
  const domains = new Set(entityRows.map((row) => (row.source as { entityId: string }).entityId.split(".")[0]));
  const keys = new Set(entityRows.map((row) => row.key));
  const pluginRows = rows.flatMap((row) => (isEntitySource(row.source) ? [] : [row.source]));
  const plugins = new Set(pluginRows.map((source) => source.plugin));
  const devices = new Set(pluginRows.map((source) => `${source.plugin}/${source.device}`));
  return {
    domains: Object.keys(DOMAIN_TABLE).filter((domain) => !domains.has(domain)),
    deviceTypeKeys: Object.keys(KIND_LOADERS).filter((key) => !keys.has(key as DeviceCase["key"])),
    builtinPlugins: builtinPlugins.filter((name) => !plugins.has(name)),
    pluginDevices: pluginDevices.map((d) => `${d.plugin}/${d.device}`).filter((key) => !devices.has(key)),
  };
}
