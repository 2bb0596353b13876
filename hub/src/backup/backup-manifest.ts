import * as v from "valibot";

export const BACKUP_FORMAT = "matter-hub.backup";
export const BACKUP_FORMAT_VERSION = 1;

/** Size limits of a restore (and of what a backup may hold, so that every backup can be restored). */
export interface BackupLimits {
  /** The uploaded ZIP itself. */
  maxArchiveBytes: number;
  /** Sum of the uncompressed sizes of all entries. */
  maxTotalBytes: number;
  /** Any one entry, uncompressed (entries are verified in memory one at a time). */
  maxEntryBytes: number;
  maxEntries: number;
}

export const DEFAULT_LIMITS: BackupLimits = {
  maxArchiveBytes: 50 * 1024 * 1024,
  maxTotalBytes: 200 * 1024 * 1024,
  maxEntryBytes: 20 * 1024 * 1024,
  maxEntries: 20_000,
};

export interface ManifestFile {
  path: string;
  size: number;
  sha256: string;
}

/** `manifest.json`, the first entry of every backup. */
export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  formatVersion: number;
  appVersion: string;
  createdAt: string;
  includesIdentity: boolean;
  /** Whether `lock-credentials.json` was asked for; absent in backups of older hubs (then: whether it is there). */
  includesLockPins?: boolean | undefined;
  files: ManifestFile[];
}

/** Checked after `format` and `formatVersion` (which get their own messages): the rest of a version-1 manifest. */
export const ManifestSchema = v.object({
  format: v.literal(BACKUP_FORMAT),
  formatVersion: v.literal(BACKUP_FORMAT_VERSION),
  appVersion: v.pipe(v.string(), v.maxLength(64)),
  createdAt: v.pipe(v.string(), v.isoTimestamp("createdAt must be an ISO 8601 timestamp")),
  includesIdentity: v.boolean(),
  includesLockPins: v.optional(v.boolean()),
  files: v.array(
    v.object({
      path: v.pipe(v.string(), v.maxLength(1024)),
      size: v.pipe(v.number(), v.integer(), v.minValue(0)),
      sha256: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/, "sha256 must be 64 lowercase hex digits")),
    }),
  ),
});

/** The download's file name, e.g. `matter-hub-backup-2025-01-31-142501.zip` (UTC). */
export function backupFileName(createdAt: Date): string {
  const stamp = createdAt.toISOString().replace(/\..*$/, "").replace("T", "-").replace(/:/g, "");
  return `matter-hub-backup-${stamp}.zip`;
}

/** Whether a backup holds the lock PINs: as its manifest says, or for a backup of an older hub, whether the file is in it. */
export function includesLockPins(manifest: BackupManifest): boolean {
  return manifest.includesLockPins ?? manifest.files.some((file) => file.path === "lock-credentials.json");
}
