import { createHash } from "node:crypto";
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
import {
  type DeviceSets,
  deviceRow,
  deviceRows,
  type ExposedDevice,
  type MountedPluginRow,
  pluginDeviceRows,
} from "./bridge-device-rows.ts";
import { BridgeNode } from "./bridge-node.ts";
import { type DeviceTypeKey, type EntitySnapshot, NO_PIN_REQUIRED, type PinCheck } from "./devices/contract.ts";
import { mapEntity } from "./devices/domain-table.ts";
import { createDeviceEndpoint, cutUtf8, updateDeviceEndpoint } from "./devices/endpoint-types.ts";
import { entityFailureReason } from "./entity-failure.ts";
import type { MatterEnvironment } from "./matter-environment.ts";
import { pairingCodesFor } from "./pairing-codes.ts";
import { allowedDeviceTypes, mountPluginDevice, resolveEntityMapping } from "./plugin-devices/plugin-mount.ts";
import type { PluginBridgeSeam, PluginHostFactory, PluginHostForBridge } from "./plugin-devices/seam.ts";

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

const VENDOR_ID = 0xfff1;
const PRODUCT_ID = 0x8000;

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
  /** Devices mounted by plugins, by endpoint id. */
  readonly #pluginDevices = new Map<string, MountedPluginRow>();

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
    this.#plugins = deps.plugins?.(this.#pluginSeam());
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
    const node = this.#createNode();
    this.#node = node;
    try {
      const ids = [...this.deps.ha.model.entityIds()].sort();
      for (const id of ids) await this.#reconcileOne(id);
      if (this.#config.serverMode && this.#exposed.size === 0) {
        throw new Error("no entity of this server-mode bridge can be exposed");
      }
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

  /**
   * Force-sync (docs/decisions.md): re-reads HA's state (`get_states`, so changes the event stream missed count too),
   * then compares every attribute of every device with HA's state and writes each one that differs, whoever changed
   * it. matter.js reports exactly the written attributes to every subscribed controller; unchanged attributes already
   * hold the value the controllers last got, and a controller whose subscription broke gets everything when it
   * subscribes again.
   */
  async forceSync(): Promise<ForceSyncReport> {
    let haStateReread = true;
    let missed: string[] = [];
    try {
      // Changed entities reach their endpoints through the usual per-entity listeners.
      missed = await this.deps.ha.resyncStates();
    } catch (error) {
      haStateReread = false;
      this.#log.warn({ err: error }, "force-sync: could not re-read Home Assistant's states; pushing the last known ones");
    }
    return this.#serial(async () => {
      const model = this.deps.ha.model;
      let correctedAttributes = 0;
      const devices = [...this.#exposed.entries()];
      for (const [entityId, exposed] of devices) {
        const view = viewEntity(model, entityId);
        if (!view) continue;
        try {
          const result = await updateDeviceEndpoint(exposed.endpoint, this.#snapshot(view, exposed.name));
          correctedAttributes += result.changed.length;
          if (result.rebuild) await this.#rebuild(entityId);
        } catch (error) {
          this.#log.warn({ entityId, err: error }, "force-sync: could not update a device");
        }
      }
      const missedChanges = missed.filter((id) => this.#exposed.has(id)).length;
      const report = { devices: devices.length, missedChanges, correctedAttributes, haStateReread };
      this.#log.info(report, `bridge "${this.#config.name}" force-synced`);
      return report;
    });
  }

  async factoryReset(passcode: number, discriminator: number): Promise<void> {
    const wasRunning = this.#node !== undefined;
    await this.stop();
    this.#config = { ...this.#config, passcode, discriminator };
    const node = this.#createNode();
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
    return pluginDeviceRows(this.#pluginDevices);
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

  #createNode(): BridgeNode {
    const config = this.#config;
    return new BridgeNode({
      id: config.id,
      name: config.name,
      port: config.port,
      passcode: config.passcode,
      discriminator: config.discriminator,
      vendorId: VENDOR_ID,
      productId: PRODUCT_ID,
      vendorName: "Matter Hub",
      productName: config.serverMode ? "Matter Hub Device" : "Matter Hub Bridge",
      serialNumber: `mh-${config.id}`,
      uniqueId: createHash("sha256").update(`matter-hub-bridge:${config.id}`).digest("hex").slice(0, 32),
      softwareVersion: this.deps.version,
      serverMode: config.serverMode,
      environment: this.deps.environment,
    });
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
    const endpointId = await this.#identities.endpointIdFor(view);
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
    const device = view.device;
    const endpoint = createDeviceEndpoint({
      id: endpointId,
      snapshot: this.#snapshot(view, name),
      key,
      serverMode: this.#config.serverMode,
      actions: this.deps.ha.actions,
      pinCheck: this.deps.pinCheck ?? NO_PIN_REQUIRED,
      unitSystem: { temperature: this.deps.ha.model.config?.unit_system?.temperature ?? "°C" },
      basicInformation: {
        uniqueId: createHash("sha256").update(`matter-hub:${endpointId}:${this.#config.id}`).digest("hex").slice(0, 32),
        ...(device?.manufacturer ? { vendorName: cutUtf8(device.manufacturer) } : {}),
        ...(device?.model ? { productName: cutUtf8(device.model) } : {}),
        ...(device?.serial_number ? { serialNumber: cutUtf8(device.serial_number) } : {}),
      },
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

  // ---- Plugin host seam (hub-plugins.md): plugin devices live beside the HA-entity devices, under their own
  // endpoint ids (`p-…`), so nothing above touches them; plugin domain mappings re-run the entity reconciliation.
  #pluginSeam(): PluginBridgeSeam {
    return {
      bridgeId: this.#config.id,
      serverMode: () => this.#config.serverMode,
      running: () => this.#node !== undefined && this.#status === "running",
      mount: async (spec) => {
        const node = this.#node;
        if (!node || this.#status !== "running") throw new Error("the bridge is not running");
        const mounted = await mountPluginDevice(node, spec);
        this.#pluginDevices.set(spec.endpointId, {
          name: spec.name,
          deviceType: spec.deviceType ?? null,
          plugin: spec.vendorName,
          endpointNumber: () => mounted.endpointNumber,
        });
        this.onChange();
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
            if (this.#pluginDevices.delete(spec.endpointId)) this.onChange();
          },
        };
      },
      remapDomains: (domains) =>
        this.#serial(async () => {
          const ids = [...this.#candidates()].filter((id) => domains.includes(id.slice(0, id.indexOf("."))));
          for (const id of ids.sort()) await this.#reconcileOne(id);
          if (ids.length > 0) this.onChange();
        }),
    };
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
