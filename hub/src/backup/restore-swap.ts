import { lstat, mkdir, rename } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { Logger } from "../../../lib/logger.ts";
import type { DataFile } from "./data-files.ts";

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
  const identity = options.identityIds.flatMap((id) => [
    `matter/${id}`,
    `matter/${id}.controllers.json`,
    `identities/${id}.json`,
  ]);
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
 * Moves `out` from the data dir into `copyDir`, then `in` from the staging dir into the data dir, by rename
 * (same file system, each move atomic). On any failure every move done so far is undone in reverse order, so
 * the data dir is as before and the error is rethrown.
 */
export async function swapIntoPlace(
  dataDir: string,
  stagingDir: string,
  copyDir: string,
  units: SwapUnits,
  log: Logger,
): Promise<void> {
  const done: { from: string; to: string }[] = [];
  const move = async (from: string, to: string) => {
    await mkdir(dirname(to), { recursive: true });
    await rename(from, to);
    done.push({ from, to });
  };
  try {
    for (const unit of units.out) await move(join(dataDir, unit), join(copyDir, unit));
    for (const unit of units.in) await move(join(stagingDir, unit), join(dataDir, unit));
  } catch (error) {
    log.error({ err: error, moved: done.length }, "restore: moving files failed; putting everything back");
    for (const { from, to } of done.reverse()) {
      await rename(to, from).catch((undoError: unknown) =>
        log.error({ err: undoError, from, to }, "restore: could not undo a move"),
      );
    }
    throw error;
  }
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
