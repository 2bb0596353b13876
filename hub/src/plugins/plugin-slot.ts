/**
 * One plugin on one bridge: its persisted enablement and breaker state, and its runs. A run is one instance from
 * `onStart` to `onShutdown`; every hook call is time-boxed, a failure counts toward the circuit breaker, a failed
 * start is retried after a delay until the breaker trips, and a failing plugin never touches the bridge itself:
 * its devices stay on the bridge marked unreachable (controllers keep rooms and automations) until it recovers,
 * and go only when the user disables it.
 */
import type { Logger } from "../../../lib/logger.ts";
import type { PluginBridgeSeam } from "../matter/plugin-devices/seam.ts";
import type { HubPlugin, PluginStorage } from "./api.ts";
import { CircuitBreaker } from "./circuit-breaker.ts";
import type { Clock } from "./clock.ts";
import type { DomainMappings } from "./domain-mappings.ts";
import { callPlugin, describe } from "./lifecycle-call.ts";
import { createPluginContext } from "./plugin-context.ts";
import { PluginDeviceSet } from "./plugin-device-set.ts";
import type { PluginFiles, SlotRecord } from "./plugin-files.ts";
import type { PluginSource, SlotServices } from "./plugin-source.ts";

export type SlotState = "disabled" | "stopped" | "starting" | "running" | "failed" | "tripped";

export interface SlotDeps {
  bridgeId: string;
  source: PluginSource;
  seam: PluginBridgeSeam;
  files: PluginFiles;
  mappings: DomainMappings;
  /** Scoped to the bridge and plugin. */
  log: Logger;
  clock: Clock;
  timeoutMs: number;
  retryDelayMs: number;
  /** True while the bridge runs as a standard bridge and its host is started. */
  canRun: () => boolean;
}

export class PluginSlot {
  protected record: SlotRecord = { autoDisabled: false, failures: 0, lastError: null };
  protected breaker = new CircuitBreaker();
  protected state: SlotState = "stopped";
  protected instance: HubPlugin | undefined;
  protected status: { line: string | null; details: Record<string, unknown> | null; needsSettings: boolean } = {
    line: null,
    details: null,
    needsSettings: false,
  };
  readonly devices: PluginDeviceSet;
  #run = 0;
  #activeRun = 0;
  #cancelRetry: (() => void) | undefined;
  #storage: PluginStorage | undefined;

  constructor(protected readonly deps: SlotDeps) {
    this.devices = new PluginDeviceSet(deps.seam, deps.source.name, deps.log);
  }

  get name(): string {
    return this.deps.source.name;
  }

  /** The user's choice, or the default: built-ins on, installed packages off. */
  get enabled(): boolean {
    return this.record.enabled ?? this.deps.source.builtin;
  }

  async load(): Promise<void> {
    this.record = await this.deps.files.readState();
    this.breaker = new CircuitBreaker({ failures: this.record.failures, tripped: this.record.autoDisabled });
    this.state = this.restingState();
  }

  /** Starts a run in the background when the plugin should run and the bridge can host it. */
  start(): void {
    if (!this.enabled || this.record.autoDisabled || !this.deps.canRun()) return;
    if (this.state === "starting" || this.state === "running") return;
    void this.#startRun();
  }

  /** The bridge stops: `onShutdown` while the context is still valid, then the devices go with the node. */
  async stop(reason: string): Promise<void> {
    this.#cancelRetry?.();
    const instance = this.instance;
    if (instance && this.#activeRun !== 0) {
      await this.call("onShutdown", () => instance.onShutdown(reason)).catch((error: unknown) => this.recordFailure(error));
    }
    this.endRun();
    this.devices.forget();
    this.deps.mappings.drop(this.name);
    this.state = this.restingState();
  }

