import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { setTimeout as delay } from "node:timers/promises";
import { HttpError } from "../../../lib/http-error.ts";
import type { Logger } from "../../../lib/logger.ts";
import { MANIFEST_PATH } from "./backup-layout.ts";
import { BACKUP_FORMAT, BACKUP_FORMAT_VERSION, type BackupLimits, type BackupManifest } from "./backup-manifest.ts";
import { listDataFiles, type MaterialOptions, sameStamp } from "./data-files.ts";

export interface SnapshotFile {
  path: string;
  data: Buffer;
  sha256: string;
}

const ATTEMPTS = 5;

/**
 * Reads the backup material of a live data dir into memory as one consistent snapshot.
 *
 * Nothing is stopped: every writer of the data dir replaces whole files atomically (ours through
 * `writeFileAtomic`, matter.js's file storage through write-to-`.tmp`-then-rename, one file per key), so any
 * single read sees a complete version of a file. What a plain copy could still catch is a multi-key update half
 * done (matter.js writes a new fabric into several keys). So the snapshot works like a seqlock: stamp every file
 * (inode, size, mtime), read them, stamp again; if anything appeared, vanished or changed in between, read
 * again. Such updates take milliseconds, so a second attempt normally succeeds; after five the last one is used
 * with a warning (a bridge being commissioned right now may then need pairing again after a restore).
 */
export async function takeSnapshot(
  dataDir: string,
  material: MaterialOptions,
  limits: BackupLimits,
  log: Logger,
): Promise<SnapshotFile[]> {
  for (let attempt = 1; ; attempt++) {
    const before = await listDataFiles(dataDir, material);
    const files: SnapshotFile[] = [];
    let stable = true;
    let total = 0;
    for (const file of before) {
      const data = await readFile(join(dataDir, file.path)).catch((error: NodeJS.ErrnoException) => {
        if (error.code === "ENOENT") return undefined;
        throw error;
      });
      if (!data) {
        stable = false;
        continue;
      }
      total += data.length;
      if (data.length > limits.maxEntryBytes || total > limits.maxTotalBytes) {
        // A backup the size limits of restore would refuse is worse than none: say so instead of producing it.
        throw new HttpError(500, `The data dir holds more than a backup may (at ${file.path}); it could not be restored`);
      }
      files.push({ path: file.path, data, sha256: createHash("sha256").update(data).digest("hex") });
    }
    const after = await listDataFiles(dataDir, material);
    stable &&=
      after.length === before.length &&
      after.every((file, i) => file.path === before[i]?.path && sameStamp(file.stamp, before[i]?.stamp));
    if (stable) return files;
    if (attempt === ATTEMPTS) {
      log.warn({ attempts: attempt }, "backup: files kept changing while being read; using the last snapshot");
      return files;
    }
    await delay(20 * attempt);
  }
}

/** The manifest of a snapshot. */
export function manifestFor(
  files: SnapshotFile[],
  appVersion: string,
  material: MaterialOptions,
  createdAt: Date,
): BackupManifest {
  return {
    format: BACKUP_FORMAT,
    formatVersion: BACKUP_FORMAT_VERSION,
    appVersion,
    createdAt: createdAt.toISOString(),
    includesIdentity: material.includeIdentity,
    includesLockPins: material.includeLockPins,
    files: files.map(({ path, data, sha256 }) => ({ path, size: data.length, sha256 })),
  };
}

/**
 * Streams the ZIP (yazl): the manifest first, then each file, with private file modes and the snapshot's time.
 * The snapshot is already in memory, so the stream cannot fail half-way on a file that changed meanwhile. yazl is
 * loaded with the first backup: a hub that never makes one never holds it.
 */
export async function zipSnapshot(files: SnapshotFile[], manifest: BackupManifest): Promise<Readable> {
  const { ZipFile } = await import("yazl");
  const zip = new ZipFile();
  const mtime = new Date(manifest.createdAt);
  zip.addBuffer(Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`), MANIFEST_PATH, { mtime, mode: 0o100600 });
  for (const file of files) zip.addBuffer(file.data, file.path, { mtime, mode: 0o100600 });
  zip.end();
  return zip.outputStream as Readable;
}
