/**
 * Reading and checking a plugin package's manifest (`package.json`, docs/plugins.md "Package manifest") and
 * refusing packages that bring their own matter.js: a second copy of @matter/* (or the older @project-chip/*)
 * builds endpoints the hub's node cannot host ("Only supported EndpointInterface implementation is Endpoint",
 * research A1), and external plugins never need it — they describe devices by device type key and cluster data.
 */
import { readdir, readFile } from "node:fs/promises";
import { join, posix } from "node:path";
import { HUB_PLUGIN_API_VERSION } from "./api.ts";
import { packageNameProblem } from "./package-name.ts";

/** A manifest the hub can load, with what it had to say about it. */
export interface CheckedManifest {
  name: string;
  version: string;
  main: string;
  description: string;
  hubPluginApiVersion: number | undefined;
  /** Problems that do not stop loading (API version mismatch). */
  warnings: string[];
  /** Every dependency field, for the matter.js check. */
  dependencies: Record<string, unknown>;
}

/** A package the hub refuses; the message says why and what to change. */
export class PluginPackageError extends Error {
  override name = "PluginPackageError";
}

const FORBIDDEN = [/^@matter\//, /^@project-chip\//];
const DEPENDENCY_FIELDS = [
  "dependencies",
  "optionalDependencies",
  "peerDependencies",
  "bundleDependencies",
  "bundledDependencies",
];

/** Checks a parsed package.json; throws a {@link PluginPackageError} for anything that prevents loading. */
export function checkManifest(raw: unknown, where: string): CheckedManifest {
  if (typeof raw !== "object" || raw === null) throw new PluginPackageError(`${where}: package.json is not an object`);
  const pkg = raw as Record<string, unknown>;
  const name = pkg.name;
  if (typeof name !== "string" || packageNameProblem(name) !== undefined)
    throw new PluginPackageError(`${where}: package.json needs a valid "name"`);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is refused
  if (typeof pkg.version !== "string" || pkg.version === "" || pkg.version.length > 256 || /[\u0000-\u001f]/.test(pkg.version))
    throw new PluginPackageError(`${name}: package.json needs a "version" (at most 256 characters)`);
  if (typeof pkg.main !== "string" || pkg.main === "")
    throw new PluginPackageError(`${name}: package.json needs "main" (the entry file)`);
  if (!mainStaysInside(pkg.main))
    throw new PluginPackageError(`${name}: "main" (${pkg.main}) must name a file inside the package`);
  if (pkg.type !== "module" && !pkg.main.endsWith(".mjs")) {
    throw new PluginPackageError(`${name}: plugins are ES modules; set "type": "module" in package.json`);
  }
  const dependencies: Record<string, unknown> = {};
  for (const field of DEPENDENCY_FIELDS) {
    const value = pkg[field];
    if (Array.isArray(value)) for (const dep of value) dependencies[String(dep)] = true;
    else if (typeof value === "object" && value !== null) Object.assign(dependencies, value);
  }
  refuseOwnMatter(name, Object.keys(dependencies), "in its package.json dependencies");
  const version = pkg.hubPluginApiVersion;
  const apiVersion = typeof version === "number" && Number.isInteger(version) ? version : undefined;
  const warning = apiVersionWarning(name, apiVersion);
  const warnings = warning ? [warning] : [];
  const description = typeof pkg.description === "string" ? pkg.description : "";
  return { name, version: pkg.version, main: pkg.main, description, hubPluginApiVersion: apiVersion, warnings, dependencies };
}

/**
 * The hub's own plugin API check: a package that declares another `hubPluginApiVersion` (or none) is loaded anyway
 * (the spec: a warning, not a refusal); this says so in one sentence, or is undefined when the versions match.
 */
export function apiVersionWarning(name: string, apiVersion: number | undefined): string | undefined {
  if (apiVersion === HUB_PLUGIN_API_VERSION) return undefined;
  return `${name} targets plugin API version ${apiVersion ?? "(none: hubPluginApiVersion is missing)"}, this hub implements ${HUB_PLUGIN_API_VERSION}; loading it anyway`;
}

/**
 * True when `main` names a file inside the package by its text alone (relative, no way out through `..`). The
 * loader checks the real path again after following links (plugin-loader.ts).
 */
export function mainStaysInside(main: string): boolean {
  if (main.includes("\0") || posix.isAbsolute(main)) return false;
  const normal = posix.normalize(main);
  return normal !== ".." && !normal.startsWith("../") && normal !== ".";
}

/** Throws when any of `names` is a matter.js package. */
export function refuseOwnMatter(plugin: string, names: readonly string[], where: string): void {
  const bundled = names.filter((dep) => FORBIDDEN.some((pattern) => pattern.test(dep)));
  if (bundled.length === 0) return;
  throw new PluginPackageError(
    `${plugin} bundles its own matter.js (${bundled.join(", ")} ${where}). Plugins must not ship matter.js: the hub ` +
      "hosts their devices on its own Matter stack (register devices by deviceType and cluster data). Remove it and rebuild the package.",
  );
}

/** Reads and checks `<dir>/package.json`. */
export async function readManifest(dir: string): Promise<CheckedManifest> {
  let text: string;
  try {
    text = await readFile(join(dir, "package.json"), "utf8");
  } catch {
    throw new PluginPackageError(`${dir} has no package.json`);
  }
  try {
    return checkManifest(JSON.parse(text), dir);
  } catch (error) {
    if (error instanceof PluginPackageError) throw error;
    throw new PluginPackageError(`${dir}/package.json is not valid JSON`);
  }
}

/** Refuses a folder whose `node_modules` (any of `roots`) holds @matter/* or @project-chip/* packages. */
export async function refuseInstalledMatter(plugin: string, roots: readonly string[]): Promise<void> {
  const found: string[] = [];
  for (const root of roots) {
    for (const scope of ["@matter", "@project-chip"]) {
      const entries = await readdir(join(root, "node_modules", scope)).catch(() => [] as string[]);
      found.push(...entries.filter((entry) => !entry.startsWith(".")).map((entry) => `${scope}/${entry}`));
    }
  }
  refuseOwnMatter(plugin, [...new Set(found)], "in node_modules");
}
