import { randomBytes } from "node:crypto";
import { EventEmitter } from "node:events";
import { badRequest, notFound } from "../../../lib/http-error.ts";
import type { Logger } from "../../../lib/logger.ts";
import type { DeviceTypeKey } from "../matter/model/contract.ts";
import type { BridgeAction } from "./bridge-actions.ts";
import { type BridgeConfig, type CreateBridge, createFieldsOf, DEFAULT_MATTER_PORT, type UpdateBridge } from "./bridge-config.ts";
import { BridgeLifecycle } from "./bridge-lifecycle.ts";
import type { BridgePlanner, BridgeRuntime, BridgeRuntimeFactory } from "./bridge-runtime.ts";
import type { BridgeStore } from "./bridge-store.ts";
import { type CountedDevice, checkControllers } from "./controller-checks.ts";
import type { AttributePath } from "./endpoint-inspection.ts";
import { nextFreePort } from "./next-port.ts";
import { randomDiscriminator, randomPasscode } from "./pairing-parameters.ts";
import { PlannedDevices } from "./planned-devices.ts";

interface BridgeServiceEvents {
  /** A bridge's record changed (status, devices, fabrics, configuration). */
  changed: [bridgeId: string];
  /** The set of bridges changed (create, delete, priorities). */
  listChanged: [];
  /** One exposed entity's device took a new Home Assistant state. */
  deviceChanged: [bridgeId: string, entityId: string];
}

/**
 * Owns every bridge: configuration (through the store) and runtime (through the factory). Start order follows
 * `priority` (lower first); one bridge failing never stops the others; actions on one bridge are serialised
 * (bridge-lifecycle.ts).
 */
export class BridgeService extends EventEmitter<BridgeServiceEvents> {
  readonly #runtimes = new Map<string, BridgeRuntime>();
  readonly #planned: PlannedDevices;
  readonly #lifecycle: BridgeLifecycle;

  constructor(
    private readonly store: BridgeStore,
    private readonly createRuntime: BridgeRuntimeFactory,
    log: Logger,
    private readonly removeStorage: (bridgeId: string) => Promise<void>,
    /** Plans a configuration without a node (stopped bridges' controller checks, previews, splits). */
    private readonly planner: BridgePlanner = () => [],
    /** Where {@link nextPort} starts looking: 5540, or a test's own range (test files run side by side). */
    private readonly firstPort = DEFAULT_MATTER_PORT,
  ) {
    super();
    this.#planned = new PlannedDevices(planner);
    this.#lifecycle = new BridgeLifecycle({ store, log, runtime: (id) => this.#runtime(id) });
  }

  #loaded = false;

