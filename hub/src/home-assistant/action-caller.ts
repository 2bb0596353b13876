import type { Logger } from "../../../lib/logger.ts";
import type { HomeAssistantClient } from "./ha-client.ts";

/** A service call Home Assistant refused, timed out, or could not receive (not connected). */
export class HaActionError extends Error {
  override name = "HaActionError";
  constructor(
    message: string,
    /** HA's error code (`service_not_found`, `home_assistant_error`, …), `timeout` or `not_connected`. */
    readonly code: string,
  ) {
    super(message);
  }
}

export interface ActionCall {
  /** `domain.service`, e.g. `light.turn_on`. */
  action: string;
  entityId: string | string[];
  data?: Record<string, unknown>;
}

/** How one service call ended, for observers such as the diagnostics bus. The call's `data` is left out on purpose: it can carry a lock code. */
export interface ActionOutcome {
  action: string;
  entityId: string | string[];
  ok: boolean;
  /** The HaActionError code when it failed. */
  code?: string;
  message?: string;
  durationMs: number;
}

export interface ActionCallerStats {
  calls: number;
  failures: number;
  timeouts: number;
}

/**
 * The one way the hub calls Home Assistant services: every call has a time-out and resolves only when HA
 * confirmed it, so a Matter command can report HA's refusal back to the controller.
 */
export class ActionCaller {
  readonly stats: ActionCallerStats = { calls: 0, failures: 0, timeouts: 0 };
  readonly #observers = new Set<(outcome: ActionOutcome) => void>();

  constructor(
    private readonly client: HomeAssistantClient,
    private readonly log: Logger,
    private readonly timeoutMs = 10_000,
  ) {}

  /** Calls `observer` after every call, successful or not; returns the function that stops it. */
  observe(observer: (outcome: ActionOutcome) => void): () => void {
    this.#observers.add(observer);
    return () => this.#observers.delete(observer);
  }

  async call(request: ActionCall): Promise<void> {
    const started = performance.now();
    try {
      await this.#call(request);
      this.#notify({ action: request.action, entityId: request.entityId, ok: true, durationMs: performance.now() - started });
    } catch (error) {
      const { code, message } = error as HaActionError;
      const outcome = { action: request.action, entityId: request.entityId, ok: false, code, message };
      this.#notify({ ...outcome, durationMs: performance.now() - started });
      throw error;
    }
  }

  #notify(outcome: ActionOutcome): void {
    // An observer's bug must never turn a successful command into a failure reported to the controller.
    for (const observer of this.#observers) {
      try {
        observer({ ...outcome, durationMs: Math.round(outcome.durationMs) });
      } catch (error) {
        this.log.warn({ err: error }, "an action observer failed");
      }
    }
  }

  async #call({ action, entityId, data }: ActionCall): Promise<void> {
    const [domain, service] = action.split(".", 2);
    if (!domain || !service) throw new HaActionError(`invalid action "${action}"`, "invalid_action");
    this.stats.calls++;
    let connection: ReturnType<() => HomeAssistantClient["connection"]>;
    try {
      connection = this.client.connection;
    } catch (error) {
      this.stats.failures++;
      throw new HaActionError((error as Error).message, "not_connected");
    }
    const message = { type: "call_service", domain, service, service_data: data ?? {}, target: { entity_id: entityId } };
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        this.stats.timeouts++;
        reject(new HaActionError(`${action} did not answer within ${this.timeoutMs} ms`, "timeout"));
      }, this.timeoutMs);
    });
    try {
      await Promise.race([connection.sendMessagePromise(message), timeout]);
      // A lock's `code` is the user's PIN: never in a log line.
      const logged = data && "code" in data ? { ...data, code: "[redacted]" } : data;
      this.log.debug({ action, entityId, data: logged }, "service call done");
    } catch (error) {
      this.stats.failures++;
      const failure =
        error instanceof HaActionError
          ? error
          : new HaActionError(
              (error as { message?: string }).message ?? `${action} failed`,
              (error as { code?: string | number }).code === 3
                ? "not_connected"
                : String((error as { code?: string }).code ?? "error"),
            );
      this.log.warn({ action, entityId, code: failure.code }, `service call failed: ${failure.message}`);
      throw failure;
    } finally {
      clearTimeout(timer);
    }
  }
}
