/**
 * Plugin packages for tests: the example plugin packed into a `.tgz` with `npm pack` (offline, private cache),
 * small local plugin folders written on the fly, and npm settings that never reach the internet.
 */
import { execFile } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);

/** The example plugin package in this repository. */
export const EXAMPLE_PLUGIN_DIR = fileURLToPath(new URL("../../../../examples/example-plugin", import.meta.url));

/** npm environment for tests: a private cache and an unreachable registry unless one is given. */
export function offlineNpmEnv(cacheDir: string, registry = "http://127.0.0.1:9/"): Record<string, string> {
  return {
    npm_config_cache: cacheDir,
    npm_config_registry: registry,
    npm_config_update_notifier: "false",
    npm_config_fund: "false",
    npm_config_audit: "false",
    npm_config_fetch_retries: "0",
    npm_config_fetch_timeout: "5000",
  };
}

/** `npm pack` of a package folder into `outDir`; resolves with the archive's path. */
export async function packPlugin(packageDir: string, outDir: string, cacheDir: string): Promise<string> {
  await mkdir(outDir, { recursive: true });
  const { stdout } = await run("npm", ["pack", packageDir, "--pack-destination", outDir, "--json", "--ignore-scripts"], {
    env: { ...process.env, ...offlineNpmEnv(cacheDir) },
  });
  const [packed] = JSON.parse(stdout) as { filename: string }[];
  if (!packed) throw new Error("npm pack produced nothing");
  return join(outDir, packed.filename);
}

/** Writes a plugin package folder (`package.json` + `index.js` with `source`); resolves with its path. */
export async function writePluginFolder(
  parent: string,
  name: string,
  source: string,
  manifest: Record<string, unknown> = {},
): Promise<string> {
  const dir = join(parent, name.replace(/[@/]/g, "_"));
  await mkdir(dir, { recursive: true });
  const pkg = { name, version: "0.1.0", type: "module", main: "index.js", hubPluginApiVersion: 1, ...manifest };
  await writeFile(join(dir, "package.json"), `${JSON.stringify(pkg, null, 2)}\n`);
  await writeFile(join(dir, "index.js"), source);
  return dir;
}

/** A plugin whose onStart throws while `<its folder>/fail` exists (so a test can make it recover). */
export const THROWING_PLUGIN = `
import { existsSync } from "node:fs";
export default class Throwing {
  name = "throwing-plugin"; version = "0.1.0";
  async onStart(context) {
    if (existsSync(new URL("./fail", import.meta.url))) throw new Error("cannot reach the imaginary device");
    await context.registerDevice({ id: "lamp", name: "Recovered lamp", deviceType: "on_off_light" });
  }
  onConfigure() {} onShutdown() {} getConfigSchema() { return undefined; } onConfigChanged() {}
}
`;

/** A plugin whose onStart never settles. */
export const HANGING_PLUGIN = `
export default class Hanging {
  name = "hanging-plugin"; version = "0.1.0";
  onStart() { return new Promise(() => {}); }
  onConfigure() {} onShutdown() {} getConfigSchema() { return undefined; } onConfigChanged() {}
}
`;
