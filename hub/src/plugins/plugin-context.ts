/**
 * The context a plugin's `onStart` receives (docs/plugins.md "Plugin context"), exactly: registerDevice,
 * unregisterDevice, updateDeviceState, registerDomainMapping, storage, log and bridgeId. It belongs to one run of
 * the plugin: once that run ended (shutdown, disable, time-out, breaker) device and mapping calls are refused, so
 * a late promise of an abandoned call cannot put devices back.
 */
import type { Logger } from "../../../lib/logger.ts";
import type {
  AttributeWriteHandler,
  PluginContext,
  PluginDeviceRegistration,
  PluginDomainMapping,
  PluginLogger,
  PluginStorage,
} from "./api.ts";
import type { DomainMappings } from "./domain-mappings.ts";
import type { CheckedRegistration, PluginDeviceSet } from "./plugin-device-set.ts";

export interface PluginContextOptions {
  bridgeId: string;
  plugin: string;
  /** Built-in plugins may register the devices of their BuiltinServices (`endpointType`). */
  builtin: boolean;
  run: number;
  /** False once the run has ended. */
  active: () => boolean;
  devices: PluginDeviceSet;
  mappings: DomainMappings;
  /** The bridge re-evaluates HA entities of these domains. */
  onMappingsChanged: (domains: string[]) => void;
  storage: PluginStorage;
  /** Already scoped to the plugin and bridge. */
  log: Logger;
  /** Delivers a controller change to the plugin's handler (time-boxed, errors logged). */
  deliverWrite: (handler: AttributeWriteHandler, clusterId: string, attribute: string, value: unknown) => void;
}

/** Adapts pino to the plugin API's `(message, details?)` logger. */
export function pluginLogger(log: Logger): PluginLogger {
  const line = (level: "info" | "warn" | "error" | "debug") => (message: string, details?: Record<string, unknown>) => {
    if (details !== undefined && (typeof details !== "object" || details === null)) log[level]({ details }, String(message));
    else log[level](details ?? {}, String(message));
  };
  return { info: line("info"), warn: line("warn"), error: line("error"), debug: line("debug") };
}

/** What BuiltinServices put in `endpointType` (builtin-providers/hub-services.ts); nothing else is accepted. */
function isBuiltinEndpoint(value: unknown): boolean {
  const endpoint = value as { kind?: unknown; backend?: unknown } | null;
  return typeof endpoint === "object" && endpoint !== null && endpoint.kind === "camera" && typeof endpoint.backend === "object";
}

function checkRegistration(device: PluginDeviceRegistration, builtin: boolean): CheckedRegistration {
  if (typeof device !== "object" || device === null) throw new TypeError("registerDevice needs a device object");
  if (typeof device.id !== "string" || device.id === "" || device.id.length > 128) {
    throw new TypeError("device id must be a non-empty string of at most 128 characters");
  }
  if (typeof device.name !== "string" || device.name.trim() === "") throw new TypeError(`device "${device.id}" needs a name`);
  if (device.endpointType !== undefined && !builtin) {
    throw new TypeError(
      `device "${device.id}": endpointType works only for built-in plugins; external plugins use deviceType plus clusters`,
    );
  }
  if (device.endpointType !== undefined && !isBuiltinEndpoint(device.endpointType)) {
    throw new TypeError(`device "${device.id}": endpointType must be a device of the built-in services (e.g. cameraDevice)`);
  }
  if (device.clusters !== undefined && !Array.isArray(device.clusters))
    throw new TypeError(`device "${device.id}": clusters must be an array`);
  for (const cluster of device.clusters ?? []) {
    if (typeof cluster?.clusterId !== "string")
      throw new TypeError(`device "${device.id}": every cluster needs a clusterId string`);
  }
  if (device.onAttributeWrite !== undefined && typeof device.onAttributeWrite !== "function") {
    throw new TypeError(`device "${device.id}": onAttributeWrite must be a function`);
  }
  return device as CheckedRegistration;
}

export function createPluginContext(options: PluginContextOptions): PluginContext {
  const { devices, plugin } = options;
  const ensureActive = () => {
    if (!options.active()) throw new Error(`plugin ${plugin}: this context belongs to a run that has ended`);
  };
  return Object.freeze({
    bridgeId: options.bridgeId,
    storage: options.storage,
    log: pluginLogger(options.log),
    async registerDevice(device: PluginDeviceRegistration) {
      ensureActive();
      await devices.register(options.run, checkRegistration(device, options.builtin), options.deliverWrite);
      options.log.debug({ deviceId: device.id, deviceType: device.deviceType }, `device "${device.name}" registered`);
    },
    async unregisterDevice(deviceId: string) {
      ensureActive();
      if (!(await devices.unregister(deviceId))) throw new Error(`no device "${deviceId}" is registered`);
    },
    async updateDeviceState(deviceId: string, clusterId: string, attributes: Record<string, unknown>) {
      ensureActive();
      await devices.update(deviceId, clusterId, attributes);
    },
    registerDomainMapping(mapping: PluginDomainMapping) {
      ensureActive();
      if (options.mappings.register(plugin, mapping)) options.onMappingsChanged([mapping.domain]);
    },
  });
}
