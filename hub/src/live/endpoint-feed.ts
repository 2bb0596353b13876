import { HttpError } from "../../../lib/http-error.ts";
import type { BridgeService } from "../bridges/bridge-service.ts";
import type { AttributePath } from "../bridges/endpoint-inspection.ts";
import type { ServerMessage } from "./live-protocol.ts";
import { UpdateThrottle } from "./update-throttle.ts";

type EndpointMessage = Extract<ServerMessage, { type: "endpoint_snapshot" | "endpoint_update" }>;

interface Watch {
  bridgeId: string;
  endpointNumber: number;
  send: (message: EndpointMessage) => void;
  /** Ends the node-side watch; undefined while there is nothing to watch (bridge stopped, no such endpoint). */
  stop: (() => void) | undefined;
  /** Attributes reported changed since the last `endpoint_update`, by `cluster/attribute`. */
  dirty: Map<string, AttributePath>;
}

/**
 * The device inspector's live values (`subscribe_endpoint`, docs/live-channel.md): each client watches at most one
 * endpoint. Its snapshot goes out on subscribe and again whenever its bridge's record changes (a restart gives a new
 * node, a device set change may remove the endpoint); in between, the attributes the node reports changed are read
 * and sent, at once for the first change and then at most once per window. Nothing is watched on the node for an
 * endpoint nobody inspects.
 */
export class EndpointFeed {
  readonly #watches = new Map<string, Watch>();
  readonly #throttle: UpdateThrottle;

  constructor(
    private readonly bridges: BridgeService,
    windowMs: number,
  ) {
    this.#throttle = new UpdateThrottle(windowMs, (key) => this.#flush(key));
  }

  /**
   * `key` (one per client) now watches this endpoint, replacing what it watched; its snapshot is sent at once.
   * Throws the 404 of an unknown bridge (the client gets an `error`, and keeps its previous watch).
   */
  watch(key: string, bridgeId: string, endpointNumber: number, send: Watch["send"]): void {
    this.bridges.config(bridgeId);
    this.unwatch(key);
    const watch: Watch = { bridgeId, endpointNumber, send, stop: undefined, dirty: new Map() };
    this.#watches.set(key, watch);
    this.#attach(key, watch);
  }

  unwatch(key: string): void {
    const watch = this.#watches.get(key);
    if (!watch) return;
    watch.stop?.();
    this.#watches.delete(key);
  }

  /** The bridge's record changed (status, devices): its watchers get a fresh snapshot on the current node. */
  bridgeChanged(bridgeId: string): void {
    for (const [key, watch] of this.#watches) if (watch.bridgeId === bridgeId) this.#attach(key, watch);
  }

  /** Bridges were created or deleted: the watchers of a deleted one are told it is gone. */
  listChanged(): void {
    for (const [key, watch] of this.#watches) {
      try {
        this.bridges.config(watch.bridgeId);
      } catch {
        this.#attach(key, watch);
      }
    }
  }

  close(): void {
    for (const key of [...this.#watches.keys()]) this.unwatch(key);
    this.#throttle.reset();
  }

  /** (Re)starts the node-side watch and sends the snapshot, or a null one saying why there is nothing to show. */
  #attach(key: string, watch: Watch): void {
    watch.stop?.();
    watch.stop = undefined;
    watch.dirty.clear();
    const { bridgeId, endpointNumber } = watch;
    let reason: string | null = null;
    try {
      // Subscribe first, then read: a change between the two is sent again rather than lost.
      watch.stop = this.bridges.watchEndpoint(bridgeId, endpointNumber, (paths) => {
        for (const path of paths) watch.dirty.set(`${path.clusterId}/${path.attributeId}`, path);
        this.#throttle.touch(key);
      });
      const data = this.bridges.inspect(bridgeId, endpointNumber) ?? null;
      if (!data) {
        const { status } = this.bridges.record(bridgeId);
        reason = status === "running" ? `Bridge ${bridgeId} has no endpoint ${endpointNumber}` : `The bridge is ${status}`;
      }
      watch.send({ type: "endpoint_snapshot", bridgeId, endpointNumber, data, reason });
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      watch.send({ type: "endpoint_snapshot", bridgeId, endpointNumber, data: null, reason: error.message });
    }
  }

  #flush(key: string): void {
    const watch = this.#watches.get(key);
    if (!watch || watch.dirty.size === 0) return;
    const paths = [...watch.dirty.values()];
    watch.dirty.clear();
    let attributes: ReturnType<BridgeService["readAttributes"]>;
    try {
      attributes = this.bridges.readAttributes(watch.bridgeId, watch.endpointNumber, paths);
    } catch {
      return; // the bridge was deleted: `listChanged` tells the watcher
    }
    if (!attributes || attributes.length === 0) return;
    watch.send({
      type: "endpoint_update",
      bridgeId: watch.bridgeId,
      endpointNumber: watch.endpointNumber,
      data: { readAt: new Date().toISOString(), attributes },
    });
  }
}
