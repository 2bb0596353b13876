/**
 * A bridge seam without Matter for plugin host tests: mounts are recorded (after the same checks the Matter side
 * makes), endpoint numbers are stable per endpoint id like matter.js keeps them, and controller writes can be
 * simulated by calling a mounted device's `onWrite`.
 */
import { checkPluginDevice } from "../../matter/plugin-devices/plugin-endpoint.ts";
import type { MountedPluginDevice, PluginBridgeSeam, PluginDeviceSpec } from "../../matter/plugin-devices/seam.ts";

export interface FakeSeam extends PluginBridgeSeam {
  /** Mounted devices by endpoint id. */
  readonly mounted: Map<string, PluginDeviceSpec>;
  /** `<endpointId> <cluster> <json>` per update, in order. */
  readonly updates: string[];
  /** Domains the host asked to re-evaluate. */
  readonly remapped: string[];
  /** The latest state a device was given, per cluster. */
  state(endpointId: string): Record<string, Record<string, unknown>>;
  numberOf(endpointId: string): number | undefined;
  /** Simulates a controller write on a mounted device. */
  write(endpointId: string, clusterId: string, attribute: string, value: unknown): void;
  setRunning(running: boolean): void;
}

export function fakeSeam(bridgeId = "b1", options: { serverMode?: boolean } = {}): FakeSeam {
  const mounted = new Map<string, PluginDeviceSpec>();
  const states = new Map<string, Record<string, Record<string, unknown>>>();
  const numbers = new Map<string, number>();
  const updates: string[] = [];
  const remapped: string[] = [];
  let running = true;
  return {
    bridgeId,
    mounted,
    updates,
    remapped,
    serverMode: () => options.serverMode === true,
    running: () => running,
    setRunning: (value) => {
      running = value;
    },
    async mount(spec): Promise<MountedPluginDevice> {
      checkPluginDevice(spec);
      if (mounted.has(spec.endpointId)) throw new Error(`device "${spec.endpointId}" is already on the bridge`);
      mounted.set(spec.endpointId, spec);
      states.set(spec.endpointId, Object.fromEntries(spec.clusters.map((c) => [c.clusterId, { ...c.attributes }])));
      if (!numbers.has(spec.endpointId)) numbers.set(spec.endpointId, numbers.size + 2);
      return {
        endpointId: spec.endpointId,
        endpointNumber: numbers.get(spec.endpointId),
        async update(clusterId, attributes) {
          if (!mounted.has(spec.endpointId)) throw new Error("not mounted");
          updates.push(`${spec.endpointId} ${clusterId} ${JSON.stringify(attributes)}`);
          const state = states.get(spec.endpointId) ?? {};
          state[clusterId] = { ...state[clusterId], ...attributes };
          states.set(spec.endpointId, state);
        },
        async unmount() {
          mounted.delete(spec.endpointId);
        },
      };
    },
    async remapDomains(domains) {
      remapped.push(...domains);
    },
    state: (endpointId) => states.get(endpointId) ?? {},
    numberOf: (endpointId) => numbers.get(endpointId),
    write(endpointId, clusterId, attribute, value) {
      const spec = mounted.get(endpointId);
      if (!spec) throw new Error(`${endpointId} is not mounted`);
      const state = states.get(endpointId) ?? {};
      state[clusterId] = { ...state[clusterId], [attribute]: value };
      spec.onWrite(clusterId, attribute, value);
    },
  };
}
