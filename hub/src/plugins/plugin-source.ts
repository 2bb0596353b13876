/**
 * What a bridge's plugin host knows about a plugin it may run: a name and a way to make fresh instances. Built-in
 * plugins get the BuiltinServices of builtin-services.ts (the slot's part here, the hub's part bound in
 * {@link builtinSource}); installed packages are constructed with `new Plugin()` exactly as the plugin API says.
 */
import type { HubPlugin } from "./api.ts";
import type { BuiltinPluginDefinition, BuiltinServices, HubBuiltinServices } from "./builtin-services.ts";

/** The BuiltinServices members a plugin slot provides: per bridge and plugin. */
export type SlotServices = Omit<BuiltinServices, keyof HubBuiltinServices>;

export interface PluginSource {
  readonly name: string;
  /** What the UI calls it; an installed package goes by its package name. */
  readonly displayName?: string;
  readonly builtin: boolean;
  /** Resolves when the package can be loaded (a background reinstall is done); not time-boxed. */
  ready?(): Promise<void>;
  /** A fresh instance (imports the module, runs the constructor); throws a readable reason. Time-boxed by the slot. */
  instantiate(services: SlotServices): Promise<HubPlugin>;
}

/** The source of a built-in plugin: its instances get the slot's services and the hub's. */
export function builtinSource(definition: BuiltinPluginDefinition, hub: HubBuiltinServices): PluginSource {
  return {
    name: definition.name,
    displayName: definition.displayName,
    builtin: true,
    instantiate: async (services) => definition.create({ ...services, ...hub }),
  };
}