  async #startRun(): Promise<void> {
    const run = ++this.#run;
    this.#activeRun = run;
    this.state = "starting";
    try {
      await this.deps.source.ready?.();
      if (run !== this.#activeRun) return;
      // Importing runs the module's top level and the constructor: plugin code, time-boxed like a hook.
      const instance = await this.call("load", () => this.deps.source.instantiate(this.services()));
      if (run !== this.#activeRun) return;
      this.instance = instance;
      const context = createPluginContext({
        bridgeId: this.deps.bridgeId,
        plugin: this.name,
        builtin: this.deps.source.builtin,
        run,
        active: () => this.#activeRun === run,
        devices: this.devices,
        mappings: this.deps.mappings,
        onMappingsChanged: (domains) => void this.deps.seam.remapDomains(domains),
        storage: await this.#openStorage(),
        log: this.deps.log,
        deliverWrite: (handler, clusterId, attribute, value) => {
          if (this.#activeRun !== run) return;
          this.call(`onAttributeWrite(${clusterId}.${attribute})`, () => handler(clusterId, attribute, value)).catch(
            (error: unknown) => this.deps.log.warn({ err: error }, describe(error)),
          );
        },
      });
      await this.call("onStart", () => instance.onStart(context));
      const saved = await this.savedConfig();
      if (saved) await this.call("onConfigChanged", () => instance.onConfigChanged(saved));
      await this.call("onConfigure", () => instance.onConfigure());
      if (run !== this.#activeRun) return;
      await this.devices.sweep(run);
      this.state = "running";
      await this.recordSuccess();
      this.deps.log.info({ devices: this.devices.size }, `plugin ${this.name} running`);
    } catch (error) {
      if (run !== this.#activeRun) return;
      const tripped = await this.recordFailure(error);
      await this.abandon("start failed");
      if (tripped) await this.trip();
      else this.#scheduleRetry();
    }
  }

  /** Calls a plugin hook with the time-out. */
  protected call<T>(hook: string, fn: () => T | Promise<T>): Promise<T> {
    return callPlugin(hook, fn, this.deps.clock, this.deps.timeoutMs);
  }

  /** Counts a failure and persists it; true when it tripped the breaker. */
  protected async recordFailure(error: unknown): Promise<boolean> {
    const reason = describe(error);
    const tripped = this.breaker.failure();
    this.record = { ...this.record, failures: this.breaker.failures, lastError: reason };
    this.deps.log.error({ failures: this.breaker.failures }, `plugin ${this.name}: ${reason}`);
    await this.deps.files.writeState(this.record).catch(() => undefined);
    return tripped;
  }

  protected async recordSuccess(): Promise<void> {
    if (this.breaker.failures === 0 && this.record.lastError === null) return;
    this.breaker.success();
    this.record = { ...this.record, failures: 0, lastError: null };
    await this.deps.files.writeState(this.record);
  }

  /** Ends the run after a failure: context revoked, devices unreachable, mappings dropped, shutdown best effort. */
  protected async abandon(reason: string): Promise<void> {
    const instance = this.instance;
    this.endRun();
    this.state = "failed";
    await this.devices.setReachable(false);
    const domains = this.deps.mappings.drop(this.name);
    if (domains.length > 0) void this.deps.seam.remapDomains(domains);
    if (instance) void this.call("onShutdown", () => instance.onShutdown(reason)).catch(() => undefined);
  }

  /** The breaker tripped: auto-disabled (persisted, then shown) until reset. */
  protected async trip(): Promise<void> {
    this.record = { ...this.record, autoDisabled: true };
    await this.deps.files.writeState(this.record).catch(() => undefined);
    this.state = "tripped";
    this.deps.log.error(
      `circuit breaker tripped: plugin ${this.name} auto-disabled after ${this.breaker.failures} consecutive failures (reset re-enables it)`,
    );
  }

  /** Revokes the current run's context. */
  protected endRun(): void {
    this.#cancelRetry?.();
    this.#cancelRetry = undefined;
    this.#activeRun = 0;
    this.instance = undefined;
  }

  protected async savedConfig(): Promise<Record<string, unknown> | undefined> {
    const config = await this.deps.files.readConfig();
    if (!config) return undefined;
    return { ...config, ...(await this.deps.files.readSecrets()) };
  }

  #scheduleRetry(): void {
    this.#cancelRetry = this.deps.clock.setTimeout(() => {
      this.#cancelRetry = undefined;
      if (this.state === "failed") this.start();
    }, this.deps.retryDelayMs);
  }

  protected restingState(): SlotState {
    if (this.record.autoDisabled) return "tripped";
    return this.enabled ? "stopped" : "disabled";
  }

  async #openStorage(): Promise<PluginStorage> {
    this.#storage ??= await this.deps.files.openStorage();
    return this.#storage;
  }

  /** Hub services for a built-in plugin instance (ignored by installed packages). */
  protected services(): SlotServices {
    return {
      bridgeId: this.deps.bridgeId,
      clock: this.deps.clock,
      log: this.deps.log,
      setStatus: (line, details, options) => {
        this.status = { line, details: details ?? null, needsSettings: options?.needsSettings === true };
      },
    };
  }
}
