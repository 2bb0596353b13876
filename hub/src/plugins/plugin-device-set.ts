/**
 * The Matter devices one plugin has on one bridge. Endpoint ids are derived from plugin name and device id
 * (`p-<plugin>-<device>`, hashed when the names need cleaning), so a device keeps its endpoint number through
 * restarts, re-registration and plugin failures. Mounts and unmounts of the set run one at a time.
 */
import { createHash } from "node:crypto";
import type { Logger } from "../../../lib/logger.ts";
import { hashedId } from "../matter/matter-strings.ts";
import type { BuiltinEndpoint, MountedPluginDevice, PluginBridgeSeam } from "../matter/plugin-devices/seam.ts";
import { SerialWriter } from "../storage/atomic-file.ts";
import type { AttributeWriteHandler, PluginDeviceRegistration } from "./api.ts";

/** The stable endpoint id of a plugin device. */
export function pluginEndpointId(plugin: string, deviceId: string): string {
  const clean = (value: string) => value.replace(/[^A-Za-z0-9_]/g, "_");
  const id = `p-${clean(plugin)}-${clean(deviceId)}`;
  if (clean(plugin) === plugin && clean(deviceId) === deviceId && id.length <= 64) return id;
  const hash = createHash("sha256").update(`${plugin}\0${deviceId}`).digest("hex").slice(0, 8);
  return `${id.slice(0, 55)}-${hash}`;
}

/** A registration plugin-context.ts has checked: an `endpointType` is a built-in's {@link BuiltinEndpoint}. */
export type CheckedRegistration = Omit<PluginDeviceRegistration, "endpointType"> & { endpointType?: BuiltinEndpoint };

interface Entry {
  name: string;
  deviceType: string | null;
  handle: MountedPluginDevice;
  /** The plugin run that registered it; devices of older runs not registered again are swept. */
  run: number;
  reachable: boolean;
}

/** One row of `GET /api/plugins` per device. */
export interface PluginDeviceRow {
  id: string;
  name: string;
  deviceType: string | null;
  endpointId: string;
  endpointNumber: number | null;
  reachable: boolean;
}

export class PluginDeviceSet {
  readonly #devices = new Map<string, Entry>();
  readonly #queue = new SerialWriter();

  constructor(
    private readonly seam: PluginBridgeSeam,
    private readonly plugin: string,
    private readonly log: Logger,
  ) {}

  get size(): number {
    return this.#devices.size;
  }

  /**
   * Mounts the device (replacing one registered under the same id: same endpoint id, same number). `onWrite`
   * receives the plugin's onAttributeWrite calls; the caller wraps it with the time-out and run check.
   */
  register(
    run: number,
    device: CheckedRegistration,
    onWrite: (handler: AttributeWriteHandler, ...args: [string, string, unknown]) => void,
  ) {
    return this.#queue.run(async () => {
      const existing = this.#devices.get(device.id);
      if (existing) {
        this.#devices.delete(device.id);
        await existing.handle
          .unmount()
          .catch((error: unknown) => this.log.warn({ err: error }, "could not remove a replaced device"));
      }
      const handler = device.onAttributeWrite;
      const handle = await this.seam.mount({
        endpointId: pluginEndpointId(this.plugin, device.id),
        name: device.name,
        deviceType: device.deviceType,
        endpointType: device.endpointType,
        clusters: device.clusters ?? [],
        uniqueId: hashedId(`matter-hub-plugin:${this.seam.bridgeId}:${this.plugin}:${device.id}`),
        vendorName: "Matter Hub plugin",
        productName: this.plugin,
        onWrite: (clusterId, attribute, value) => {
          if (handler) onWrite(handler, clusterId, attribute, value);
        },
      });
      this.#devices.set(device.id, { name: device.name, deviceType: device.deviceType ?? null, handle, run, reachable: true });
    });
  }

  unregister(deviceId: string): Promise<boolean> {
    return this.#queue.run(async () => {
      const entry = this.#devices.get(deviceId);
      if (!entry) return false;
      this.#devices.delete(deviceId);
      await entry.handle.unmount();
      return true;
    });
  }

  async update(deviceId: string, clusterId: string, attributes: Record<string, unknown>): Promise<void> {
    const entry = this.#devices.get(deviceId);
    if (!entry) throw new Error(`no device "${deviceId}" is registered`);
    await entry.handle.update(clusterId, attributes);
    if (clusterId === "bridgedDeviceBasicInformation" && typeof attributes.reachable === "boolean")
      entry.reachable = attributes.reachable;
  }

  /** Marks every device (un)reachable: a failed plugin's devices stay, so controllers keep rooms and automations. */
  async setReachable(reachable: boolean): Promise<void> {
    for (const [id, entry] of this.#devices) {
      if (entry.reachable === reachable) continue;
      await this.update(id, "bridgedDeviceBasicInformation", { reachable }).catch(() => undefined);
    }
  }

  /** Removes every device at once (disable, uninstall). */
  unmountAll(): Promise<void> {
    return this.#queue.run(async () => {
      for (const [id, entry] of [...this.#devices]) {
        this.#devices.delete(id);
        await entry.handle
          .unmount()
          .catch((error: unknown) => this.log.warn({ err: error, deviceId: id }, "could not remove a device"));
      }
    });
  }

  /** Removes the devices of earlier runs that this run did not register again. */
  sweep(run: number): Promise<void> {
    return this.#queue.run(async () => {
      for (const [id, entry] of [...this.#devices]) {
        if (entry.run >= run) continue;
        this.#devices.delete(id);
        await entry.handle.unmount().catch(() => undefined);
      }
    });
  }

  /** The bridge's node is stopping and closes the endpoints itself: just forget them. */
  forget(): void {
    this.#devices.clear();
  }

  rows(): PluginDeviceRow[] {
    return [...this.#devices].map(([id, entry]) => ({
      id,
      name: entry.name,
      deviceType: entry.deviceType,
      endpointId: entry.handle.endpointId,
      endpointNumber: entry.handle.endpointNumber ?? null,
      reachable: entry.reachable,
    }));
  }
}
