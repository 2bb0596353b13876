import type { BridgeService } from "../bridges/bridge-service.ts";
import { UpdateThrottle } from "./update-throttle.ts";

/** Where the feed delivers: the subscribers of one bridge's devices. */
export type DeviceFeedSend = (bridgeId: string, message: { type: "devices_update"; bridgeId: string; data: unknown[] }) => void;

/**
 * Live device rows of the bridges someone watches (`subscribe_devices`, docs/live-channel.md). Each HA state change of
 * an exposed entity marks its row; the marked rows of a bridge go out together, at once for the first change and then
 * at most once per window, so a burst of changes costs one message per bridge per window, not one per change. Bridges
 * nobody watches cost nothing beyond a map lookup per change.
 */
export class DeviceFeed {
  readonly #watchers = new Map<string, number>();
  readonly #dirty = new Map<string, Set<string>>();
  readonly #throttle: UpdateThrottle;

  constructor(
    private readonly bridges: BridgeService,
    private readonly send: DeviceFeedSend,
    windowMs: number,
  ) {
    this.#throttle = new UpdateThrottle(windowMs, (bridgeId) => this.#flush(bridgeId));
    bridges.on("deviceChanged", this.#onDeviceChanged);
  }

  /** One more subscriber of this bridge's devices. Returns its rows now (the snapshot to send first). */
  watch(bridgeId: string): { devices: unknown[]; pluginDevices: unknown[] } {
    const snapshot = { devices: this.bridges.devices(bridgeId), pluginDevices: this.bridges.pluginDevices(bridgeId) };
    this.#watchers.set(bridgeId, (this.#watchers.get(bridgeId) ?? 0) + 1);
    return snapshot;
  }

  unwatch(bridgeId: string): void {
    const count = (this.#watchers.get(bridgeId) ?? 0) - 1;
    if (count > 0) {
      this.#watchers.set(bridgeId, count);
      return;
    }
    this.#watchers.delete(bridgeId);
    this.#dirty.delete(bridgeId);
  }

  watched(bridgeId: string): boolean {
    return this.#watchers.has(bridgeId);
  }

  close(): void {
    this.bridges.off("deviceChanged", this.#onDeviceChanged);
    this.#throttle.reset();
    this.#dirty.clear();
    this.#watchers.clear();
  }

  readonly #onDeviceChanged = (bridgeId: string, entityId: string) => {
    if (!this.#watchers.has(bridgeId)) return;
    let dirty = this.#dirty.get(bridgeId);
    if (!dirty) {
      dirty = new Set();
      this.#dirty.set(bridgeId, dirty);
    }
    dirty.add(entityId);
    this.#throttle.touch(bridgeId);
  };

  #flush(bridgeId: string): void {
    const dirty = this.#dirty.get(bridgeId);
    this.#dirty.delete(bridgeId);
    if (!dirty || !this.#watchers.has(bridgeId)) return;
    const rows: unknown[] = [];
    for (const entityId of dirty) {
      try {
        const row = this.bridges.device(bridgeId, entityId);
        if (row) rows.push(row);
      } catch {
        return; // the bridge was deleted: its subscribers learn it from `bridges_update`
      }
    }
    if (rows.length > 0) this.send(bridgeId, { type: "devices_update", bridgeId, data: rows });
  }
}
