import { lstat } from "node:fs/promises";
import { join } from "node:path";
import type { Logger } from "../../../lib/logger.ts";
import { bridgeFiles } from "../bridges/bridge-files.ts";
import type { DataFile } from "./data-files.ts";
import {
  commitBack,
  commitForward,
  type RestoreJournal,
  rollBack,
  rollForward,
  type SwapStepHook,
  writeJournal,
} from "./restore-journal.ts";

/** What a restore moves: paths relative to the data dir; a unit is a file or, for a bridge's matter.js storage, a folder. */
export interface SwapUnits {
  /** Current files and folders that go to the copy of what was replaced. */
  out: string[];
  /** Staged files and folders that go into place. */
  in: string[];
}

/**
 * The units of a restore. Configuration moves file by file (a plugin's `secrets.json` next to its configuration
 * stays where it is). A bridge's matter.js storage moves as one folder, so its lock and temp files leave with
 * the identity they belong to and the restored identity arrives complete in one rename; its endpoint identities
 * and known controller addresses move with it.
 */
export async function swapUnits(options: {
  dataDir: string;
  stagingDir: string;
  currentConfig: DataFile[];
  stagedConfig: string[];
  /** Bridge ids whose Matter identity is replaced; empty when the identity is not restored. */
  identityIds: string[];
}): Promise<SwapUnits> {
  const identity = options.identityIds.flatMap((id) => {
    const owned = bridgeFiles(id);
    return [owned.matterStorage, owned.controllers, owned.identities];
  });
  const out = new Set(options.currentConfig.map((file) => file.path));
  const into: string[] = [...options.stagedConfig];
  for (const unit of identity) {
    if (await exists(join(options.stagingDir, unit))) into.push(unit);
  }
  // Anything already at a target goes out first, so a rename never overwrites what the copy should keep.
  for (const unit of [...into, ...identity]) if (await exists(join(options.dataDir, unit))) out.add(unit);
  return { out: [...out].sort(), in: into.sort() };
}

/**
 * Moves `out` from the data dir into the copy, then `in` from the staging folder into the data dir, each by one
 * rename, under a journal (restore-journal.ts) so that a kill at any point is finished at the next start. On a
 * failure every move done so far is undone (the journal says so first) and the error is rethrown; if the undo
 * itself fails, the journal stays and the next start finishes it.
 */
export async function swapIntoPlace(
  dataDir: string,
  plan: { staging: string; copy: string; units: SwapUnits; record: { restoredAt: string; backup: unknown } },
  log: Logger,
  hook?: SwapStepHook,
): Promise<void> {
  const journal: RestoreJournal = {
    version: 1,
    direction: "forward",
    staging: plan.staging,
    copy: plan.copy,
    out: plan.units.out,
    in: plan.units.in,
    ...plan.record,
  };
  await writeJournal(dataDir, journal);
  await hook?.("journal");
  try {
    await rollForward(dataDir, journal, hook);
  } catch (error) {
    log.error({ err: error }, "restore: moving files failed; putting everything back");
    const back = { ...journal, direction: "back" as const };
    await writeJournal(dataDir, back).catch((journalError: unknown) =>
      log.error({ err: journalError }, "restore: could not record the undo in the journal"),
    );
    await hook?.("journal back");
    try {
      await rollBack(dataDir, back, hook);
      await commitBack(dataDir, back);
    } catch (undoError) {
      log.error({ err: undoError }, "restore: the undo failed; it is retried at the next start");
    }
    throw error;
  }
  await commitForward(dataDir, journal);
  await hook?.("committed");
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
}
