import { join } from "node:path";
import type { PackageSource } from "../plugins/package-record.ts";
import { pluginFolderName } from "../plugins/plugin-files.ts";
import { readJsonFile } from "../storage/atomic-file.ts";
import type { VerifiedArchive } from "./archive-reader.ts";
import { BRIDGES_FILE } from "./backup-layout.ts";
import type { BackupManifest } from "./backup-manifest.ts";
import { listDataFiles } from "./data-files.ts";

/** What a restore takes from the backup, after the options were applied to what the backup holds. */
export interface RestoreChoice {
  /** The Matter identity files are (would be) restored. */
  includeIdentity: boolean;
  /** The lock PIN hashes are (would be) restored; otherwise this hub's PINs stay as they are. */
  includeLockPins: boolean;
  /** The operator accepts plugin packages linked from local folders (docs/backup.md "Plugins"). */
  allowLocalPlugins: boolean;
}

/** A plugin package the restored hub installs (or links) at its start. */
export interface RestoredPlugin {
  name: string;
  version: string;
  source: PackageSource;
  /** Bridges of the backup on which the plugin is enabled, so it runs right after the restart. */
  enabledOn: string[];
}

/** What `POST /api/backup/restore/preview` answers (and `restore` too, describing what it did). */
export interface RestorePreview extends RestoreChoice {
  manifest: BackupManifest;
  /** The bridges of the backup: `added` when this hub has no bridge with that id, `replaced` otherwise. */
  bridges: { id: string; name: string; port: number; change: "added" | "replaced" }[];
  /** Bridges of this hub that the backup does not have: they are gone after the restore. */
  removedBridges: { id: string; name: string }[];
  /**
   * How many bridges the restore adds, replaces and removes: the counts of `bridges` and `removedBridges`, which a
   * summary must say. The file counts below are not bridge counts: every bridge shares bridges.json.
   */
  bridgeChanges: { added: number; replaced: number; removed: number };
  /** Data-dir-relative paths written where none was, overwritten, and moved away without replacement. */
  files: { added: string[]; replaced: string[]; removed: string[] };
  /** Every plugin package the restored hub installs at start, and where it is enabled. */
  plugins: RestoredPlugin[];
  /** Whether `POST /restore` with the same options would go ahead; `problems` say why not. */
  valid: boolean;
  problems: string[];
}

/** Compares a verified archive with the data dir as it is now. */
export async function describeRestore(dataDir: string, archive: VerifiedArchive, choice: RestoreChoice): Promise<RestorePreview> {
  const current = (await readJsonFile<{ bridges?: { id: string; name: string }[] }>(join(dataDir, BRIDGES_FILE)))?.bridges ?? [];
  const currentIds = new Set(current.map((bridge) => bridge.id));
  const archiveIds = new Set(archive.bridges.map((bridge) => bridge.id));

  const taken = { config: true, identity: choice.includeIdentity, "lock-pins": choice.includeLockPins };
  const incoming = new Set(archive.entries.filter((entry) => taken[entry.kind]).map((entry) => entry.path));
  const present = new Set((await listDataFiles(dataDir, { ...choice, extraBridgeIds: archiveIds })).map((file) => file.path));
  const sorted = (paths: Iterable<string>) => [...paths].sort();
  const plugins = archive.packages.map(({ name, version, source }) => ({
    name,
    version,
    source,
    enabledOn: archive.pluginStates
      .filter((state) => state.folder === pluginFolderName(name) && state.enabled === true)
      .map((state) => state.bridgeId)
      .sort(),
  }));
  const problems = plugins
    .filter((plugin) => plugin.source.type === "local" && !choice.allowLocalPlugins)
    .map(
      (plugin) =>
        `plugin ${plugin.name} is linked from the local folder ${(plugin.source as { path: string }).path}: the hub would ` +
        'run whatever that folder holds; restore with options {"allowLocalPlugins": true} to accept it',
    );

  const bridges = archive.bridges.map(({ id, name, port }) => ({
    id,
    name,
    port,
    change: currentIds.has(id) ? ("replaced" as const) : ("added" as const),
  }));
  const removedBridges = current.filter((bridge) => !archiveIds.has(bridge.id)).map(({ id, name }) => ({ id, name }));
  return {
    manifest: archive.manifest,
    ...choice,
    bridges,
    removedBridges,
    bridgeChanges: {
      added: bridges.filter((bridge) => bridge.change === "added").length,
      replaced: bridges.filter((bridge) => bridge.change === "replaced").length,
      removed: removedBridges.length,
    },
    files: {
      added: sorted([...incoming].filter((path) => !present.has(path))),
      replaced: sorted([...incoming].filter((path) => present.has(path))),
      removed: sorted([...present].filter((path) => !incoming.has(path))),
    },
    plugins,
    valid: problems.length === 0,
    problems,
  };
}
