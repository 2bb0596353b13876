import type { PluginDeviceInfo } from "../../bridges/bridge-runtime.ts";
import { mountPluginDevice } from "../plugin-devices/plugin-mount.ts";
import type { MountedPluginDevice, PluginBridgeSeam } from "../plugin-devices/seam.ts";
import { type MountedPluginRow, pluginDeviceRows } from "./device-rows.ts";
import type { BridgeNode } from "./node.ts";

/** What the plugin side needs of its bridge runtime. */
export interface PluginShelfHost {
  bridgeId: string;
  serverMode(): boolean;
  /** The running node, or undefined while the bridge is not running. */
  runningNode(): BridgeNode | undefined;
  /** The bridge's record changed (its device count). */
  changed(): void;
  /** Plugin domain mappings of these domains changed: re-evaluate their entities. */
  remapDomains(domains: readonly string[]): Promise<void>;
}

/**
 * The devices plugins put on one bridge (docs/plugins.md). They live beside the HA-entity devices under their own
 * endpoint ids (`p-…`), so the entity reconciliation never touches them; this shelf only keeps the list the API shows
 * and builds the seam the plugin host mounts through.
 */
export class PluginDeviceShelf {
  readonly #mounted = new Map<string, MountedPluginRow>();

  constructor(private readonly host: PluginShelfHost) {}

  get size(): number {
    return this.#mounted.size;
  }

  rows(): PluginDeviceInfo[] {
    return pluginDeviceRows(this.#mounted);
  }

  /** The node stopped: its plugin devices went with it. */
  clear(): void {
    this.#mounted.clear();
  }

  seam(): PluginBridgeSeam {
    const host = this.host;
    return {
      bridgeId: host.bridgeId,
      serverMode: () => host.serverMode(),
      running: () => host.runningNode() !== undefined,
      mount: async (spec) => {
        const node = host.runningNode();
        if (!node) throw new Error("the bridge is not running");
        const mounted = await mountPluginDevice(node, spec);
        this.#mounted.set(spec.endpointId, {
          name: spec.name,
          deviceType: spec.deviceType ?? null,
          plugin: spec.vendorName,
          endpointNumber: () => mounted.endpointNumber,
        });
        host.changed();
        return this.#tracked(spec.endpointId, mounted);
      },
      remapDomains: (domains) => host.remapDomains(domains),
    };
  }

  /** The mounted device, with unmount also taking it off the list. */
  #tracked(endpointId: string, mounted: MountedPluginDevice): MountedPluginDevice {
    const shelf = this.#mounted;
    const host = this.host;
    return {
      get endpointId() {
        return mounted.endpointId;
      },
      get endpointNumber() {
        return mounted.endpointNumber;
      },
      update: (clusterId, attributes) => mounted.update(clusterId, attributes),
      unmount: async () => {
        await mounted.unmount();
        if (shelf.delete(endpointId)) host.changed();
      },
    };
  }
}