  /**
   * Reads the stored bridges (once). The hub awaits this before it serves HTTP: a bridge created through the API
   * while the store was still loading would otherwise be overwritten by the load.
   */
  async load(): Promise<void> {
    if (this.#loaded) return;
    await this.store.load();
    this.#loaded = true;
    for (const config of this.store.list()) this.#attach(config);
  }

  /**
   * Starts the stored bridges meant to run, by priority (loading them first if needed). Each start takes its turn in
   * the bridge's queue, and none begins once {@link stop} was called: the hub may be stopped while this is running
   * (SIGTERM during start-up), and a bridge started after the stop would hold its storage open for ever.
   */
  async start(): Promise<void> {
    await this.load();
    await this.#lifecycle.startAll(this.store.list().filter((b) => b.autoStart));
  }

  /** Stops every bridge, each after what its queue already holds; later starts and recoveries do nothing. */
  stop(): Promise<void> {
    return this.#lifecycle.stopAll(this.#runtimes.keys());
  }

  list() {
    return this.store
      .list()
      .sort((a, b) => a.priority - b.priority || a.name.localeCompare(b.name))
      .map((config) => this.record(config.id));
  }

  record(id: string) {
    const config = this.#config(id);
    const runtime = this.#runtime(id);
    return {
      ...config,
      controllers: config.controllers ?? [],
      leaveOutUnsupported: config.leaveOutUnsupported ?? false,
      status: runtime.status,
      statusReason: runtime.statusReason,
      deviceCount: runtime.deviceCount(),
      commissioning: runtime.commissioning(),
      /** What the chosen controllers say about this bridge (empty without controllers). */
      controllerWarnings: (config.controllers ?? []).length > 0 ? checkControllers(config, this.countedDevices(id)) : [],
    };
  }

  /**
   * The bridge's devices as controllers count them (exposed endpoints and plugin devices): a running bridge's own,
   * else what its configuration would expose now.
   */
  countedDevices(id: string): CountedDevice[] {
    return this.#planned.counted(this.#config(id), this.#runtime(id));
  }

  /** What a configuration would do with each entity its filter selects (see BridgePlanner). */
  plan(config: BridgeConfig) {
    return this.planner(config);
  }

  /** A stored bridge's configuration; 404 for an unknown id. */
  config(id: string): BridgeConfig {
    return this.#config(id);
  }

  /** See {@link BridgeRuntime.reconciliations}; 404 for an unknown bridge. */
  reconciliations(id: string): number {
    this.#config(id);
    return this.#runtime(id).reconciliations();
  }

  devices(id: string) {
    this.#config(id);
    return this.#runtime(id).devices();
  }

  /** One entity's device row on a bridge (undefined when the bridge does not know the entity); 404 for an unknown bridge. */
  device(id: string, entityId: string) {
    this.#config(id);
    return this.#runtime(id).device(entityId);
  }

  pluginDevices(id: string) {
    this.#config(id);
    return this.#runtime(id).pluginDevices();
  }

  /** See {@link BridgeRuntime.inspect} (device-inspection.ts says why it is undefined); 404 for an unknown bridge. */
  inspect(id: string, endpointNumber: number) {
    this.#config(id);
    return this.#runtime(id).inspect(endpointNumber);
  }

  /** See {@link BridgeRuntime.readAttributes}; 404 for an unknown bridge. */
  readAttributes(id: string, endpointNumber: number, paths: readonly AttributePath[]) {
    this.#config(id);
    return this.#runtime(id).readAttributes(endpointNumber, paths);
  }

  /** See {@link BridgeRuntime.watchEndpoint}; 404 for an unknown bridge. */
  watchEndpoint(id: string, endpointNumber: number, changed: (paths: AttributePath[]) => void) {
    this.#config(id);
    return this.#runtime(id).watchEndpoint(endpointNumber, changed);
  }

  /** See {@link BridgeRuntime.allowedDeviceTypes}; 404 for an unknown bridge. */
  allowedDeviceTypes(id: string, entityId: string): readonly DeviceTypeKey[] | undefined {
    this.#config(id);
    return this.#runtime(id).allowedDeviceTypes(entityId);
  }

  async create(input: CreateBridge): Promise<ReturnType<BridgeService["record"]>> {
    this.#checkPort(input.port);
    const now = new Date().toISOString();
    const config: BridgeConfig = {
      ...input,
      controllers: input.controllers ?? [],
      leaveOutUnsupported: input.leaveOutUnsupported ?? false,
      id: `b${randomBytes(5).toString("hex")}`,
      passcode: randomPasscode(),
      discriminator: randomDiscriminator(new Set(this.store.list().map((b) => b.discriminator))),
      createdAt: now,
      updatedAt: now,
    };
    await this.store.put(config);
    this.#attach(config);
    this.emit("listChanged");
    if (config.autoStart) await this.#lifecycle.startQueued(config.id);
    return this.record(config.id);
  }

  async update(id: string, patch: UpdateBridge) {
    const current = this.#config(id);
    if (patch.port !== undefined && patch.port !== current.port) this.#checkPort(patch.port, id);
    const next: BridgeConfig = { ...current, ...patch, id, updatedAt: new Date().toISOString() };
    await this.store.put(next);
    await this.#lifecycle.queued(id, async () => {
      const runtime = this.#runtime(id);
      const needsRestart = next.port !== current.port || next.serverMode !== current.serverMode;
      if (needsRestart && runtime.status !== "stopped") {
        await runtime.stop();
        await runtime.reconfigure(next);
        await runtime.start();
      } else {
        await runtime.reconfigure(next);
      }
    });
    this.emit("changed", id);
    return this.record(id);
  }

  async delete(id: string): Promise<void> {
    this.#config(id);
    await this.#lifecycle.serial(id, async () => {
      await this.#runtime(id).dispose();
      this.#runtimes.delete(id);
      this.#planned.forget(id);
      await this.store.delete(id);
      await this.removeStorage(id);
    });
    this.emit("listChanged");
  }

  async clone(id: string) {
    const source = this.#config(id);
    const port = await this.nextPort();
    const name = `${source.name.slice(0, 25)} (copy)`;
    return this.create({ ...createFieldsOf(source), name, port });
  }

  async nextPort(): Promise<number> {
    return nextFreePort(new Set(this.store.list().map((b) => b.port)), undefined, this.firstPort);
  }

  async setPriorities(updates: { id: string; priority: number }[]) {
    for (const { id } of updates) this.#config(id);
    await this.store.putMany(
      updates.map(({ id, priority }) => ({ ...this.#config(id), priority, updatedAt: new Date().toISOString() })),
    );
    this.emit("listChanged");
    return this.list();
  }

  /** Runs one action (bridge-lifecycle.ts) in the bridge's turn; answers its result with the bridge record. */
  async act(id: string, action: BridgeAction): Promise<Record<string, unknown>> {
    const result = await this.#lifecycle.act(id, this.#config(id), action);
    this.emit("changed", id);
    return { ...result, bridge: this.record(id) };
  }

  /** See {@link BridgeLifecycle.recover}. */
  recover(id: string): Promise<{ ok: boolean; error?: string } | undefined> {
    return this.#lifecycle.recover(id);
  }

  /** `start-all`, `stop-all`, `restart-all`: by priority; one failure does not stop the rest. */
  async actAll(action: "start" | "stop" | "restart") {
    const results = await this.#lifecycle.eachByPriority(this.store.list(), (id) => this.act(id, action));
    return { results, bridges: this.list() };
  }

  #attach(config: BridgeConfig): void {
    this.#runtimes.set(
      config.id,
      this.createRuntime(
        config,
        () => this.emit("changed", config.id),
        (entityId) => this.emit("deviceChanged", config.id, entityId),
      ),
    );
  }

  #checkPort(port: number, exceptId?: string): void {
    const clash = this.store.list().find((b) => b.port === port && b.id !== exceptId);
    if (clash) throw badRequest(`Port ${port} is already used by bridge "${clash.name}"`);
  }

  #config(id: string): BridgeConfig {
    const config = this.store.get(id);
    if (!config) throw notFound(`Bridge not found: ${id}`);
    return config;
  }

  #runtime(id: string): BridgeRuntime {
    const runtime = this.#runtimes.get(id);
    if (!runtime) throw notFound(`Bridge not found: ${id}`);
    return runtime;
  }
}
