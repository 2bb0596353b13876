import type { Endpoint } from "@matter/main";
import type { Logger } from "../../../lib/logger.ts";
import type { BridgeConfig } from "../bridges/bridge-config.ts";
import type {
  BridgeDeviceInfo,
  BridgeRuntime,
  BridgeStatus,
  CommissioningInfo,
  ForceSyncReport,
  PluginDeviceInfo,
} from "../bridges/bridge-runtime.ts";
import type { EndpointIdentities } from "../bridges/endpoint-identities.ts";
import { type CompiledFilter, compileFilter } from "../bridges/filter.ts";
import type { EntityMappingStore } from "../entity-mappings/entity-mapping-store.ts";
import { type EntityView, viewEntity } from "../home-assistant/entity-view.ts";
import type { HomeAssistantService } from "../home-assistant/home-assistant-service.ts";
import { createBridgeNode, createEntityEndpoint, PRODUCT_ID, VENDOR_ID } from "./bridge-builders.ts";
import { type DeviceSets, deviceRow, deviceRows, type ExposedDevice } from "./bridge-device-rows.ts";
import type { BridgeNode } from "./bridge-node.ts";
import { PluginDeviceShelf } from "./bridge-plugin-devices.ts";
import type { DeviceTypeKey, EntitySnapshot, PinCheck } from "./devices/contract.ts";
import { mapEntity } from "./devices/domain-table.ts";
import { cutUtf8, updateDeviceEndpoint } from "./devices/endpoint-types.ts";
import { entityFailureReason } from "./entity-failure.ts";
import { forceSync } from "./force-sync.ts";
import type { MatterEnvironment } from "./matter-environment.ts";
import { pairingCodesFor } from "./pairing-codes.ts";
import { allowedDeviceTypes, resolveEntityMapping } from "./plugin-devices/plugin-mount.ts";
import type { PluginHostFactory, PluginHostForBridge } from "./plugin-devices/seam.ts";

/** What every Matter bridge runtime of a hub shares. */
export interface MatterBridgeDeps {
  environment: MatterEnvironment;
  ha: HomeAssistantService;
  mappings: EntityMappingStore;
  identities: (bridgeId: string) => EndpointIdentities;
  log: Logger;
  version: string;
  pinCheck?: PinCheck;
  /** Plugin host seam (hub-plugins.md): builds this bridge's plugin host; without it the bridge hosts no plugins. */
  plugins?: PluginHostFactory;
}

interface Exposed extends ExposedDevice {
  key: DeviceTypeKey;
  endpoint: Endpoint;
  off: () => void;
}

/**
 * One bridge on matter.js: a BridgeNode whose devices follow the bridge's filter over the hub's HA model. Structural
 * HA changes re-evaluate only the affected entities; state changes reach only the endpoint of the entity that
 * changed. Each entity keeps its endpoint id (and so its Matter endpoint number) through renames, restarts and
 * temporary disappearance.
 */
export class MatterBridgeRuntime implements BridgeRuntime {
  #config: BridgeConfig;
  #node: BridgeNode | undefined;
  #status: BridgeStatus = "stopped";
  #statusReason: string | null = null;
  #filter: CompiledFilter;
  #lastCommissioning: CommissioningInfo | undefined;
  readonly #exposed = new Map<string, Exposed>();
  readonly #skipped = new Map<string, { name: string; reason: string }>();
  /** Entities whose device could not be built; each is retried when its HA state changes (`off` stops that). */
  readonly #failed = new Map<string, { name: string; reason: string; off: () => void }>();
  readonly #log: Logger;
  readonly #identities: EndpointIdentities;
  #queue: Promise<unknown> = Promise.resolve();
  #unsubscribe: (() => void)[] = [];
  readonly #plugins: PluginHostForBridge | undefined;
  /** Devices mounted by plugins. */
  readonly #pluginDevices: PluginDeviceShelf;

