import type { Logger } from "../../../../lib/logger.ts";
import type { BridgeConfig } from "../../bridges/bridge-config.ts";
import type {
  BridgeDeviceInfo,
  BridgeRuntime,
  BridgeStatus,
  CommissioningInfo,
  ForceSyncReport,
  PluginDeviceInfo,
} from "../../bridges/bridge-runtime.ts";
import type { EndpointIdentities } from "../../bridges/endpoint-identities.ts";
import type { AttributePath, EndpointInspection, InspectedChange } from "../../bridges/endpoint-inspection.ts";
import { type CompiledFilter, compileFilter } from "../../bridges/filter.ts";
import type { EntityMappingStore } from "../../entity-mappings/entity-mapping-store.ts";
import { viewEntity } from "../../home-assistant/entity-view.ts";
import type { HomeAssistantService } from "../../home-assistant/home-assistant-service.ts";
import type { MatterEnvironment } from "../matter-environment.ts";
import type { DeviceTypeKey, PinCheck } from "../model/contract.ts";
import { allowedDeviceTypes } from "../plugin-devices/plugin-mount.ts";
import type { PluginHostFactory, PluginHostForBridge } from "../plugin-devices/seam.ts";
import { createBridgeNode } from "./builders.ts";
import { deviceRow, deviceRows } from "./device-rows.ts";
import { EntityDevices } from "./entity-devices.ts";
import { forceSync } from "./force-sync.ts";
import { PRODUCT_ID, VENDOR_ID } from "./identity.ts";
import type { BridgeNode } from "./node.ts";
import { NodeInspector } from "./node-inspector.ts";
import { pairingCodesFor } from "./pairing-codes.ts";
import { PluginDeviceShelf } from "./plugin-device-shelf.ts";

