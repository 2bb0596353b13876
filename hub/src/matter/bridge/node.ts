import { EventEmitter } from "node:events";
import { join } from "node:path";
import { Endpoint, type ServerNode } from "@matter/main";
import { AggregatorEndpoint } from "@matter/main/endpoints/aggregator";
import { controllersFileName } from "../../bridges/bridge-files.ts";
import {
  type CommissioningInfo,
  type CommissioningWindow,
  MAX_WINDOW_SECONDS,
  MIN_WINDOW_SECONDS,
  openEnhancedWindow,
  readCommissioning,
} from "./commissioning.ts";
import { PeerAddressBook } from "./peer-address-book.ts";
import { type BridgeNodeOptions, createBridgeServerNode } from "./server-node.ts";
import { startErrorFor } from "./start-error.ts";
import { holdFormerSubscriptions, type ResumeSubscriptions } from "./subscription-resumption.ts";

export type { CommissioningInfo, CommissioningWindow, FabricInfo } from "./commissioning.ts";
export type { BridgeNodeOptions } from "./server-node.ts";
export { BridgeStartError } from "./start-error.ts";

/** Events of a {@link BridgeNode}; the commissioning ones carry the fresh commissioning state. */
export interface BridgeNodeEvents {
  online: [];
  offline: [];
  commissioned: [CommissioningInfo];
  decommissioned: [CommissioningInfo];
  fabricsChanged: [CommissioningInfo];
}

export type BridgeNodeStatus = "stopped" | "starting" | "running" | "stopping";

/**
 * One bridge = one matter.js ServerNode with its own port, fabrics and storage. Devices are matter.js Endpoints
 * with stable string ids: matter.js stores the endpoint number per id, so a device keeps its number across
 * restarts and across remove + add (see {@link removeDevice}). Endpoints belong to one run: `stop()` closes them,
 * and after a restart the caller adds fresh Endpoint instances (same ids, same numbers). Devices added while
 * stopped are held and attached when `start()` builds the node, which is much faster than adding them live.
 */
export class BridgeNode extends EventEmitter<BridgeNodeEvents> {
  readonly id: string;
  readonly name: string;
  readonly serverMode: boolean;
  readonly #options: BridgeNodeOptions;
  #node: ServerNode | undefined;
  #parent: Endpoint | undefined;
  readonly #staged = new Map<string, Endpoint>();
  #status: BridgeNodeStatus = "stopped";
  #snapshot: CommissioningInfo | undefined;
  #window: { close(): Promise<void> } | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  readonly #peers: PeerAddressBook;
  #untrack: (() => void) | undefined;

  constructor(options: BridgeNodeOptions) {
    super();
    this.id = options.id;
    this.name = options.name;
    this.serverMode = options.serverMode ?? false;
    this.#options = options;
    this.#peers = new PeerAddressBook(join(options.environment.storagePath, controllersFileName(options.id)));
  }

  get status(): BridgeNodeStatus {
    return this.#status;
  }

  /** The UDP port actually bound while running (differs from the option only when it was 0), else the option. */
  get port(): number {
    const bound = this.#node?.state.network.operationalPort;
    return bound !== undefined && bound > 0 ? bound : this.#options.port;
  }

