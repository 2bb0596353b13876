/**
 * Installs plugin packages into their own npm prefix, `<HUB_DATA_DIR>/plugin-packages` (its own package.json and
 * node_modules, isolated from the hub's): from the registry by name, from an uploaded `.tgz` (kept in
 * `plugin-uploads/` so it can be reinstalled), or as a symlink to a local folder. Every package is checked before
 * it is recorded (manifest, no bundled matter.js). One operation at a time.
 *
 * npm installs into a copy of the npm folder (`plugin-packages.staging`), which replaces the real one only once the
 * package passed every check: a failed, refused or cancelled install leaves the plugin folder as it was, whatever
 * npm had written when it ended (docs/plugins.md "Install progress, cancel and failures").
 */
import { access, cp, lstat, mkdir, readFile, rename, rm, symlink, writeFile } from "node:fs/promises";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import type { Logger } from "../../../lib/logger.ts";
import { SerialWriter, writeFileAtomic } from "../storage/atomic-file.ts";
import {
  type CheckedManifest,
  checkManifest,
  PluginPackageError,
  readManifest,
  refuseInstalledMatter,
  refuseOwnMatter,
} from "./manifest.ts";
import { NpmError } from "./npm-failure.ts";
import { type InstallPhase, laterPhase, npmLineProgress } from "./npm-progress.ts";
import type { NpmRunner } from "./npm-runner.ts";
import { isInsideFolder, type PackageSpec, packageNameProblem, parsePackageSpec as parseSpec } from "./package-name.ts";
import { checkPackageRecord } from "./package-record.ts";
import type { InstalledPackage, PackagePaths, PackageRegistry, PackageSource } from "./package-registry.ts";
import { readPackageArchive } from "./tar-reader.ts";

export interface InstallerOptions {
  paths: PackagePaths;
  npm: NpmRunner;
  registry: PackageRegistry;
  /** Names of built-in plugins: no package may take them. */
  reservedNames: readonly string[];
  log: Logger;
}

/** Splits `name` or `name@version-or-tag` (package-name.ts); anything else is a {@link PluginPackageError}. */
export function parsePackageSpec(spec: string): PackageSpec {
  const parsed = parseSpec(spec);
  if ("problem" in parsed) throw new PluginPackageError(parsed.problem);
  return parsed;
}

/** What an install reports and listens to (install-jobs.ts): its steps, and a cancel. */
export interface InstallWatch {
  signal?: AbortSignal;
  /** A step: the phase it belongs to and a line for the user (npm's own line while npm runs). */
  progress?(phase: InstallPhase, message: string): void;
}

export class PluginInstaller {
  readonly #options: InstallerOptions;
  readonly #queue = new SerialWriter();

  constructor(options: InstallerOptions) {
    this.#options = options;
  }

  /**
   * Where a package's files are (a folder, or the symlink of a local one). Throws for anything but a package
   * name, and checks that the folder is inside `plugin-packages/node_modules` whatever the name holds.
   */
  packageDir(name: string): string {
    const problem = packageNameProblem(name);
    if (problem) throw new PluginPackageError(`${JSON.stringify(name)}: ${problem}`);
    const root = resolve(this.#options.paths.prefix, "node_modules");
    const dir = resolve(root, ...name.split("/"));
    if (!isInsideFolder(root, dir)) {
      throw new PluginPackageError(`"${name}" would be installed outside the plugins folder`);
    }
    return dir;
  }

  installFromRegistry(spec: string, watch: InstallWatch = {}): Promise<InstalledPackage> {
    const { name } = parsePackageSpec(spec);
    return this.#queue.run(async () => {
      throwIfCancelled(watch, spec);
      watch.progress?.("resolving", `Reading the published manifest of ${spec.trim()}`);
      await this.#refuseName(name);
      await this.#checkPublished(spec.trim(), name, watch);
      const { manifest, record } = await this.#npmInstall(spec.trim(), name, watch, { type: "registry", spec: spec.trim() });
      return this.#record(manifest, record);
    });
  }

  installFromArchive(archive: Uint8Array, watch: InstallWatch = {}): Promise<InstalledPackage> {
    return this.#queue.run(async () => {
      throwIfCancelled(watch, "the uploaded archive");
      watch.progress?.("resolving", "Reading the uploaded archive");
      let contents: ReturnType<typeof readPackageArchive>;
      try {
        contents = readPackageArchive(archive);
      } catch (error) {
        throw new PluginPackageError(`the upload is not an npm package archive: ${(error as Error).message}`);
      }
      const checked = checkManifest(contents.manifest, "the uploaded archive");
      const bundled = contents.paths.flatMap(
        (path) => /\/node_modules\/(@matter|@project-chip)\/([^/]+)\//.exec(path)?.slice(1, 3).join("/") ?? [],
      );
      refuseOwnMatter(checked.name, [...new Set(bundled)], "bundled in the archive");
      await this.#refuseName(checked.name);
      const file = `${checked.name.replace(/^@/, "").replace(/\//g, "-")}-${checked.version}.tgz`.replace(
        /[^A-Za-z0-9._-]/g,
        "_",
      );
      await mkdir(this.#options.paths.uploads, { recursive: true });
      await writeFile(join(this.#options.paths.uploads, file), archive);
      try {
        const spec = join(this.#options.paths.uploads, file);
        const { manifest, record } = await this.#npmInstall(spec, checked.name, watch, { type: "upload", file });
        return await this.#record(manifest, record);
      } catch (error) {
        // The archive is kept only for a package that is installed: it is what a lost folder is reinstalled from.
        const recorded = this.#options.registry.get(checked.name)?.source;
        if (recorded?.type !== "upload" || recorded.file !== file) {
          await rm(join(this.#options.paths.uploads, file), { force: true });
        }
        throw error;
      }
    });
  }

  linkLocal(path: string): Promise<InstalledPackage> {
    return this.#queue.run(async () => {
      if (!isAbsolute(path)) throw new PluginPackageError(`"${path}" is not an absolute folder path`);
      const info = await lstat(path).catch(() => undefined);
      if (!info?.isDirectory()) throw new PluginPackageError(`${path} is not a folder`);
      const manifest = await readManifest(path);
      await refuseInstalledMatter(manifest.name, [path]);
      await this.#refuseName(manifest.name);
      const record = this.#recordOf(manifest, { type: "local", path });
      await this.#link(manifest.name, path);
      return this.#record(manifest, record);
    });
  }

  uninstall(name: string): Promise<void> {
    return this.#queue.run(async () => {
      const record = this.#options.registry.get(name);
      if (record?.source.type === "local") await rm(this.packageDir(name), { force: true });
      else await this.#options.npm.run(["uninstall"], this.#options.paths.prefix, [name]);
      if (record?.source.type === "upload") await rm(join(this.#options.paths.uploads, record.source.file), { force: true });
      await this.#options.registry.delete(name);
      await this.#relinkLocal();
    });
  }

  /** True when a recorded package's folder is gone (or holds no package). */
  async missing(record: InstalledPackage): Promise<boolean> {
    return !(await exists(join(this.packageDir(record.name), "package.json")));
  }

  /** Reinstalls a recorded package whose folder is gone; resolves with the reason when that is not possible. */
  restore(record: InstalledPackage): Promise<string | undefined> {
    return this.#queue.run(async () => {
      if (!(await this.missing(record))) return undefined;
      this.#options.log.warn({ plugin: record.name, source: record.source }, `plugin ${record.name} is missing: reinstalling it`);
      try {
        const source = record.source;
        if (source.type === "local") {
          if (!(await exists(join(source.path, "package.json")))) return `the linked folder ${source.path} is gone`;
          await this.#link(record.name, source.path);
          return undefined;
        }
        const spec = source.type === "upload" ? join(this.#options.paths.uploads, source.file) : source.spec;
        if (source.type === "upload" && !(await exists(spec))) return `the uploaded archive ${source.file} is gone`;
        // npm installs everything its package.json lists: another lost package whose source fails (a registry out
        // of reach) must not take this one down with it, so only packages that are present stay listed.
        await this.#listOnlyPresent();
        await this.#npmInstall(spec, record.name);
        this.#options.log.info({ plugin: record.name }, `plugin ${record.name} reinstalled`);
        return undefined;
      } catch (error) {
        return (error as Error).message;
      }
    });
  }

  async #prepare(): Promise<void> {
    const manifest = join(this.#options.paths.prefix, "package.json");
    if (await exists(manifest)) return;
    await mkdir(this.#options.paths.prefix, { recursive: true });
    const pkg = { name: "matter-hub-plugins", private: true, description: "Plugins installed by Matter Hub", dependencies: {} };
    await writeFile(manifest, `${JSON.stringify(pkg, null, 2)}\n`);
  }

  /**
   * The published manifest is checked before anything is downloaded: a package that brings matter.js would
   * otherwise pull all of it in only to be refused (or fail on npm's own terms, with a less useful message).
   */
  async #checkPublished(spec: string, name: string, watch: InstallWatch): Promise<void> {
    await this.#prepare();
    const output = await this.#options.npm.run(
      ["view", "--json"],
      this.#options.paths.prefix,
      [spec],
      npmWatch(watch, "resolving"),
    );
    let viewed: unknown;
    try {
      viewed = JSON.parse(output || "null");
    } catch {
      return; // npm's output changed: the checks after the install still apply
    }
    if (Array.isArray(viewed)) viewed = viewed.at(-1);
    if (viewed === null || viewed === undefined)
      throw new PluginPackageError(`no published version of ${name} matches "${spec}"`);
    checkManifest(viewed, spec);
  }

  /**
   * npm install into a copy of the npm folder, the checks there, and the copy replaces the real folder only when
   * they pass; with `source`, the record is built (and checked) before that. Anything that fails or is cancelled
   * leaves the real folder untouched.
   */
  async #npmInstall(spec: string, name: string, watch: InstallWatch = {}, source?: PackageSource) {
    const { prefix } = this.#options.paths;
    const staging = `${prefix}.staging`;
    try {
      await this.#prepare();
      await rm(staging, { recursive: true, force: true });
      await cp(prefix, staging, { recursive: true, verbatimSymlinks: true });
      throwIfCancelled(watch, spec);
      await this.#options.npm.run(["install", "--save"], staging, [spec], npmWatch(watch, "fetching"));
      throwIfCancelled(watch, spec);
      watch.progress?.("checking", `Checking ${name}: its manifest, and that it brings no matter.js of its own`);
      const dir = this.#dirIn(staging, name);
      const manifest = await readManifest(dir);
      if (manifest.name !== name) throw new PluginPackageError(`the package installed as ${name} calls itself ${manifest.name}`);
      await refuseInstalledMatter(name, [dir, staging]);
      const record = source ? this.#recordOf(manifest, source) : undefined;
      throwIfCancelled(watch, spec);
      // From here on the install completes: a cancel is refused (install-jobs.ts), so nothing is left half-done.
      watch.progress?.("recording", `Recording ${name} ${manifest.version}`);
      await this.#swapIn(staging);
      return { manifest, record };
    } finally {
      await rm(staging, { recursive: true, force: true }).catch(() => undefined);
      await this.#relinkLocal();
    }
  }

  /** Replaces the npm folder by the staged one (two renames; {@link recover} finishes an interrupted swap). */
  async #swapIn(staging: string): Promise<void> {
    const { prefix } = this.#options.paths;
    const old = `${prefix}.old`;
    await rm(old, { recursive: true, force: true });
    await rename(prefix, old);
    await rename(staging, prefix);
    await rm(old, { recursive: true, force: true });
  }

  /**
   * Finishes what a hub that ended during an install left: the staged copy is dropped, and a real folder moved
   * aside but not yet replaced is put back. Called at start, before anything reads the folder.
   */
  async recover(): Promise<void> {
    const { prefix } = this.#options.paths;
    const old = `${prefix}.old`;
    if (!(await exists(prefix)) && (await exists(old))) await rename(old, prefix);
    await rm(old, { recursive: true, force: true });
    await rm(`${prefix}.staging`, { recursive: true, force: true });
  }

  #dirIn(root: string, name: string): string {
    return join(root, "node_modules", relative(resolve(this.#options.paths.prefix, "node_modules"), this.packageDir(name)));
  }

  #recordOf(manifest: CheckedManifest, source: PackageSource): InstalledPackage {
    const record: InstalledPackage = {
      name: manifest.name,
      version: manifest.version,
      description: manifest.description,
      source,
      installedAt: new Date().toISOString(),
      hubPluginApiVersion: manifest.hubPluginApiVersion ?? null,
    };
    // The same check as a restored or loaded record: what the install API records, a backup can carry back.
    const check = checkPackageRecord(record.name, record, this.#options.reservedNames);
    if (!check.ok) throw new PluginPackageError(`${record.name}: ${check.reason}`);
    return record;
  }

  async #record(manifest: CheckedManifest, record: InstalledPackage | undefined): Promise<InstalledPackage> {
    if (!record) throw new Error(`${manifest.name}: no record was built`);
    for (const warning of manifest.warnings) this.#options.log.warn({ plugin: manifest.name }, warning);
    await this.#options.registry.put(record);
    return record;
  }

  async #refuseName(name: string): Promise<void> {
    if (this.#options.reservedNames.includes(name)) throw new PluginPackageError(`"${name}" is the name of a built-in plugin`);
    const existing = this.#options.registry.get(name);
    if (existing?.source.type === "local") {
      throw new PluginPackageError(`${name} is linked from ${existing.source.path}; uninstall it first`);
    }
  }

  async #link(name: string, path: string): Promise<void> {
    const target = this.packageDir(name);
    const current = await lstat(target).catch(() => undefined);
    if (current && !current.isSymbolicLink()) throw new PluginPackageError(`${name} is already installed; uninstall it first`);
    await rm(target, { force: true });
    await mkdir(dirname(target), { recursive: true });
    await symlink(path, target, "dir");
  }

  /** Drops dependencies whose folder is missing from npm's package.json (see {@link restore}). */
  async #listOnlyPresent(): Promise<void> {
    const path = join(this.#options.paths.prefix, "package.json");
    const text = await readFile(path, "utf8").catch(() => undefined);
    if (text === undefined) return;
    const pkg = JSON.parse(text) as { dependencies?: Record<string, string> };
    const dependencies = pkg.dependencies ?? {};
    const present: Record<string, string> = {};
    for (const [name, spec] of Object.entries(dependencies)) {
      if (packageNameProblem(name) === undefined && (await exists(join(this.packageDir(name), "package.json"))))
        present[name] = spec;
    }
    if (Object.keys(present).length === Object.keys(dependencies).length) return;
    await writeFileAtomic(path, `${JSON.stringify({ ...pkg, dependencies: present }, null, 2)}\n`, 0o644);
  }

  /** npm prunes what its package.json does not list, local links included: put them back after every run. */
  async #relinkLocal(): Promise<void> {
    for (const record of this.#options.registry.list()) {
      if (record.source.type !== "local" || (await exists(join(this.packageDir(record.name), "package.json")))) continue;
      if (await exists(join(record.source.path, "package.json")))
        await this.#link(record.name, record.source.path).catch(() => undefined);
    }
  }
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

/** Throws the cancelled error once the install's signal is aborted. */
function throwIfCancelled(watch: InstallWatch, subject: string): void {
  if (watch.signal?.aborted) {
    throw new NpmError(`The installation of ${subject} was cancelled. Nothing was installed.`, "cancelled");
  }
}

/** npm's run options for an install: its cancel, and its lines as progress (phase from the line, else `fallback`). */
function npmWatch(watch: InstallWatch, fallback: InstallPhase) {
  const { progress, signal } = watch;
  let phase = fallback;
  return {
    signal,
    onLine: progress
      ? (line: string) => {
          const step = npmLineProgress(line);
          if (!step) return;
          if (step.phase) phase = laterPhase(phase, step.phase);
          progress(phase, step.message);
        }
      : undefined,
  };
}