/** What every Matter bridge runtime of a hub shares. */
export interface MatterBridgeDeps {
  environment: MatterEnvironment;
  ha: HomeAssistantService;
  mappings: EntityMappingStore;
  identities: (bridgeId: string) => EndpointIdentities;
  log: Logger;
  version: string;
  pinCheck?: PinCheck;
  /** Plugin host seam (docs/plugins.md): builds this bridge's plugin host; without it the bridge hosts no plugins. */
  plugins?: PluginHostFactory;
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
  readonly #log: Logger;
  readonly #identities: EndpointIdentities;
  readonly #devices: EntityDevices;
  #queue: Promise<unknown> = Promise.resolve();
  #unsubscribe: (() => void)[] = [];
  /** Entities HA (or a mapping) changed structurally, waiting for the next reconciliation pass (one queued at a time). */
  #pending = new Set<string>();
  #passQueued = false;
  #reconciliations = 0;
  readonly #plugins: PluginHostForBridge | undefined;
  /** Devices mounted by plugins. */
  readonly #pluginDevices: PluginDeviceShelf;
  /** The device inspector's reads and watches of the running node. */
  readonly #inspector: NodeInspector;

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
          const ids = [...this.#devices.candidates()].filter((id) => domains.includes(id.slice(0, id.indexOf("."))));
          for (const id of ids.sort()) await this.#devices.reconcile(id);
          if (ids.length > 0) this.onChange();
        }),
    });
    this.#plugins = deps.plugins?.(this.#pluginDevices.seam());
    this.#devices = new EntityDevices(
      {
        ha: deps.ha,
        mappings: deps.mappings,
        pinCheck: deps.pinCheck,
        identities: this.#identities,
        log: this.#log,
        plugins: this.#plugins,
        serial: (task) => this.#serial(task),
        changed: () => this.onChange(),
        deviceChanged: (entityId) => this.onDeviceChange(entityId),
      },
      this.#config,
      this.#filter,
    );
    this.#inspector = new NodeInspector(
      config.id,
      () => (this.#status === "running" ? this.#node : undefined),
      (number) => [...this.#devices.exposed()].find(([, device]) => device.endpoint.maybeNumber === number)?.[0] ?? null,
    );
  }

  get status(): BridgeStatus {
    return this.#status;
  }
  get statusReason(): string | null {
    return this.#statusReason;
  }

  async start(): Promise<void> {
    if (this.#node) return;
    const { problems } = this.#filter;
    if (problems.length > 0) {
      // A stored rule today's engine refuses (docs/decisions.md, "Filters"). Running without it would remove
      // devices from controllers (an include rule) or expose ones the user excluded (an exclude rule): the bridge
      // stays down, saying which rule to fix, and other bridges are not affected.
      const reason = `The filter needs fixing before this bridge can start: ${problems.join("; ")}`;
      this.#set("failed", reason);
      this.#log.error(`bridge "${this.#config.name}" not started: ${reason}`);
      return;
    }
    this.#set("starting", this.deps.ha.client.status.connected ? null : "Waiting for Home Assistant");
    await this.deps.ha.whenLoaded();
    await this.#identities.load();
    const node = createBridgeNode(this.#config, this.deps);
    this.#node = node;
    this.#devices.attach(node);
    try {
      const ids = [...this.deps.ha.model.entityIds()].sort();
      for (const id of ids) await this.#devices.reconcile(id);
      if (this.#config.serverMode && this.#devices.size === 0) {
        throw new Error("no entity of this server-mode bridge can be exposed");
      }
      await this.#identities.flush();
      const { failedDevices } = await node.start();
      this.#devices.dropFailedAtStart(failedDevices);
      this.#watch();
      this.#set("running", null);
      this.#log.info({ devices: this.#devices.size, port: node.port }, `bridge "${this.#config.name}" running`);
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
    this.#pending.clear();
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
      for (const id of this.#devices.candidates()) await this.#devices.reconcile(id);
      this.onChange();
    });
  }

  /** Force-sync: see force-sync.ts. */
  async forceSync(): Promise<ForceSyncReport> {
    const report = await forceSync({
      ha: this.deps.ha,
      log: this.#log,
      devices: () => this.#devices.exposed(),
      snapshot: (entityId, name) => {
        const view = viewEntity(this.deps.ha.model, entityId);
        return view ? this.#devices.snapshot(view, name) : undefined;
      },
      rebuild: (entityId) => this.#devices.rebuild(entityId),
      serial: (task) => this.#serial(task),
      writer: this.#devices.writer,
    });
    this.#log.info(report, `bridge "${this.#config.name}" force-synced`);
    return report;
  }

  async factoryReset(passcode: number, discriminator: number): Promise<void> {
    const wasRunning = this.#node !== undefined;
    await this.stop();
    this.#config = { ...this.#config, passcode, discriminator };
    this.#devices.configure(this.#config, this.#filter);
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
    return this.#devices.size + this.#pluginDevices.size;
  }

  reconciliations(): number {
    return this.#reconciliations;
  }

  devices(): BridgeDeviceInfo[] {
    return deviceRows(this.deps.ha.model, this.#devices.sets());
  }

  device(entityId: string): BridgeDeviceInfo | undefined {
    return deviceRow(this.deps.ha.model, this.#devices.sets(), entityId);
  }

  pluginDevices(): PluginDeviceInfo[] {
    return this.#pluginDevices.rows();
  }

  allowedDeviceTypes(entityId: string): readonly DeviceTypeKey[] | undefined {
    const view = viewEntity(this.deps.ha.model, entityId);
    if (!view?.state) return undefined;
    return allowedDeviceTypes(this.#devices.snapshot(view, view.name), (domain) => this.#plugins?.mappingFor(domain));
  }

  inspect(endpointNumber: number): EndpointInspection | undefined {
    return this.#inspector.inspect(endpointNumber);
  }

  readAttributes(endpointNumber: number, paths: readonly AttributePath[]): InspectedChange[] | undefined {
    return this.#inspector.readAttributes(endpointNumber, paths);
  }

  watchEndpoint(endpointNumber: number, changed: (paths: AttributePath[]) => void): (() => void) | undefined {
    return this.#inspector.watchEndpoint(endpointNumber, changed);
  }

  async reconfigure(config: BridgeConfig): Promise<void> {
    const filterChanged = JSON.stringify(config.filter) !== JSON.stringify(this.#config.filter);
    const compositionChanged = config.composeDevices !== this.#config.composeDevices;
    // Controllers decide which device types a bridge leaves out (controller-checks.ts leftOutReason).
    const leaveOutChanged =
      Boolean(config.leaveOutUnsupported) !== Boolean(this.#config.leaveOutUnsupported) ||
      (Boolean(config.leaveOutUnsupported) &&
        JSON.stringify(config.controllers ?? []) !== JSON.stringify(this.#config.controllers ?? []));
    this.#config = config;
    this.#filter = compileFilter(config.filter, this.deps.ha.model);
    this.#devices.configure(config, this.#filter);
    if (filterChanged || compositionChanged || leaveOutChanged) await this.refresh();
  }

  async dispose(): Promise<void> {
    await this.stop();
    await this.#plugins?.dispose();
  }

  /** Subscribes to what can change the device set or a device, once the node runs. */
  #watch(): void {
    const model = this.deps.ha.model;
    this.#unsubscribe.push(
      model.onStructure((ids) => this.#structureChanged(ids)),
      this.deps.mappings.onChange((bridgeId, ids) => {
        if (bridgeId === this.#config.id) this.#structureChanged(ids);
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

  /**
   * Queues one reconciliation pass for changed entities. Changes arriving before the pass starts join it: those of
   * the same event-loop turn (one WebSocket frame carries many HA messages), and all that arrive while earlier work
   * of the bridge runs. The model delivers a registry burst as one change (HomeAssistantModel.holdStructure), so a
   * burst costs each bridge one pass, and a single change is reconciled at once.
   */
  #structureChanged(ids: Iterable<string>): void {
    for (const id of ids) this.#pending.add(id);
    if (this.#passQueued) return;
    this.#passQueued = true;
    void this.#serial(async () => {
      await new Promise((resolve) => setImmediate(resolve));
      this.#passQueued = false;
      const batch = this.#pending;
      this.#pending = new Set();
      if (!this.#node || batch.size === 0) return;
      this.#reconciliations++;
      this.#log.debug({ entities: batch.size, pass: this.#reconciliations }, "reconciling Home Assistant changes");
      await this.#devices.reconcileChanged(batch);
      this.onChange();
    });
  }

  #teardownDevices(): void {
    this.#devices.clear();
    this.#pluginDevices.clear();
  }

  #set(status: BridgeStatus, reason: string | null): void {
    this.#status = status;
    this.#statusReason = reason;
    this.#devices.setRunning(status === "running");
    this.onChange();
  }

  #serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(task, task);
    this.#queue = run.catch(() => undefined);
    return run;
  }
}
