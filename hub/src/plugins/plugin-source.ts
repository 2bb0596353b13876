/**
 * What a bridge's plugin host knows about a plugin it may run: a name and a way to make fresh instances. Built-in
 * plugins get hub services (status line, clock, their own dependencies); installed packages are constructed with
 * `new Plugin()` exactly as the plugin API says.
 */
import type { Logger } from "../../../lib/logger.ts";
import type { HubPlugin } from "./api.ts";
import type { Clock } from "./clock.ts";

/** Hub services a built-in plugin instance receives besides the plugin context. */
export interface BuiltinServices {
  readonly bridgeId: string;
  readonly clock: Clock;
  readonly log: Logger;
  /** The status line of the plugin on this bridge (GET /api/plugins), with optional details for its dialog. */
  setStatus(status: string | null, details?: Record<string, unknown>): void;
}

/** A built-in plugin: no installation, listed on every standard bridge, enabled by default. */
export interface BuiltinPluginDefinition {
  readonly name: string;
  readonly version: string;
  readonly description: string;
  readonly experimental: boolean;
  create(services: BuiltinServices): HubPlugin;
}

export interface PluginSource {
  readonly name: string;
  readonly builtin: boolean;
  /** Resolves when the package can be loaded (a background reinstall is done); not time-boxed. */
  ready?(): Promise<void>;
  /** A fresh instance (imports the module, runs the constructor); throws a readable reason. Time-boxed by the slot. */
  instantiate(services: BuiltinServices): Promise<HubPlugin>;
}

/** The source of a built-in plugin. */
export function builtinSource(definition: BuiltinPluginDefinition): PluginSource {
  return {
    name: definition.name,
    builtin: true,
    instantiate: async (services) => definition.create(services),
  };
}