  /**
   * Builds the node from storage, attaches the held devices and brings it online. A held device that matter.js
   * refuses (e.g. an attribute value outside its constraints) is left out and listed in `failedDevices` with the
   * error: one bad device never keeps the others offline. Rejects with a {@link BridgeStartError} (e.g. port in
   * use) after closing everything it opened; held devices are then gone. Resolves once the node is online; the
   * subscriptions controllers had before a restart are resumed right after (see subscription-resumption.ts).
   */
  async start(): Promise<{ failedDevices: ReadonlyMap<string, unknown> }> {
    let resume: ResumeSubscriptions | undefined;
    const started = await this.#exclusive(async () => {
      const failedDevices = new Map<string, unknown>();
      if (this.#node) return { failedDevices };
      this.#status = "starting";
      let node: ServerNode | undefined;
      try {
        node = await createBridgeServerNode(this.#options);
        const parent = this.serverMode ? node : await node.add(new Endpoint(AggregatorEndpoint, { id: "aggregator" }));
        for (const [id, endpoint] of this.#staged) {
          try {
            await parent.add(endpoint);
          } catch (error) {
            failedDevices.set(id, error);
          }
        }
        this.#staged.clear();
        if (this.serverMode && parent.parts.size === 0) {
          throw new Error("a server-mode bridge needs its device added before start()");
        }
        this.#snapshot = readCommissioning(node);
        this.#watch(node);
        await this.#peers.seed(node);
        resume = await holdFormerSubscriptions(node);
        await node.start();
        this.#untrack = this.#peers.track(node);
        this.#node = node;
        this.#parent = parent;
        this.#status = "running";
        return { failedDevices };
      } catch (error) {
        this.#staged.clear();
        this.#status = "stopped";
        await node?.close().catch(() => undefined);
        throw startErrorFor(error, this.name, this.#options.port);
      }
    });
    // Outside the queue: resuming waits on controllers (up to 2 s each) and must not hold up stop() or devices.
    void resume?.();
    return started;
  }

  /** Takes the node offline gracefully (sessions closed, mDNS withdrawn) and releases port and storage. */
  stop(): Promise<void> {
    return this.#exclusive(async () => {
      const node = this.#node;
      if (!node) return;
      this.#status = "stopping";
      this.#untrack?.();
      this.#untrack = undefined;
      try {
        await this.#window?.close().catch(() => undefined);
        this.#snapshot = readCommissioning(node);
        await this.#peers.save(node).catch(() => undefined);
        await node.close();
      } finally {
        this.#node = undefined;
        this.#parent = undefined;
        this.#window = undefined;
        this.#status = "stopped";
      }
    });
  }

  /**
   * Adds a device endpoint (its `id` must be set and unique in the bridge). Live while running: controllers see
   * the new PartsList at once. While stopped it is held until `start()`.
   */
  addDevice<T extends Endpoint>(endpoint: T): Promise<T> {
    return this.#exclusive(async () => {
      const id = endpoint.maybeId;
      if (id === undefined) throw new Error("a device endpoint needs an id");
      if (this.device(id)) throw new Error(`device "${id}" is already on bridge "${this.name}"`);
      if (!this.#parent) {
        this.#staged.set(id, endpoint);
        return endpoint;
      }
      await this.#parent.add(endpoint);
      return endpoint;
    });
  }

  /**
   * Removes a device. By default its endpoint number stays reserved for its id (matter.js keeps it in storage),
   * so adding the same id later restores the same number and controllers keep their names, rooms and automations.
   * `forget: true` erases its stored state and number for good (needs the bridge running).
   * Resolves false when there was no such device.
   */
  removeDevice(id: string, options: { forget?: boolean } = {}): Promise<boolean> {
    return this.#exclusive(async () => {
      if (!this.#parent) {
        if (options.forget) throw new Error("forgetting a device's endpoint number needs the bridge running");
        return this.#staged.delete(id);
      }
      const endpoint = this.#parent.parts.get(id);
      if (!endpoint) return false;
      if (options.forget) await endpoint.delete();
      else await endpoint.close();
      return true;
    });
  }

  /** The device endpoint with this id, attached or held. */
  device(id: string): Endpoint | undefined {
    return this.#parent ? this.#parent.parts.get(id) : this.#staged.get(id);
  }

  /**
   * The endpoint with this number while the node runs (the root is 0; the aggregator and the devices follow), for
   * the device inspector; undefined when stopped or when no endpoint has the number.
   */
  endpointByNumber(number: number): Endpoint | undefined {
    const node = this.#node;
    if (!node || this.#status !== "running") return undefined;
    let found: Endpoint | undefined;
    node.visit((endpoint) => {
      if (endpoint.maybeNumber === number) found ??= endpoint;
    });
    return found;
  }

  /** All device endpoints, attached or held. */
  devices(): Endpoint[] {
    return this.#parent ? [...this.#parent.parts] : [...this.#staged.values()];
  }

  /** Live commissioning state while running; the last known one when stopped; undefined before the first start. */
  commissioning(): CommissioningInfo | undefined {
    return this.#node ? readCommissioning(this.#node) : this.#snapshot;
  }

  /**
   * Factory reset: leaves every fabric, erases the node's storage (keys, fabrics, endpoint numbers, stored
   * attribute values) and comes back as new: commissionable again, with a new passcode and discriminator unless
   * fixed ones were given. Works running (the node goes back online) or stopped.
   */
  factoryReset(): Promise<CommissioningInfo> {
    return this.#exclusive(async () => {
      await this.#window?.close().catch(() => undefined);
      await this.#peers.erase();
      const running = this.#node;
      const node = running ?? (await createBridgeServerNode(this.#options));
      const wasCommissioned = readCommissioning(node).commissioned;
      try {
        await node.erase();
        this.#snapshot = readCommissioning(node);
      } finally {
        if (!running) await node.close();
      }
      // matter.js reports the fabrics leaving only when a controller removes them, not on erase().
      if (wasCommissioned) {
        this.emit("decommissioned", this.#snapshot);
        this.emit("fabricsChanged", this.#snapshot);
      }
      return this.#snapshot;
    });
  }

  /**
   * Opens an enhanced commissioning window so that another controller (ecosystem) can be added, and returns its
   * one-time codes. Replaces a window opened earlier. An uncommissioned bridge is commissionable anyway: its own
   * codes come back with `expiresAt: null`.
   */
  openCommissioningWindow(timeoutSeconds = MAX_WINDOW_SECONDS): Promise<CommissioningWindow | UncommissionedCodes> {
    return this.#exclusive(async () => {
      const node = this.#node;
      if (!node) throw new Error(`bridge "${this.name}" is not running`);
      if (timeoutSeconds < MIN_WINDOW_SECONDS || timeoutSeconds > MAX_WINDOW_SECONDS) {
        throw new RangeError(`a commissioning window lasts ${MIN_WINDOW_SECONDS} to ${MAX_WINDOW_SECONDS} seconds`);
      }
      const info = readCommissioning(node);
      if (!info.commissioned) {
        const { manualPairingCode, qrPairingCode, passcode, discriminator } = info;
        return { manualPairingCode, qrPairingCode, passcode, discriminator, expiresAt: null };
      }
      await this.#window?.close();
      const opened = await openEnhancedWindow(node, timeoutSeconds, () => {
        if (this.#window === opened) this.#window = undefined;
      });
      this.#window = opened;
      return opened.window;
    });
  }

  /** Closes a commissioning window opened by {@link openCommissioningWindow} early. */
  closeCommissioningWindow(): Promise<void> {
    return this.#exclusive(async () => {
      await this.#window?.close();
      this.#window = undefined;
    });
  }

  /** Re-emits the node's lifecycle; the observers die with the node, so nothing to detach. */
  #watch(node: ServerNode): void {
    const info = () => readCommissioning(node);
    node.lifecycle.online.on(() => void this.emit("online"));
    node.lifecycle.offline.on(() => void this.emit("offline"));
    node.lifecycle.commissioned.on(() => void this.emit("commissioned", info()));
    node.lifecycle.decommissioned.on(() => void this.emit("decommissioned", info()));
    node.events.commissioning.fabricsChanged.on(() => void this.emit("fabricsChanged", info()));
  }

  /** Serialises lifecycle and device changes: matter.js does not expect a close racing an add. */
  #exclusive<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(task, task);
    this.#queue = run.catch(() => undefined);
    return run;
  }
}

/** What {@link BridgeNode.openCommissioningWindow} returns for a bridge that has no fabric yet. */
export interface UncommissionedCodes extends Omit<CommissioningWindow, "expiresAt"> {
  expiresAt: null;
}
