import type { Dirent } from "node:fs";
import { lstat, readdir, statfs } from "node:fs/promises";
import { dirname, join } from "node:path";

/** What `/api/system/info` reports about the data folder and the filesystem holding it. */
export interface StorageUsage {
  path: string;
  exists: boolean;
  /** Sum of the sizes of the regular files below `path` (symlinks are not followed). */
  usedBytes: number;
  fileCount: number;
  directoryCount: number;
  /** True when the walk stopped at `maxEntries`: the numbers are then lower bounds. */
  partial: boolean;
  /** Bytes available to the hub on that filesystem (`bavail`, i.e. without the root reserve). */
  freeBytes: number;
  totalBytes: number;
}

/** Enough for any real hub data folder; a pathological tree must not make one request walk forever. */
export const MAX_WALKED_ENTRIES = 200_000;

/**
 * Walks `path` and asks the filesystem for its free and total space. A missing folder (a fresh install) is
 * reported with zero usage and the space of the nearest existing parent.
 */
export async function storageUsage(path: string, maxEntries = MAX_WALKED_ENTRIES): Promise<StorageUsage> {
  const usage: StorageUsage = {
    path,
    exists: true,
    usedBytes: 0,
    fileCount: 0,
    directoryCount: 0,
    partial: false,
    freeBytes: 0,
    totalBytes: 0,
  };
  let walked = 0;
  const pending = [path];
  while (pending.length > 0) {
    const dir = pending.pop()!;
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (dir === path && code === "ENOENT") usage.exists = false;
      // A folder that vanished or cannot be read mid-walk is skipped, not an error of the whole report.
      if (dir === path || code === "ENOENT" || code === "EACCES") continue;
      throw error;
    }
    if (dir !== path) usage.directoryCount++;
    if (walked + entries.length > maxEntries) {
      usage.partial = true;
      entries = entries.slice(0, Math.max(0, maxEntries - walked));
    }
    walked += entries.length;
    const files = entries.filter((entry) => entry.isFile());
    for (const entry of entries) if (entry.isDirectory()) pending.push(join(dir, entry.name));
    const sizes = await Promise.all(
      files.map((entry) =>
        lstat(join(dir, entry.name)).then(
          (s) => s.size,
          () => 0,
        ),
      ),
    );
    usage.fileCount += files.length;
    for (const size of sizes) usage.usedBytes += size;
    if (usage.partial) break;
  }
  const space = await filesystemSpace(path);
  usage.freeBytes = space.free;
  usage.totalBytes = space.total;
  return usage;
}

async function filesystemSpace(path: string): Promise<{ free: number; total: number }> {
  let current = path;
  for (;;) {
    try {
      const stats = await statfs(current);
      return { free: stats.bavail * stats.bsize, total: stats.blocks * stats.bsize };
    } catch (error) {
      const parent = dirname(current);
      if ((error as NodeJS.ErrnoException).code !== "ENOENT" || parent === current) throw error;
      current = parent;
    }
  }
}
