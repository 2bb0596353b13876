import { access, rm } from "node:fs/promises";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { badRequest } from "../../../lib/http-error.ts";
import type { Logger } from "../../../lib/logger.ts";
import { SerialWriter, writeFileAtomic } from "../storage/atomic-file.ts";
import { readBackupArchive, type VerifiedArchive } from "./archive-reader.ts";
import { manifestFor, takeSnapshot, zipSnapshot } from "./backup-archive.ts";
import { type BackupLimits, type BackupManifest, backupFileName, DEFAULT_LIMITS } from "./backup-manifest.ts";
import { listDataFiles, type MaterialOptions } from "./data-files.ts";
import { JOURNAL_FILE, STAGING_PREFIX, type SwapStepHook } from "./restore-journal.ts";
import { describeRestore, type RestoreChoice, type RestorePreview } from "./restore-preview.ts";
import { swapIntoPlace, swapUnits } from "./restore-swap.ts";

export interface BackupServiceOptions {
  dataDir: string;
  appVersion: string;
  log: Logger;
  /** Stops everything that writes to the data dir (the bridges) before a restore swaps files in. */
  quiesce: () => Promise<void>;
  limits?: Partial<BackupLimits>;
  /** Built-in plugin names: a package record of a backup may not take one. */
  reservedPluginNames?: readonly string[];
  /** Tests: called after every durable step of the swap, to stop it there as a kill would. */
  swapStepHook?: SwapStepHook;
}

export interface RestoreOptions {
  /** Restore the Matter identity files; default: when the backup has them. */
  includeIdentity?: boolean | undefined;
  /** Restore the lock PIN hashes; default: when the backup has them. Without, this hub's PINs stay. */
  includeLockPins?: boolean | undefined;
  /** Accept plugin packages linked from local folders; default false (such a backup is refused). */
  allowLocalPlugins?: boolean | undefined;
}

export interface RestoreResult extends RestorePreview {
  restored: true;
  restartRequired: true;
  /** Where the replaced files were moved, relative to the data dir. */
  replacedCopy: string;
}

/**
 * Backups of the data dir as ZIP files, and restores. A restore verifies the whole archive while staging it
 * (inside the data dir, so the final moves are renames), then stops the bridges, moves the current files to
 * `backups/restore-<time>/` and the staged ones into place under a journal (restore-journal.ts: a kill at any
 * point is finished at the next start). The hub must then restart (see `restartPending`).
 */
export class BackupService {
  readonly #options: BackupServiceOptions;
  readonly #limits: BackupLimits;
  readonly #restores = new SerialWriter();
  readonly #reservedPluginNames: readonly string[];
  #restartPending = false;

  constructor(options: BackupServiceOptions) {
    this.#options = options;
    this.#limits = { ...DEFAULT_LIMITS, ...options.limits };
    this.#reservedPluginNames = options.reservedPluginNames ?? [];
  }

  get limits(): BackupLimits {
    return this.#limits;
  }

  /** True once a restore has replaced files: the running hub no longer matches its data dir. */
  get restartPending(): boolean {
    return this.#restartPending;
  }

  /** A consistent snapshot of the data dir as a streamed ZIP. */
  async download(material: MaterialOptions): Promise<{ fileName: string; manifest: BackupManifest; stream: Readable }> {
    const createdAt = new Date();
    const files = await takeSnapshot(this.#options.dataDir, material, this.#limits, this.#options.log);
    const manifest = manifestFor(files, this.#options.appVersion, material, createdAt);
    this.#options.log.info({ files: files.length, ...material }, "backup created");
    return { fileName: backupFileName(createdAt), manifest, stream: await zipSnapshot(files, manifest) };
  }

  /** Verifies the archive and tells what a restore with `options` would change; changes nothing. */
  async preview(zip: Buffer, options: RestoreOptions): Promise<RestorePreview> {
    const archive = await readBackupArchive(zip, { limits: this.#limits, reservedPluginNames: this.#reservedPluginNames });
    return describeRestore(this.#options.dataDir, archive, restoreChoice(options, archive));
  }

  /** Verifies, stages and swaps in a backup; nothing changes unless the whole archive is valid. */
  restore(zip: Buffer, options: RestoreOptions): Promise<RestoreResult> {
    return this.#restores.run(async () => {
      const { dataDir, log } = this.#options;
      const stamp = new Date().toISOString().replace(/[:.]/g, "-");
      const staging = `${STAGING_PREFIX}${stamp}`;
      const stagingDir = join(dataDir, staging);
      try {
        const archive = await readBackupArchive(zip, {
          limits: this.#limits,
          reservedPluginNames: this.#reservedPluginNames,
          sink: (entry, data) => writeFileAtomic(join(stagingDir, entry.path), data),
        });
        const choice = restoreChoice(options, archive);
        const preview = await describeRestore(dataDir, archive, choice);
        if (!preview.valid) throw badRequest(`The backup cannot be restored as asked: ${preview.problems.join("; ")}`);
        await this.#options.quiesce();
        // From here on the running hub no longer matches its files (even if the swap is undone, bridges stopped).
        this.#restartPending = true;
        const archiveIds = archive.bridges.map((bridge) => bridge.id);
        const currentConfig = await listDataFiles(dataDir, {
          includeIdentity: false,
          includeLockPins: choice.includeLockPins,
          extraBridgeIds: archiveIds,
        });
        const taken = (kind: string) => kind === "config" || (kind === "lock-pins" && choice.includeLockPins);
        const units = await swapUnits({
          dataDir,
          stagingDir,
          currentConfig,
          stagedConfig: archive.entries.filter((entry) => taken(entry.kind)).map((entry) => entry.path),
          identityIds: choice.includeIdentity
            ? [...new Set([...preview.bridges, ...preview.removedBridges].map((b) => b.id))]
            : [],
        });
        const replacedCopy = `backups/restore-${stamp}`;
        const record = { restoredAt: new Date().toISOString(), backup: { ...archive.manifest, files: undefined } };
        await swapIntoPlace(dataDir, { staging, copy: replacedCopy, units, record }, log, this.#options.swapStepHook);
        log.warn({ replacedCopy, files: units.in.length, ...choice }, "backup restored; the hub must restart");
        return { ...preview, restored: true, restartRequired: true, replacedCopy };
      } finally {
        // A journal left behind by a failed undo still needs the staging folder: the next start finishes with it.
        if (!(await pathExists(join(dataDir, JOURNAL_FILE)))) await rm(stagingDir, { recursive: true, force: true });
      }
    });
  }
}

/** The options applied to what the backup holds; asking for a part the backup lacks is a 400. */
function restoreChoice(options: RestoreOptions, archive: VerifiedArchive): RestoreChoice {
  if (options.includeIdentity && !archive.manifest.includesIdentity) {
    throw badRequest("This backup holds no Matter identity (it was made without includeIdentity)");
  }
  if (options.includeLockPins && !archive.includesLockPins) {
    throw badRequest("This backup holds no lock PINs (it was made without includeLockPins)");
  }
  return {
    includeIdentity: options.includeIdentity ?? archive.manifest.includesIdentity,
    includeLockPins: options.includeLockPins ?? archive.includesLockPins,
    allowLocalPlugins: options.allowLocalPlugins ?? false,
  };
}

const pathExists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );
