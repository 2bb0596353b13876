import type { Logger } from "../../../lib/logger.ts";
import type { BridgeService } from "../bridges/bridge-service.ts";
import type { DiagnosticBus } from "../diagnostics/diagnostic-bus.ts";
import type { HomeAssistantClient } from "../home-assistant/ha-client.ts";
import { type RecoveryAttempt, RecoveryAttempts, type RecoveryTrigger } from "./recovery-attempts.ts";
import { loadRecoverySettings, RECOVERY_KEY, type RecoverySettings } from "./recovery-settings.ts";
import type { SettingsFile } from "./settings-file.ts";

export interface RecoveryServiceOptions {
  settingsFile: SettingsFile;
  bridges: BridgeService;
  /** Its `ready` after a `disconnected` triggers a sweep at once. */
  haClient: HomeAssistantClient;
  diagnostics?: DiagnosticBus;
  log: Logger;
}

/**
 * Automatic recovery: while enabled, every `recoveryIntervalMs` (and right after Home Assistant comes back from a
 * disconnect) each failed bridge that is meant to run is started again, one after another by priority. A bridge the
 * user stopped is never started. No backoff on top of the interval: the interval is the user's knob (≥ 10 s), and
 * a retry that fails costs one socket bind. Attempts are kept per bridge (last 10) and published as diagnostics.
 */
export class RecoveryService {
  readonly #options: RecoveryServiceOptions;
  readonly #attempts = new RecoveryAttempts();
  #settings: RecoverySettings;
  #timer: NodeJS.Timeout | undefined;
  #nextAt: number | undefined;
  #started = false;
  #haWasDown = false;
  #sweep: Promise<void> | undefined;
  #again: RecoveryTrigger | undefined;

  private constructor(options: RecoveryServiceOptions, settings: RecoverySettings) {
    this.#options = options;
    this.#settings = settings;
  }

  /** Reads the stored settings (defaults when none); call `start()` to begin. */
  static async load(options: RecoveryServiceOptions): Promise<RecoveryService> {
    return new RecoveryService(options, await loadRecoverySettings(options.settingsFile, options.log));
  }

  get settings(): RecoverySettings {
    return { ...this.#settings };
  }

  /** ISO time of the next interval sweep; null when recovery is off or not started. */
  get nextAttemptAt(): string | null {
    return this.#nextAt === undefined ? null : new Date(this.#nextAt).toISOString();
  }

  attempts(bridgeId: string): RecoveryAttempt[] {
    return this.#attempts.of(bridgeId);
  }

  /** Schedules the sweeps and listens for Home Assistant coming back. */
  start(): void {
    if (this.#started) return;
    this.#started = true;
    const { haClient, bridges } = this.#options;
    haClient.on("disconnected", this.#onHaDown);
    haClient.on("ready", this.#onHaReady);
    bridges.on("listChanged", this.#onListChanged);
    this.#schedule();
  }

  /** Stops the timer and waits for a sweep in progress (the hub stops the bridges next). */
  async stop(): Promise<void> {
    this.#started = false;
    this.#clearTimer();
    const { haClient, bridges } = this.#options;
    haClient.off("disconnected", this.#onHaDown);
    haClient.off("ready", this.#onHaReady);
    bridges.off("listChanged", this.#onListChanged);
    this.#again = undefined;
    await this.#sweep;
  }

  /** Persists new settings, then applies them at once: the timer restarts from now with the new interval. */
  async update(next: RecoverySettings): Promise<RecoverySettings> {
    await this.#options.settingsFile.write(RECOVERY_KEY, next);
    this.#settings = { ...next };
    this.#options.log.info(next, "recovery settings changed");
    this.#schedule();
    return this.settings;
  }

  /** One sweep now (also what the timer and the HA trigger run); a sweep already running is followed by one more. */
  recoverNow(trigger: RecoveryTrigger): Promise<void> {
    if (this.#sweep) {
      this.#again = trigger;
      return this.#sweep;
    }
    this.#sweep = this.#recoverFailed(trigger).finally(() => {
      this.#sweep = undefined;
      const again = this.#again;
      this.#again = undefined;
      if (again && this.#started) void this.recoverNow(again);
    });
    return this.#sweep;
  }

  async #recoverFailed(trigger: RecoveryTrigger): Promise<void> {
    const { bridges, log, diagnostics } = this.#options;
    const failed = bridges.list().filter((bridge) => bridge.status === "failed" && bridge.autoStart);
    for (const bridge of failed) {
      if (!this.#started || !this.#settings.autoRecoveryEnabled) return;
      let result: { ok: boolean; error?: string } | undefined;
      try {
        result = await bridges.recover(bridge.id);
      } catch (error) {
        result = { ok: false, error: (error as Error).message };
      }
      if (!result) continue; // stopped, deleted or already running by its turn: not an attempt
      const attempt: RecoveryAttempt = { at: new Date().toISOString(), ok: result.ok, trigger };
      if (result.error) attempt.error = result.error;
      this.#attempts.add(bridge.id, attempt);
      const message = result.ok
        ? `Recovery restarted bridge "${bridge.name}"`
        : `Recovery could not restart bridge "${bridge.name}": ${result.error ?? "still failed"}`;
      if (result.ok) log.info({ bridgeId: bridge.id, trigger }, message);
      else log.warn({ bridgeId: bridge.id, trigger, error: result.error }, message);
      diagnostics?.publish({
        type: "recovery_attempt",
        level: result.ok ? "info" : "warn",
        bridgeId: bridge.id,
        message,
        data: { ...attempt },
      });
    }
  }

  #schedule(): void {
    this.#clearTimer();
    if (!this.#started || !this.#settings.autoRecoveryEnabled) return;
    const interval = this.#settings.recoveryIntervalMs;
    this.#nextAt = Date.now() + interval;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#nextAt = undefined;
      // The next interval counts from the end of this sweep: slow restarts never pile up.
      void this.recoverNow("interval").finally(() => {
        if (!this.#timer) this.#schedule();
      });
    }, interval);
    this.#timer.unref();
  }

  #clearTimer(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#nextAt = undefined;
  }

  readonly #onHaDown = () => {
    this.#haWasDown = true;
  };

  readonly #onHaReady = () => {
    if (!this.#haWasDown) return; // the first connection: the bridges are starting anyway
    this.#haWasDown = false;
    if (this.#settings.autoRecoveryEnabled) void this.recoverNow("ha-reconnect");
  };

  readonly #onListChanged = () => {
    this.#attempts.keepOnly(new Set(this.#options.bridges.list().map((bridge) => bridge.id)));
  };
}
