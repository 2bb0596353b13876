/**
 * Running bridges: the per-bridge queue every start, stop, action and configuration change takes its turn in, start
 * order by priority, the bridge actions, automatic recovery's way in, and the hub's shutdown after which nothing
 * starts again. BridgeService owns the configurations and hands each runtime in through `runtime(id)`.
 */
import { badRequest, HttpError } from "../../../lib/http-error.ts";
import type { Logger } from "../../../lib/logger.ts";
import type { BridgeAction } from "./bridge-actions.ts";
import type { BridgeConfig } from "./bridge-config.ts";
import type { BridgeRuntime } from "./bridge-runtime.ts";
import type { BridgeStore } from "./bridge-store.ts";
import { randomDiscriminator, randomPasscode } from "./pairing-parameters.ts";

export interface BridgeLifecycleDeps {
  store: BridgeStore;
  log: Logger;
  /** The bridge's runtime; throws 404 for an unknown bridge. */
  runtime(id: string): BridgeRuntime;
}

/** One bridge's outcome in a run over several (`start-all`…): one failure does not stop the rest. */
export interface BridgeRunResult {
  id: string;
  ok: boolean;
  error?: string;
}

export class BridgeLifecycle {
  readonly #deps: BridgeLifecycleDeps;
  readonly #queues = new Map<string, Promise<unknown>>();
  /** Set by {@link stopAll}: the hub is going away, so nothing starts again. */
  #stopped = false;

  constructor(deps: BridgeLifecycleDeps) {
    this.#deps = deps;
  }

  /** Starts the given bridges by priority, each in its turn, unless the hub has begun to stop by then. */
  startAll(configs: BridgeConfig[]): Promise<BridgeRunResult[]> {
    return this.eachByPriority(configs, (id) => this.startQueued(id));
  }

  /** Stops every given bridge, each after what its queue already holds; later starts and recoveries do nothing. */
  async stopAll(ids: Iterable<string>): Promise<void> {
    this.#stopped = true;
    await Promise.all([...ids].map((id) => this.serial(id, () => this.#deps.runtime(id).stop())));
  }

  /** Starts a bridge in its turn, unless the hub has begun to stop by then (the stored bridge starts next time). */
  startQueued(id: string): Promise<void> {
    return this.serial(id, async () => {
      if (!this.#stopped) await this.#deps.runtime(id).start();
    });
  }

  /** A configuration change or action in the bridge's turn; 503 once the hub is shutting down. */
  queued<T>(id: string, task: () => Promise<T>): Promise<T> {
    return this.serial(id, async () => {
      // A request already in flight when the hub began to stop must not open a node behind the stop.
      if (this.#stopped) throw new HttpError(503, "The hub is shutting down");
      return task();
    });
  }

  /** Runs one action in the bridge's turn; the result goes into the action's answer next to the bridge record. */
  async act(id: string, config: BridgeConfig, action: BridgeAction): Promise<Record<string, unknown>> {
    const { store } = this.#deps;
    const runtime = this.#deps.runtime(id);
    return this.queued(id, async (): Promise<Record<string, unknown>> => {
      switch (action) {
        case "start":
          if (!config.autoStart) await store.put({ ...config, autoStart: true });
          await runtime.start();
          return {};
        case "stop":
          if (config.autoStart) await store.put({ ...config, autoStart: false });
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
          await store.put(fresh);
          await runtime.factoryReset(fresh.passcode, fresh.discriminator);
          return {};
        }
        case "open-commissioning-window": {
          if (runtime.status !== "running") throw badRequest("The bridge must be running to open a commissioning window");
          return { commissioningWindow: await runtime.openCommissioningWindow(900) };
        }
      }
    });
  }

  /**
   * Automatic recovery's one way in: starts a failed bridge again, but only if, once its turn in the per-bridge queue
   * comes, it is still failed and meant to run (a user's stop or delete queued before wins). Undefined when skipped.
   */
  async recover(id: string): Promise<{ ok: boolean; error?: string } | undefined> {
    const runtime = this.#deps.runtime(id);
    return this.serial(id, async () => {
      if (this.#stopped || runtime.status !== "failed" || !this.#deps.store.get(id)?.autoStart) return undefined;
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

  /** Runs `run` for each bridge by priority (lower first), one after another; a failure is logged and reported. */
  async eachByPriority(configs: BridgeConfig[], run: (id: string) => Promise<unknown>): Promise<BridgeRunResult[]> {
    const sorted = [...configs].sort((a, b) => a.priority - b.priority);
    const results: BridgeRunResult[] = [];
    for (const { id } of sorted) {
      try {
        await run(id);
        results.push({ id, ok: true });
      } catch (error) {
        this.#deps.log.error({ bridgeId: id, err: error }, "bridge action failed");
        results.push({ id, ok: false, error: (error as Error).message });
      }
    }
    return results;
  }

  /** Runs bridge work one task after another per bridge (a start racing a stop would leave nodes half-open). */
  serial<T>(id: string, task: () => Promise<T>): Promise<T> {
    const previous = this.#queues.get(id) ?? Promise.resolve();
    const next = previous.then(task, task);
    this.#queues.set(
      id,
      next.catch(() => undefined),
    );
    return next;
  }
}
