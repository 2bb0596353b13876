import { randomBytes } from "node:crypto";
import { EventEmitter } from "node:events";
import { badRequest, HttpError, notFound } from "../../../lib/http-error.ts";
import type { Logger } from "../../../lib/logger.ts";
import type { BridgeAction } from "./bridge-actions.ts";
import type { BridgeConfig, CreateBridge, UpdateBridge } from "./bridge-config.ts";
import type { BridgePlanner, BridgeRuntime, BridgeRuntimeFactory } from "./bridge-runtime.ts";
import type { BridgeStore } from "./bridge-store.ts";
import { type CountedDevice, checkControllers, countedFromPlan, countedFromRows } from "./controller-checks.ts";
import type { AttributePath } from "./endpoint-inspection.ts";
import { nextFreePort } from "./next-port.ts";
import { randomDiscriminator, randomPasscode } from "./pairing-parameters.ts";

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
 * `priority` (lower first); one bridge failing never stops the others; actions on one bridge are serialised.
 */
/**
 * How long the plan of a stopped bridge (its devices for the controller checks) is reused: records are read on every
 * change and a plan of a large home takes tens of milliseconds. A configuration change replans at once.
 */
const PLAN_REUSE_MS = 5000;

export class BridgeService extends EventEmitter<BridgeServiceEvents> {
  readonly #runtimes = new Map<string, BridgeRuntime>();
  readonly #planned = new Map<string, { key: string; until: number; devices: CountedDevice[] }>();
  readonly #queues = new Map<string, Promise<unknown>>();

  constructor(
    private readonly store: BridgeStore,
    private readonly createRuntime: BridgeRuntimeFactory,
    private readonly log: Logger,
    private readonly removeStorage: (bridgeId: string) => Promise<void>,
    /** Plans a configuration without a node (stopped bridges' controller checks, previews, splits). */
    private readonly planner: BridgePlanner = () => [],
  ) {
    super();
  }

  #loaded = false;
  /** Set by {@link stop}: the hub is going away, so nothing starts again. */
  #stopped = false;

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
    await this.#eachByPriority(
      this.store.list().filter((b) => b.autoStart),
      (id) => this.#startQueued(id),
    );
  }

  /** Stops every bridge, each after what its queue already holds; later starts and recoveries do nothing. */
  async stop(): Promise<void> {
    this.#stopped = true;
    await Promise.all([...this.#runtimes.keys()].map((id) => this.#serial(id, () => this.#runtime(id).stop())));
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
    const config = this.#config(id);
    const runtime = this.#runtime(id);
    if (runtime.status === "running") return countedFromRows(runtime.devices(), runtime.pluginDevices());
    const { filter, composeDevices, controllers, leaveOutUnsupported } = config;
    const key = JSON.stringify([filter, composeDevices, controllers, leaveOutUnsupported]);
    const cached = this.#planned.get(id);
    if (cached && cached.key === key && cached.until > Date.now()) return cached.devices;
    const devices = countedFromPlan(this.planner(config));
    this.#planned.set(id, { key, until: Date.now() + PLAN_REUSE_MS, devices });
    return devices;
  }

  /** What a configuration would do with each entity its filter selects (see BridgePlanner). */
  plan(config: BridgeConfig) {
    return this.planner(config);
  }

  /** A stored bridge's configuration; 404 for an unknown id. */
  config(id: string): BridgeConfig {
    return this.#config(id);
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
  allowedDeviceTypes(id: string, entityId: string): readonly string[] | undefined {
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
    if (config.autoStart) await this.#startQueued(config.id);
    return this.record(config.id);
  }

  async update(id: string, patch: UpdateBridge) {
    const current = this.#config(id);
    if (patch.port !== undefined && patch.port !== current.port) this.#checkPort(patch.port, id);
    const next: BridgeConfig = { ...current, ...patch, id, updatedAt: new Date().toISOString() };
    await this.store.put(next);
    await this.#serial(id, async () => {
      this.#refuseWhenStopped();
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
    await this.#serial(id, async () => {
      await this.#runtime(id).dispose();
      this.#runtimes.delete(id);
      this.#planned.delete(id);
      await this.store.delete(id);
      await this.removeStorage(id);
    });
    this.emit("listChanged");
  }

  async clone(id: string) {
    const source = this.#config(id);
    const port = await this.nextPort();
    const name = `${source.name.slice(0, 25)} (copy)`;
    return this.create({ ...pickCreateFields(source), name, port });
  }

  async nextPort(): Promise<number> {
    return nextFreePort(new Set(this.store.list().map((b) => b.port)));
  }

  async setPriorities(updates: { id: string; priority: number }[]) {
    for (const { id } of updates) this.#config(id);
    await this.store.putMany(
      updates.map(({ id, priority }) => ({ ...this.#config(id), priority, updatedAt: new Date().toISOString() })),
    );
    this.emit("listChanged");
    return this.list();
  }

  async act(id: string, action: BridgeAction): Promise<Record<string, unknown>> {
    const config = this.#config(id);
    const runtime = this.#runtime(id);
    const result = await this.#serial(id, async (): Promise<Record<string, unknown>> => {
      this.#refuseWhenStopped();
      switch (action) {
        case "start":
          if (!config.autoStart) await this.store.put({ ...config, autoStart: true });
          await runtime.start();
          return {};
        case "stop":
          if (config.autoStart) await this.store.put({ ...config, autoStart: false });
          await runtime.stop();
          return {};
        case "restart":
          await runtime.stop();
          await runtime.start();
          return {};
        case "refresh":
          await runtime.refresh();
          return {};
        case "force-sync":
          if (runtime.status !== "running") throw badRequest("The bridge must be running to force a sync");
          return { sync: await runtime.forceSync() };
        case "factory-reset": {
          const fresh = {
            ...config,
            passcode: randomPasscode(),
            discriminator: randomDiscriminator(),
            updatedAt: new Date().toISOString(),
          };
          await this.store.put(fresh);
          await runtime.factoryReset(fresh.passcode, fresh.discriminator);
          return {};
        }
        case "open-commissioning-window": {
          if (runtime.status !== "running") throw badRequest("The bridge must be running to open a commissioning window");
          return { commissioningWindow: await runtime.openCommissioningWindow(900) };
        }
      }
    });
    this.emit("changed", id);
    return { ...result, bridge: this.record(id) };
  }

  /**
   * Automatic recovery's one way in: starts a failed bridge again, but only if, once its turn in the per-bridge queue
   * comes, it is still failed and meant to run (a user's stop or delete queued before wins). Undefined when skipped.
   */
  async recover(id: string): Promise<{ ok: boolean; error?: string } | undefined> {
    const runtime = this.#runtime(id);
    return this.#serial(id, async () => {
      if (this.#stopped || runtime.status !== "failed" || !this.store.get(id)?.autoStart) return undefined;
      try {
        await runtime.start();
      } catch (error) {
        return { ok: false, error: (error as Error).message };
      }
      // Read again after the start: the check above narrowed the type, not the value.
      const status: string = runtime.status;
      return status === "running" ? { ok: true } : { ok: false, error: runtime.statusReason ?? status };
    });
  }

  /** `start-all`, `stop-all`, `restart-all`: by priority; one failure does not stop the rest. */
  async actAll(action: "start" | "stop" | "restart") {
    const results = await this.#eachByPriority(this.store.list(), (id) => this.act(id, action));
    return { results, bridges: this.list() };
  }

  async #eachByPriority(configs: BridgeConfig[], run: (id: string) => Promise<unknown>) {
    const sorted = [...configs].sort((a, b) => a.priority - b.priority);
    const results: { id: string; ok: boolean; error?: string }[] = [];
    for (const { id } of sorted) {
      try {
        await run(id);
        results.push({ id, ok: true });
      } catch (error) {
        this.log.error({ bridgeId: id, err: error }, "bridge action failed");
        results.push({ id, ok: false, error: (error as Error).message });
      }
    }
    return results;
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

  /** Starts a bridge in its turn, unless the hub has begun to stop by then (the stored bridge starts next time). */
  #startQueued(id: string): Promise<void> {
    return this.#serial(id, async () => {
      if (!this.#stopped) await this.#runtime(id).start();
    });
  }

  /** A request already in flight when the hub began to stop must not open a node behind the stop. */
  #refuseWhenStopped(): void {
    if (this.#stopped) throw new HttpError(503, "The hub is shutting down");
  }

  /** Runs bridge actions one after another per bridge (a start racing a stop would leave nodes half-open). */
  #serial<T>(id: string, task: () => Promise<T>): Promise<T> {
    const previous = this.#queues.get(id) ?? Promise.resolve();
    const next = previous.then(task, task);
    this.#queues.set(
      id,
      next.catch(() => undefined),
    );
    return next;
  }
}

function pickCreateFields(config: BridgeConfig): CreateBridge {
  const { name, port, filter, priority, serverMode, composeDevices, controllers, leaveOutUnsupported, autoStart } = config;
  return {
    name,
    port,
    filter: structuredClone(filter),
    priority,
    serverMode,
    composeDevices,
    controllers: [...(controllers ?? [])],
    leaveOutUnsupported: leaveOutUnsupported ?? false,
    autoStart,
  };
}
