import { join } from "node:path";
import { readJsonFile } from "../storage/atomic-file.ts";
import type { VerifiedArchive } from "./archive-reader.ts";
import { BRIDGES_FILE } from "./backup-layout.ts";
import type { BackupManifest } from "./backup-manifest.ts";
import { listDataFiles } from "./data-files.ts";

/** What `POST /api/backup/restore/preview` answers (and `restore` too, describing what it did). */
export interface RestorePreview {
  manifest: BackupManifest;
  /** Whether the Matter identity files are (would be) restored. */
  includeIdentity: boolean;
  /** The bridges of the backup: `added` when this hub has no bridge with that id, `replaced` otherwise. */
  bridges: { id: string; name: string; port: number; change: "added" | "replaced" }[];
  /** Bridges of this hub that the backup does not have: they are gone after the restore. */
  removedBridges: { id: string; name: string }[];
  /** Data-dir-relative paths written where none was, overwritten, and moved away without replacement. */
  files: { added: string[]; replaced: string[]; removed: string[] };
}

/** Compares a verified archive with the data dir as it is now. */
export async function describeRestore(
  dataDir: string,
  archive: VerifiedArchive,
  includeIdentity: boolean,
): Promise<RestorePreview> {
  const current = (await readJsonFile<{ bridges?: { id: string; name: string }[] }>(join(dataDir, BRIDGES_FILE)))?.bridges ?? [];
  const currentIds = new Set(current.map((bridge) => bridge.id));
  const archiveIds = new Set(archive.bridges.map((bridge) => bridge.id));

  const incoming = new Set(
    archive.entries.filter((entry) => entry.kind === "config" || includeIdentity).map((entry) => entry.path),
  );
  const present = new Set(
    (await listDataFiles(dataDir, { includeIdentity, extraBridgeIds: archiveIds })).map((file) => file.path),
  );
  const sorted = (paths: Iterable<string>) => [...paths].sort();

  return {
    manifest: archive.manifest,
    includeIdentity,
    bridges: archive.bridges.map(({ id, name, port }) => ({
      id,
      name,
      port,
      change: currentIds.has(id) ? ("replaced" as const) : ("added" as const),
    })),
    removedBridges: current.filter((bridge) => !archiveIds.has(bridge.id)).map(({ id, name }) => ({ id, name })),
    files: {
      added: sorted([...incoming].filter((path) => !present.has(path))),
      replaced: sorted([...incoming].filter((path) => present.has(path))),
      removed: sorted([...present].filter((path) => !incoming.has(path))),
    },
  };
}
