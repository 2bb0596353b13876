/**
 * Plugin-level fakes for built-in plugin tests: a PluginContext that records devices and their state (with an
 * in-memory storage that can outlive a plugin instance, as the real one outlives restarts), BuiltinServices with
 * the given members (the rest: bridge b1, a fake clock, no Home Assistant), and an HaAccess whose states, service
 * calls, failures and reconnects the test controls.
 */
import { createLogger, type Logger } from "../../../../lib/logger.ts";
import type { HassEntity } from "../../home-assistant/types.ts";
import type { PluginContext, PluginDeviceRegistration, PluginStorage } from "../api.ts";
import { hubBuiltinServices } from "../builtin-providers/hub-services.ts";
import type { BuiltinServices, HaAccess } from "../builtin-services.ts";
import { FakeClock } from "../clock.ts";

export interface FakeContext extends PluginContext {
  readonly devices: Map<string, PluginDeviceRegistration>;
  readonly states: Map<string, Record<string, Record<string, unknown>>>;
  readonly warnings: string[];
  /** Simulates a controller write: the attribute changes, then the device's onAttributeWrite runs. */
  write(deviceId: string, clusterId: string, attribute: string, value: unknown): Promise<void>;
  attribute(deviceId: string, clusterId: string, attribute: string): unknown;
}

/** A logger that drops everything (tests that assert on behaviour, not on log lines). */
export function silentLog(): Logger {
  return createLogger({ name: "test", level: "silent", destination: { write: () => undefined } });
}

/** BuiltinServices for a built-in under test: `overrides`, else bridge b1, a fake clock and no Home Assistant. */
export function fakeBuiltinServices(overrides: Partial<BuiltinServices> = {}): BuiltinServices {
  const log = overrides.log ?? silentLog();
  return {
    bridgeId: "b1",
    clock: new FakeClock(),
    setStatus: () => undefined,
    ...hubBuiltinServices({ log }),
    ...overrides,
    log,
  };
}

export function memoryStorage(data: Record<string, unknown> = {}): PluginStorage & { data: Record<string, unknown> } {
  return {
    data,
    get: <T>(key: string) => (key in data ? (structuredClone(data[key]) as T) : undefined),
    async set(key, value) {
      if (value === undefined) delete data[key];
      else data[key] = structuredClone(value);
    },
  };
}

export function fakeContext(storage: PluginStorage = memoryStorage()): FakeContext {
  const devices = new Map<string, PluginDeviceRegistration>();
  const states = new Map<string, Record<string, Record<string, unknown>>>();
  const warnings: string[] = [];
  const merge = (id: string, clusterId: string, attributes: Record<string, unknown>) => {
    const state = states.get(id) ?? {};
    state[clusterId] = { ...state[clusterId], ...attributes };
    states.set(id, state);
  };
  return {
    bridgeId: "b1",
    storage,
    devices,
    states,
    warnings,
    log: {
      info: () => undefined,
      debug: () => undefined,
      warn: (message) => void warnings.push(message),
      error: (message) => void warnings.push(message),
    },
    async registerDevice(device) {
      devices.set(device.id, device);
      states.delete(device.id);
      for (const cluster of device.clusters ?? []) merge(device.id, cluster.clusterId, cluster.attributes);
      merge(device.id, "bridgedDeviceBasicInformation", { reachable: true });
    },
    async unregisterDevice(id) {
      if (!devices.delete(id)) throw new Error(`no device "${id}" is registered`);
      states.delete(id);
    },
    async updateDeviceState(id, clusterId, attributes) {
      if (!devices.has(id)) throw new Error(`no device "${id}" is registered`);
      merge(id, clusterId, attributes);
    },
    registerDomainMapping: () => undefined,
    async write(id, clusterId, attribute, value) {
      merge(id, clusterId, { [attribute]: value });
      await devices.get(id)?.onAttributeWrite?.(clusterId, attribute, value);
    },
    attribute: (id, clusterId, attribute) => states.get(id)?.[clusterId]?.[attribute],
  };
}

export interface FakeHa extends HaAccess {
  readonly calls: string[];
  /** Makes calls fail (all, or those `failing` accepts) until set back to undefined. */
  failing: ((action: string, entityId: string) => boolean) | undefined;
  set(entityId: string, state: string, attributes?: Record<string, unknown>): void;
  reconnect(): void;
  closed: boolean;
}

export function fakeHa(initial: Record<string, { state: string; attributes?: Record<string, unknown> }> = {}): FakeHa {
  const states = new Map<string, HassEntity>();
  const listeners = new Map<string, Set<(state: HassEntity | undefined, previous: HassEntity | undefined) => void>>();
  const reconnects = new Set<() => void>();
  const entity = (entityId: string, state: string, attributes: Record<string, unknown> = {}): HassEntity =>
    ({
      entity_id: entityId,
      state,
      attributes,
      last_changed: "",
      last_updated: "",
      context: { id: "", parent_id: null, user_id: null },
    }) as HassEntity;
  for (const [id, value] of Object.entries(initial)) states.set(id, entity(id, value.state, value.attributes));
  const ha: FakeHa = {
    calls: [],
    failing: undefined,
    closed: false,
    state: (id) => states.get(id),
    onState(id, listener) {
      const set = listeners.get(id) ?? new Set();
      set.add(listener);
      listeners.set(id, set);
      return () => void set.delete(listener);
    },
    async call(action, entityId) {
      ha.calls.push(`${action} ${entityId}`);
      if (ha.failing?.(action, entityId)) throw new Error(`HA refused ${action}`);
    },
    onReconnect(listener) {
      reconnects.add(listener);
      return () => void reconnects.delete(listener);
    },
    async close() {
      ha.closed = true;
    },
    set(id, state, attributes) {
      const previous = states.get(id);
      const next = entity(id, state, attributes ?? previous?.attributes);
      states.set(id, next);
      for (const listener of listeners.get(id) ?? []) listener(next, previous);
    },
    reconnect() {
      for (const listener of reconnects) listener();
    },
  };
  return ha;
}
