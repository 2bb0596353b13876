/**
 * Loads an installed plugin package: imports its `main` module and checks that the default export is a class
 * with the hooks of {@link HubPlugin}. Only `onStart` is mandatory at run time; a missing optional hook is a
 * no-op. ES modules are cached by URL for the life of the process, so a package updated in place runs its new
 * code after a hub restart; a linked local folder's main file is re-imported when it changed (development).
 */
import { realpath, stat } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { HubPlugin, HubPluginClass } from "./api.ts";
import { PluginPackageError, readManifest } from "./manifest.ts";
import { isInsideFolder } from "./package-name.ts";

/** A loaded plugin class and the version it was loaded at. */
export interface LoadedPlugin {
  name: string;
  version: string;
  Plugin: HubPluginClass;
  warnings: string[];
}

/**
 * Imports the package at `dir` (a folder or a symlink to one). `fresh` busts the module cache for the main file.
 * The main file must be inside the package after every link is followed: a `main` of `../../x.js`, or a link in
 * the package pointing elsewhere, would run code the package does not contain. `within` is the folder the package
 * itself must be in (installed packages: `plugin-packages/node_modules`; a linked local folder is anywhere).
 */
export async function loadPluginPackage(dir: string, options: { fresh?: boolean; within?: string } = {}): Promise<LoadedPlugin> {
  const manifest = await readManifest(dir);
  const root = await realpath(dir);
  if (options.within !== undefined && !isInsideFolder(await realpath(options.within), root)) {
    throw new PluginPackageError(`${manifest.name}: its folder leads outside the plugins folder`);
  }
  const main = await realpath(join(root, manifest.main)).catch(() => {
    throw new PluginPackageError(`${manifest.name}: its main file ${manifest.main} does not exist`);
  });
  if (!isInsideFolder(root, main)) {
    throw new PluginPackageError(`${manifest.name}: its main file ${manifest.main} leads outside the package`);
  }
  let url = pathToFileURL(main).href;
  if (options.fresh) url += `?mtime=${(await stat(main)).mtimeMs}`;
  let module: { default?: unknown };
  try {
    module = (await import(url)) as { default?: unknown };
  } catch (error) {
    throw new PluginPackageError(
      `${manifest.name}: its main module ${manifest.main} failed to load: ${(error as Error).message}`,
    );
  }
  const Plugin = module.default;
  if (typeof Plugin !== "function" || typeof (Plugin as { prototype?: unknown }).prototype !== "object") {
    throw new PluginPackageError(`${manifest.name}: the default export must be the plugin class (got ${typeof Plugin})`);
  }
  if (typeof (Plugin.prototype as Partial<HubPlugin>).onStart !== "function") {
    throw new PluginPackageError(`${manifest.name}: the plugin class has no onStart(context) method`);
  }
  return { name: manifest.name, version: manifest.version, Plugin: Plugin as HubPluginClass, warnings: manifest.warnings };
}

const OPTIONAL_HOOKS = ["onConfigure", "onShutdown", "getConfigSchema", "onConfigChanged"] as const;

/**
 * A new instance with every hook callable (missing optional hooks become no-ops) and `name`/`version` filled
 * from the manifest when the class does not set them.
 */
export function instantiatePlugin(loaded: LoadedPlugin): HubPlugin {
  const instance = new loaded.Plugin() as HubPlugin & Record<string, unknown>;
  for (const hook of OPTIONAL_HOOKS) {
    if (typeof instance[hook] !== "function") instance[hook] = () => undefined;
  }
  if (typeof instance.name !== "string") Object.defineProperty(instance, "name", { value: loaded.name });
  if (typeof instance.version !== "string") Object.defineProperty(instance, "version", { value: loaded.version });
  return instance;
}