  constructor(
    config: BridgeConfig,
    private readonly deps: MatterBridgeDeps,
    private readonly onChange: () => void,
    private readonly onDeviceChange: (entityId: string) => void = () => undefined,
  ) {
    this.#config = config;
    this.#log = deps.log.child({ bridgeId: config.id, bridge: config.name });
    this.#filter = compileFilter(config.filter, deps.ha.model);
    this.#identities = deps.identities(config.id);
    this.#pluginDevices = new PluginDeviceShelf({
      bridgeId: config.id,
      serverMode: () => this.#config.serverMode,
      runningNode: () => (this.#status === "running" ? this.#node : undefined),
      changed: () => this.onChange(),
      // Plugin domain mappings changed: re-run the entity reconciliation of those domains.
      remapDomains: (domains) =>
        this.#serial(async () => {
          const ids = [...this.#candidates()].filter((id) => domains.includes(id.slice(0, id.indexOf("."))));
          for (const id of ids.sort()) await this.#reconcileOne(id);
          if (ids.length > 0) this.onChange();
        }),
    });
    this.#plugins = deps.plugins?.(this.#pluginDevices.seam());
  }

  get status(): BridgeStatus {
    return this.#status;
  }
  get statusReason(): string | null {
    return this.#statusReason;
  }

  async start(): Promise<void> {
    if (this.#node) return;
    this.#set("starting", this.deps.ha.client.status.connected ? null : "Waiting for Home Assistant");
    await this.deps.ha.whenLoaded();
    await this.#identities.load();
    const node = createBridgeNode(this.#config, this.deps);
    this.#node = node;
    try {
      const ids = [...this.deps.ha.model.entityIds()].sort();
      for (const id of ids) await this.#reconcileOne(id);
      if (this.#config.serverMode && this.#exposed.size === 0) {
        throw new Error("no entity of this server-mode bridge can be exposed");
      }
      await this.#identities.flush();
      const { failedDevices } = await node.start();
      for (const [entityId, exposed] of [...this.#exposed]) {
        if (!failedDevices.has(exposed.endpointId)) continue;
        exposed.off();
        this.#exposed.delete(entityId);
        this.#markFailed(entityId, exposed.name, failedDevices.get(exposed.endpointId), undefined);
      }
      this.#watch();
      this.#set("running", null);
      this.#log.info({ devices: this.#exposed.size, port: node.port }, `bridge "${this.#config.name}" running`);
      this.#plugins?.start();
    } catch (error) {
      this.#teardownDevices();
      this.#node = undefined;
      await node.stop().catch(() => undefined);
      const reason = (error as Error).message;
      this.#set("failed", reason);
      this.#log.error({ err: error }, `bridge "${this.#config.name}" failed to start: ${reason}`);
    }
  }

  async stop(): Promise<void> {
    if (this.#node) await this.#plugins?.stop("bridge stopping");
    const node = this.#node;
    for (const off of this.#unsubscribe.splice(0)) off();
    this.#teardownDevices();
    this.#node = undefined;
    if (node) {
      this.#lastCommissioning = node.commissioning();
      await node.stop();
    }
    this.#set("stopped", null);
  }

  refresh(): Promise<void> {
    return this.#serial(async () => {
      if (!this.#node) return;
      for (const id of this.#candidates()) await this.#reconcileOne(id);
      this.onChange();
    });
  }

  /** Force-sync: see force-sync.ts. */
  async forceSync(): Promise<ForceSyncReport> {
    const report = await forceSync({
      ha: this.deps.ha,
      log: this.#log,
      devices: () => this.#exposed,
      snapshot: (entityId, name) => {
        const view = viewEntity(this.deps.ha.model, entityId);
        return view ? this.#snapshot(view, name) : undefined;
      },
      rebuild: (entityId) => this.#rebuild(entityId),
      serial: (task) => this.#serial(task),
    });
    this.#log.info(report, `bridge "${this.#config.name}" force-synced`);
    return report;
  }

  async factoryReset(passcode: number, discriminator: number): Promise<void> {
    const wasRunning = this.#node !== undefined;
    await this.stop();
    this.#config = { ...this.#config, passcode, discriminator };
    const node = createBridgeNode(this.#config, this.deps);
    this.#lastCommissioning = await node.factoryReset();
    if (wasRunning) await this.start();
    else this.onChange();
  }

  async openCommissioningWindow(timeoutSeconds: number) {
    if (!this.#node) throw new Error("the bridge is not running");
    const window = await this.#node.openCommissioningWindow(timeoutSeconds);
    return { manualPairingCode: window.manualPairingCode, qrPairingCode: window.qrPairingCode, timeoutSeconds };
  }

  commissioning(): CommissioningInfo {
    const live = this.#node?.commissioning() ?? this.#lastCommissioning;
    if (live) return live;
    // Never started: the codes follow from the stored passcode and discriminator.
    const { passcode, discriminator } = this.#config;
    return {
      commissioned: false,
      ...pairingCodesFor({ passcode, discriminator, vendorId: VENDOR_ID, productId: PRODUCT_ID }),
      passcode: this.#config.passcode,
      discriminator: this.#config.discriminator,
      fabrics: [],
    };
  }

  deviceCount(): number {
    return this.#exposed.size + this.#pluginDevices.size;
  }

  devices(): BridgeDeviceInfo[] {
    return deviceRows(this.deps.ha.model, this.#sets());
  }

  device(entityId: string): BridgeDeviceInfo | undefined {
    return deviceRow(this.deps.ha.model, this.#sets(), entityId);
  }

  pluginDevices(): PluginDeviceInfo[] {
    return this.#pluginDevices.rows();
  }

  #sets(): DeviceSets {
    return { exposed: this.#exposed, skipped: this.#skipped, failed: this.#failed };
  }

  allowedDeviceTypes(entityId: string): readonly string[] | undefined {
    const view = viewEntity(this.deps.ha.model, entityId);
    if (!view?.state) return undefined;
    return allowedDeviceTypes(this.#snapshot(view, view.name), (domain) => this.#plugins?.mappingFor(domain));
  }

  async reconfigure(config: BridgeConfig): Promise<void> {
    const filterChanged = JSON.stringify(config.filter) !== JSON.stringify(this.#config.filter);
    this.#config = config;
    this.#filter = compileFilter(config.filter, this.deps.ha.model);
    if (filterChanged) await this.refresh();
  }

  async dispose(): Promise<void> {
    await this.stop();
    await this.#plugins?.dispose();
  }

  /** Subscribes to what can change the device set or a device, once the node runs. */
  #watch(): void {
    const model = this.deps.ha.model;
    this.#unsubscribe.push(
      model.onStructure((ids) => {
        void this.#serial(async () => {
          // Removals first: a renamed entity hands its endpoint id from the old entity id to the new one.
          const sorted = [...ids].sort((a, b) => Number(this.#exposed.has(b)) - Number(this.#exposed.has(a)));
          for (const id of sorted) await this.#reconcileOne(id);
          this.onChange();
        });
      }),
      this.deps.mappings.onChange((bridgeId, ids) => {
        if (bridgeId !== this.#config.id) return;
        void this.#serial(async () => {
          for (const id of ids) await this.#reconcileOne(id);
          this.onChange();
        });
      }),
    );
    const node = this.#node;
    if (node) {
      const changed = () => this.onChange();
      node.on("fabricsChanged", changed);
      node.on("commissioned", changed);
      node.on("decommissioned", changed);
      this.#unsubscribe.push(() => {
        node.off("fabricsChanged", changed);
        node.off("commissioned", changed);
        node.off("decommissioned", changed);
      });
    }
  }

  #candidates(): Set<string> {
    return new Set([...this.deps.ha.model.entityIds(), ...this.#exposed.keys(), ...this.#skipped.keys(), ...this.#failed.keys()]);
  }

  /** Brings one entity's device in line with HA, the filter and its mapping. One failing entity never fails the bridge. */
  async #reconcileOne(entityId: string): Promise<void> {
    const node = this.#node;
    if (!node) return;
    const view = viewEntity(this.deps.ha.model, entityId);
    const mapping = this.deps.mappings.get(this.#config.id, entityId);
    const exposed = this.#exposed.get(entityId);
    this.#skipped.delete(entityId);
    const previousFailure = this.#failed.get(entityId)?.reason;
    this.#failed.get(entityId)?.off();
    this.#failed.delete(entityId);
    const name = cutUtf8(mapping?.customName || view?.name || entityId);
    const skip = async (reason: string | undefined) => {
      if (exposed) await this.#remove(entityId, exposed);
      if (reason) this.#skipped.set(entityId, { name, reason });
    };
    if (!view || !this.#filter.matches(view)) return skip(undefined);
    if (mapping?.disabled) return skip("disabled in the entity mapping");
    if (!view.state) return skip("Home Assistant has no state for this entity");
    const override = (mapping?.matterDeviceType as DeviceTypeKey | null) ?? null;
    const decision = this.#plugins
      ? resolveEntityMapping(this.#snapshot(view, name), override, (domain) => this.#plugins?.mappingFor(domain))
      : mapEntity(this.#snapshot(view, name), override);
    if ("unsupported" in decision) return skip(decision.unsupported);
    // The identity decides the endpoint: an entity whose registry entry showed up late gets its own endpoint back.
    const endpointId = this.#identities.endpointIdFor(view);
    // A running node shows a new device to controllers at once: its identity is saved first. While starting, the
    // identities are saved once, before the node starts.
    if (this.#status === "running") await this.#identities.flush();
    if (exposed && exposed.key === decision.key && exposed.endpointId === endpointId) {
      exposed.name = name;
      await this.#update(entityId, exposed);
      return;
    }
    if (exposed) await this.#remove(entityId, exposed);
    try {
      await this.#add(view, endpointId, decision.key, name);
    } catch (error) {
      this.#markFailed(entityId, name, error, previousFailure);
    }
  }

  /** Lists the entity as failed with the reason, and retries it on its next HA state (HA may fix the bad value). */
  #markFailed(entityId: string, name: string, error: unknown, previousFailure: string | undefined): void {
    const off = this.deps.ha.model.onEntity(entityId, () => void this.#serial(() => this.#retryFailed(entityId)));
    const reason = entityFailureReason(error);
    this.#failed.set(entityId, { name, reason, off });
    // Once per reason: a sensor failing the same way on every update must not flood the log.
    if (reason === previousFailure) this.#log.debug({ entityId, reason }, `still cannot expose ${entityId}`);
    else this.#log.warn({ entityId, reason, err: error }, `could not expose ${entityId}: ${reason}`);
  }

  async #add(view: EntityView, endpointId: string, key: DeviceTypeKey, name: string): Promise<void> {
    const node = this.#node!;
    // The same identity may still be attached under an old entity id (a rename in one batch): detach it.
    for (const [otherId, other] of this.#exposed) if (other.endpointId === endpointId) await this.#remove(otherId, other);
    const endpoint = createEntityEndpoint({
      bridge: this.#config,
      view,
      endpointId,
      key,
      snapshot: this.#snapshot(view, name),
      ha: this.deps.ha,
      pinCheck: this.deps.pinCheck,
    });
    await node.addDevice(endpoint);
    const entityId = view.entityId;
    const exposed: Exposed = { endpointId, key, name, endpoint, off: () => undefined };
    exposed.off = this.deps.ha.model.onEntity(entityId, () => void this.#update(entityId, exposed));
    this.#exposed.set(entityId, exposed);
  }

  async #remove(entityId: string, exposed: Exposed): Promise<void> {
    exposed.off();
    this.#exposed.delete(entityId);
    await this.#node
      ?.removeDevice(exposed.endpointId)
      .catch((error: unknown) => this.#log.warn({ err: error, entityId }, "remove failed"));
  }

  /** Pushes HA's current state to the endpoint; never awaited on the path that delivers HA call results. */
  async #update(entityId: string, exposed: Exposed): Promise<void> {
    const view = viewEntity(this.deps.ha.model, entityId);
    if (!view) return;
    try {
      const result = await updateDeviceEndpoint(exposed.endpoint, this.#snapshot(view, exposed.name));
      if (result.rebuild) void this.#serial(() => this.#rebuild(entityId));
    } catch (error) {
      this.#log.warn({ entityId, err: error }, "could not update a device");
    }
    this.onDeviceChange(entityId);
  }

  async #retryFailed(entityId: string): Promise<void> {
    if (!this.#failed.has(entityId)) return;
    await this.#reconcileOne(entityId);
    if (!this.#failed.has(entityId)) this.onChange();
  }

  /** The entity's capabilities changed: same endpoint id (and number), new clusters. */
  async #rebuild(entityId: string): Promise<void> {
    const exposed = this.#exposed.get(entityId);
    if (!exposed) return;
    await this.#remove(entityId, exposed);
    await this.#reconcileOne(entityId);
    this.onChange();
  }

  #snapshot(view: EntityView | undefined, name: string): EntitySnapshot {
    const entityId = view?.entityId ?? "";
    return { entityId, domain: entityId.slice(0, entityId.indexOf(".")), state: view?.state, name };
  }

  #teardownDevices(): void {
    for (const exposed of this.#exposed.values()) exposed.off();
    for (const failed of this.#failed.values()) failed.off();
    this.#pluginDevices.clear();
    this.#exposed.clear();
    this.#skipped.clear();
    this.#failed.clear();
  }

  #set(status: BridgeStatus, reason: string | null): void {
    this.#status = status;
    this.#statusReason = reason;
    this.onChange();
  }

  #serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(task, task);
    this.#queue = run.catch(() => undefined);
    return run;
  }
}
