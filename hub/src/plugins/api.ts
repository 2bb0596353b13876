/**
 * The Matter Hub plugin API, version 1 (docs/plugins.md "The contract in brief"). This file is the contract for
 * plugin authors: it has no imports, so it can be copied into a plugin project as-is (or referenced with a JSDoc
 * `@typedef {import(...)}`). docs/plugins.md walks through it with the example plugin in `examples/example-plugin`.
 *
 * A plugin package is an ES module whose default export is a class implementing {@link HubPlugin}. The hub
 * constructs it with `new Plugin()` once per bridge it is enabled on and drives it through the lifecycle hooks:
 * `onStart(context)` → `onConfigChanged(savedConfig)` (only when a configuration was saved) → `onConfigure()`, later
 * `onConfigChanged(config)` on every saved change and `onShutdown(reason)` when the bridge stops or the plugin is
 * disabled. Each call has a 10 s time-out; three consecutive failures auto-disable the plugin.
 */

/** The plugin API version this hub implements; put it in `package.json` as `"hubPluginApiVersion": 1`. */
export const HUB_PLUGIN_API_VERSION = 1;

/** The device type keys a plugin may register (docs/plugins.md "Device types"). */
export const PLUGIN_DEVICE_TYPE_KEYS = [
  "on_off_light",
  "dimmable_light",
  "color_temperature_light",
  "extended_color_light",
  "on_off_plugin_unit",
  "dimmable_plug_in_unit",
  "temperature_sensor",
  "humidity_sensor",
  "pressure_sensor",
  "flow_sensor",
  "light_sensor",
  "occupancy_sensor",
  "contact_sensor",
  "air_quality_sensor",
  "thermostat",
  "door_lock",
  "fan",
  "air_purifier",
  "window_covering",
  "generic_switch",
  "water_leak_detector",
] as const;

/** A device type key, e.g. `on_off_plugin_unit` (Matter On/Off Plug-in Unit, 0x010A). */
export type PluginDeviceType = (typeof PLUGIN_DEVICE_TYPE_KEYS)[number];

/**
 * Cluster ids are matter.js behavior ids and case-sensitive (`onOff`, never `OnOff`). Units are Matter's:
 * temperature 0.01 °C (2150 = 21.50 °C), humidity 0.01 %, pressure 0.1 kPa, flow 0.1 m³/h.
 * `illuminanceMeasurement`, `airQuality`, `thermostat` and `switch` are accepted too: their device types need them.
 */
export type PluginClusterId =
  | "onOff"
  | "levelControl"
  | "colorControl"
  | "pressureMeasurement"
  | "flowMeasurement"
  | "windowCovering"
  | "temperatureMeasurement"
  | "relativeHumidityMeasurement"
  | "booleanState"
  | "occupancySensing"
  | "fanControl"
  | "doorLock"
  | "illuminanceMeasurement"
  | "airQuality"
  | "thermostat"
  | "switch";

/** Initial attribute state of one cluster, e.g. `{clusterId: "onOff", attributes: {onOff: true}}`. */
export interface PluginClusterData {
  clusterId: PluginClusterId;
  /** Attribute name (matter.js camelCase) → value; omitted attributes get sensible defaults. */
  attributes: Record<string, unknown>;
}

/**
 * Called when a controller changed an attribute of the device (an attribute write, or a command such as On that
 * changes `onOff`), after the change is committed. Changes the plugin made itself never call it. To refuse a
 * change, push the real state back with `updateDeviceState`.
 */
export type AttributeWriteHandler = (clusterId: string, attribute: string, value: unknown) => void | Promise<void>;

/** The argument of {@link PluginContext.registerDevice}. */
export interface PluginDeviceRegistration {
  /** Device id within the plugin; the same id keeps the same Matter endpoint number across restarts. */
  id: string;
  /** Shown by controllers (cut to 32 UTF-8 bytes). */
  name: string;
  /** Exactly one of `deviceType` or `endpointType`. */
  deviceType?: PluginDeviceType;
  /** Built-in plugins only: a device their hub services make (e.g. a camera); refused from external plugins. */
  endpointType?: unknown;
  /** Optional initial state. A `fanControl` cluster must carry `fanModeSequence`, or the device does not mount. */
  clusters?: PluginClusterData[];
  onAttributeWrite?: AttributeWriteHandler;
}

