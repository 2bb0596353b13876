/**
 * The user's side of a plugin slot (the per-bridge endpoints of docs/plugins.md "Endpoints"): enable, disable
 * (devices removed at once, choice persisted), reset after the breaker, config schema and configuration applied
 * without a bridge restart. Failures of `onConfigChanged` and `onShutdown` count toward the breaker like a failed
 * start.
 */
import { conflict, HttpError } from "../../../lib/http-error.ts";
import type { PluginConfigSchema } from "./api.ts";
import { describe } from "./lifecycle-call.ts";
import { prepareConfig, publicConfig } from "./plugin-config.ts";
import type { PluginDeviceRow } from "./plugin-device-set.ts";
import { PluginSlot, type SlotState } from "./plugin-slot.ts";

/** A plugin on a bridge as `GET /api/plugins` shows it. */
export interface SlotInfo {
  name: string;
  /** What the UI calls it: a built-in's display name ("Appliance cloud"), an installed package's name. */
  displayName: string;
  builtin: boolean;
  enabled: boolean;
  autoDisabled: boolean;
  state: SlotState;
  failures: number;
  lastError: string | null;
  /** The plugin's status line (built-ins: e.g. the cloud sign-in result). */
  status: string | null;
  /**
   * The plugin runs (`state` "running") but has nothing to do until its settings are saved: a built-in without
   * its settings (no cameras, no account). The UI says "Needs settings" instead of "Running".
   */
  needsSettings: boolean;
  details: Record<string, unknown> | null;
  config: Record<string, unknown> | null;
  /** Names of secret fields that have a stored value (the values are never sent). */
  secretsSet: string[];
  devices: PluginDeviceRow[];
}

function isSchema(value: unknown): value is PluginConfigSchema {
  const schema = value as PluginConfigSchema | undefined;
  return typeof schema?.title === "string" && typeof schema.properties === "object" && schema.properties !== null;
}

export class ManagedPluginSlot extends PluginSlot {
  async enable(): Promise<void> {
    if (this.record.autoDisabled) {
      throw conflict(
        `plugin ${this.name} was disabled by the circuit breaker (${this.record.lastError ?? "failures"}); reset it instead`,
      );
    }
    this.record = { ...this.record, enabled: true };
    await this.deps.files.writeState(this.record);
    if (this.state === "disabled") this.state = "stopped";
    this.start();
  }

  async disable(): Promise<void> {
    this.record = { ...this.record, enabled: false };
    await this.deps.files.writeState(this.record);
    await this.#takeDown("disabled");
  }

  /** Clears the breaker and re-enables the plugin (a running instance is restarted). */
  async reset(): Promise<void> {
    this.breaker.reset();
    this.record = { enabled: true, autoDisabled: false, failures: 0, lastError: null };
    await this.deps.files.writeState(this.record);
    // A running instance is shut down; its devices stay for the new run to take over (same ids, same numbers).
    const instance = this.instance;
    this.endRun();
    const domains = this.deps.mappings.drop(this.name);
    if (domains.length > 0) void this.deps.seam.remapDomains(domains);
    if (instance) await this.call("onShutdown", () => instance.onShutdown("reset")).catch(() => undefined);
    this.state = this.restingState();
    this.start();
  }

  /** The plugin is uninstalled: devices off the bridge, then its files on this bridge. */
  async remove(): Promise<void> {
    await this.#takeDown("uninstalled");
    await this.deps.files.remove();
  }

  /** The schema of the running instance, or of a throw-away instance when the plugin is not running. */
  async configSchema(): Promise<PluginConfigSchema | null> {
    let instance = this.instance;
    try {
      instance ??= await this.call("load", () =>
        this.deps.source.instantiate({ ...this.services(), setStatus: () => undefined }),
      );
      const current = instance;
      const schema = await this.call("getConfigSchema", () => current.getConfigSchema());
      if (schema === undefined || schema === null) return null;
      if (!isSchema(schema)) throw new Error("getConfigSchema returned something that is not {title, properties}");
      return schema;
    } catch (error) {
      throw new HttpError(502, `plugin ${this.name}: ${describe(error)}`);
    }
  }

  /** Saves the configuration and, when the plugin runs, applies it through `onConfigChanged`. */
  async configure(input: Record<string, unknown>): Promise<{ applied: boolean; error: string | null }> {
    const schema = await this.configSchema().catch(() => null);
    const prepared = prepareConfig(schema ?? undefined, input, await this.deps.files.readSecrets());
    await this.deps.files.writeConfig(prepared.config, prepared.secrets);
    const instance = this.instance;
    if (this.state !== "running" || !instance) return { applied: false, error: null };
    try {
      await this.call("onConfigChanged", () => instance.onConfigChanged(prepared.full));
      await this.recordSuccess();
      return { applied: true, error: null };
    } catch (error) {
      if (await this.recordFailure(error)) {
        await this.abandon("circuit breaker");
        await this.trip();
      }
      return { applied: false, error: describe(error) };
    }
  }

  async info(): Promise<SlotInfo> {
    const [config, secrets] = await Promise.all([this.deps.files.readConfig(), this.deps.files.readSecrets()]);
    return {
      name: this.name,
      displayName: this.deps.source.displayName ?? this.name,
      builtin: this.deps.source.builtin,
      enabled: this.enabled,
      autoDisabled: this.record.autoDisabled,
      state: this.state,
      failures: this.record.failures,
      lastError: this.record.lastError,
      status: this.status.line,
      details: this.status.details,
      needsSettings: this.state === "running" && this.status.needsSettings,
      ...publicConfig(config, secrets),
      devices: this.devices.rows(),
    };
  }

  /** Devices removed at once and mappings dropped, then `onShutdown` (time-boxed). */
  async #takeDown(reason: string): Promise<void> {
    const instance = this.instance;
    this.endRun();
    await this.devices.unmountAll();
    const domains = this.deps.mappings.drop(this.name);
    if (domains.length > 0) void this.deps.seam.remapDomains(domains);
    this.state = this.restingState();
    this.status = { line: null, details: null, needsSettings: false };
    if (instance) {
      await this.call("onShutdown", () => instance.onShutdown(reason)).catch((error: unknown) => this.recordFailure(error));
    }
  }
}