/** A key-value store persisted per bridge and plugin (`<HUB_DATA_DIR>/plugins/<bridgeId>/<plugin>/storage.json`). */
export interface PluginStorage {
  /** The stored value (a JSON copy), or undefined. */
  get<T = unknown>(key: string): T | undefined;
  /** Stores a JSON-serialisable value; resolves once it is on disk. `undefined` deletes the key. */
  set(key: string, value: unknown): Promise<void>;
}

/** The plugin's logger: lines carry the plugin name and bridge id. */
export interface PluginLogger {
  info(message: string, details?: Record<string, unknown>): void;
  warn(message: string, details?: Record<string, unknown>): void;
  error(message: string, details?: Record<string, unknown>): void;
  debug(message: string, details?: Record<string, unknown>): void;
}

/** Maps a Home Assistant domain the hub does not handle itself to a device type key. */
export interface PluginDomainMapping {
  domain: string;
  matterDeviceType: PluginDeviceType;
}

/** What `onStart` receives; valid until the plugin is shut down (calls after that are refused). */
export interface PluginContext {
  /** Registers (or, for a known id, replaces) a Matter device on the bridge. Rejects with a readable reason. */
  registerDevice(device: PluginDeviceRegistration): Promise<void>;
  /** Removes a registered device; its endpoint number stays reserved for the id. */
  unregisterDevice(deviceId: string): Promise<void>;
  /** Pushes attribute values, e.g. `("s1", "onOff", {onOff: true})`, or `("s1", "bridgedDeviceBasicInformation", {reachable: false})`. */
  updateDeviceState(deviceId: string, clusterId: string, attributes: Record<string, unknown>): Promise<void>;
  /** Lookup order: user override, then plugin mappings, then the hub's table; only unhandled domains. Last one wins. */
  registerDomainMapping(mapping: PluginDomainMapping): void;
  readonly storage: PluginStorage;
  readonly log: PluginLogger;
  /** The bridge this plugin instance runs on. */
  readonly bridgeId: string;
}

/** One configuration field. `secret` fields go to `secrets.json`, are never sent back and are not in backups. */
export interface PluginConfigProperty {
  type: "string" | "number" | "integer" | "boolean";
  title: string;
  description?: string;
  default?: string | number | boolean;
  minimum?: number;
  maximum?: number;
  secret?: boolean;
}

/** What `getConfigSchema()` returns. */
export interface PluginConfigSchema {
  title: string;
  properties: Record<string, PluginConfigProperty>;
}

/** A saved configuration: property key → value (secrets included when handed to the plugin). */
export type PluginConfig = Record<string, unknown>;

/** The default export of a plugin module is a class implementing this. */
export interface HubPlugin {
  readonly name: string;
  readonly version: string;
  /** The bridge starts: register devices, open connections. */
  onStart(context: PluginContext): void | Promise<void>;
  /** After all devices are registered: restore persistent state. */
  onConfigure(): void | Promise<void>;
  /** The bridge stops or the plugin is disabled: clear timers, close connections. */
  onShutdown(reason?: string): void | Promise<void>;
  /** On demand (may change at run time, e.g. one switch per discovered device). */
  getConfigSchema(): PluginConfigSchema | undefined | Promise<PluginConfigSchema | undefined>;
  /** The user saved a configuration (and once at every start when one is saved): apply it without a restart. */
  onConfigChanged(config: PluginConfig): void | Promise<void>;
}

/** The class a plugin module exports by default. */
export type HubPluginClass = new () => HubPlugin;

/** The `package.json` fields the hub reads (minimal layout). */
export interface HubPluginManifest {
  name: string;
  version: string;
  main: string;
  type: "module";
  hubPluginApiVersion: number;
}
