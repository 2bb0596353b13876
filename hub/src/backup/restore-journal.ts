/**
 * The journal of a restore's swap (docs/backup.md "Atomic swap"): `<dataDir>/.restore-journal.json`, written
 * atomically before the first move, names the staging folder, the copy folder and every unit that moves. Each
 * move is one rename, so whatever instant the process dies at, every unit is wholly in one of its two places and
 * the journal says which way to finish:
 * - `forward` (the staged backup is complete and verified): move what is still in the data dir to the copy, then
 *   what is still staged into place;
 * - `back` (the swap failed and was being undone): move what came from the staging back there, then the copy's
 *   files back into the data dir.
 * Both replays are idempotent, so a kill during a replay is repaired by the next one. A finished swap renames the
 * journal to `<copy>/restore.json` (one atomic step: the commit); a finished undo deletes it.
 */
import { lstat, mkdir, open, readdir, rename, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import * as v from "valibot";
import type { Logger } from "../../../lib/logger.ts";
import { readJsonFile, writeFileAtomic } from "../storage/atomic-file.ts";
import { unsafePathReason } from "./backup-layout.ts";

export const JOURNAL_FILE = ".restore-journal.json";
export const STAGING_PREFIX = ".restore-staging-";

const safePath = v.pipe(
  v.string(),
  v.check((path) => unsafePathReason(path) === undefined, "unsafe path"),
);

const JournalSchema = v.looseObject({
  version: v.literal(1),
  direction: v.picklist(["forward", "back"]),
  staging: v.pipe(v.string(), v.regex(/^\.restore-staging-[A-Za-z0-9_-]+$/)),
  copy: v.pipe(v.string(), v.regex(/^backups\/restore-[A-Za-z0-9_-]+$/)),
  out: v.array(safePath),
  in: v.array(safePath),
});

/** What a swap moves, and where; also kept as `restore.json` in the copy once the swap is done. */
export type RestoreJournal = v.InferOutput<typeof JournalSchema> & {
  /** When the swap started, and the backup it came from (for the operator, in `restore.json`). */
  restoredAt?: string;
  backup?: unknown;
};

/** Called after every durable step of a swap or an undo; tests stop the swap there to simulate a kill. */
export type SwapStepHook = (step: string) => Promise<void>;

const noHook: SwapStepHook = async () => undefined;

export async function writeJournal(dataDir: string, journal: RestoreJournal): Promise<void> {
  await writeFileAtomic(join(dataDir, JOURNAL_FILE), `${JSON.stringify(journal, null, 2)}\n`);
}

/** Moves what is still to move towards the restored state (see the module comment); idempotent. */
export async function rollForward(dataDir: string, journal: RestoreJournal, hook = noHook): Promise<void> {
  const copy = join(dataDir, journal.copy);
  const staging = join(dataDir, journal.staging);
  await requireStaging(staging);
  for (const unit of journal.out) {
    // Only units still here and not yet in the copy: a unit in the copy has left, and what is here now is the
    // restored one that took its place.
    if ((await exists(join(dataDir, unit))) && !(await exists(join(copy, unit)))) {
      await move(join(dataDir, unit), join(copy, unit));
      await hook(`out ${unit}`);
    }
  }
  for (const unit of journal.in) {
    if (await exists(join(staging, unit))) {
      await move(join(staging, unit), join(dataDir, unit));
      await hook(`in ${unit}`);
    }
  }
}

/** Moves everything back to where it was before the swap (see the module comment); idempotent. */
export async function rollBack(dataDir: string, journal: RestoreJournal, hook = noHook): Promise<void> {
  const copy = join(dataDir, journal.copy);
  const staging = join(dataDir, journal.staging);
  await requireStaging(staging);
  for (const unit of [...journal.in].reverse()) {
    // The staging folder was complete before the journal was written: a unit missing there was moved in.
    if (!(await exists(join(staging, unit))) && (await exists(join(dataDir, unit)))) {
      await move(join(dataDir, unit), join(staging, unit));
      await hook(`undo in ${unit}`);
    }
  }
  for (const unit of [...journal.out].reverse()) {
    if ((await exists(join(copy, unit))) && !(await exists(join(dataDir, unit)))) {
      await move(join(copy, unit), join(dataDir, unit));
      await hook(`undo out ${unit}`);
    }
  }
}

/** Commits a completed forward swap: the moves are made durable, then the journal becomes `<copy>/restore.json`. */
export async function commitForward(dataDir: string, journal: RestoreJournal): Promise<void> {
  const dirs = new Set<string>();
  for (const unit of journal.out) dirs.add(dirname(join(dataDir, unit))).add(dirname(join(dataDir, journal.copy, unit)));
  for (const unit of journal.in) dirs.add(dirname(join(dataDir, unit)));
  for (const dir of dirs) await syncDir(dir);
  await mkdir(join(dataDir, journal.copy), { recursive: true });
  await rename(join(dataDir, JOURNAL_FILE), join(dataDir, journal.copy, "restore.json"));
  await syncDir(dataDir);
  await rm(join(dataDir, journal.staging), { recursive: true, force: true });
}

/**
 * Ends a completed undo: the journal goes, and so does the copy folder when nothing is left in it (it is kept,
 * with the journal, if a unit could not be moved back).
 */
export async function commitBack(dataDir: string, journal: RestoreJournal): Promise<void> {
  const copy = join(dataDir, journal.copy);
  for (const unit of journal.out) {
    if (await exists(join(copy, unit))) throw new Error(`restore undo: ${unit} is still in ${journal.copy}`);
  }
  await rm(join(dataDir, JOURNAL_FILE), { force: true });
  await rm(copy, { recursive: true, force: true });
  await rm(join(dataDir, journal.staging), { recursive: true, force: true });
}

/**
 * At start, before anything reads the data dir: finishes a swap a kill interrupted (in the journal's direction)
 * and removes staging folders left by a kill during staging. Throws when a journal exists but cannot be replayed:
 * the data dir is then half swapped and the hub must not run on it (the message says what to do).
 */
export async function recoverInterruptedRestore(dataDir: string, log: Logger): Promise<void> {
  const raw = await readJsonFile<unknown>(join(dataDir, JOURNAL_FILE)).catch((error: unknown) => error);
  if (raw !== undefined) {
    const parsed = v.safeParse(JournalSchema, raw);
    if (!parsed.success) {
      throw new Error(
        `${join(dataDir, JOURNAL_FILE)} is damaged, so an interrupted restore cannot be finished; compare the data dir with the copy under backups/ and delete the journal`,
      );
    }
    const journal: RestoreJournal = parsed.output;
    log.warn({ direction: journal.direction, copy: journal.copy }, "a restore was interrupted; finishing it");
    if (journal.direction === "forward") {
      await rollForward(dataDir, journal);
      await commitForward(dataDir, journal);
      log.warn({ copy: journal.copy }, "interrupted restore completed: the backup is in place");
    } else {
      await rollBack(dataDir, journal);
      await commitBack(dataDir, journal);
      log.warn("interrupted restore undone: the data dir is as before it");
    }
  }
  for (const entry of await readdir(dataDir).catch(() => [] as string[])) {
    if (!entry.startsWith(STAGING_PREFIX)) continue;
    await rm(join(dataDir, entry), { recursive: true, force: true });
    log.info({ folder: entry }, "removed the staging folder of an interrupted restore");
  }
}

/** Both replays read the staging folder to know where each unit is: without it they cannot tell, so they stop. */
async function requireStaging(staging: string): Promise<void> {
  if (!(await exists(staging))) throw new Error(`the staging folder ${staging} of the interrupted restore is gone`);
}

async function move(from: string, to: string): Promise<void> {
  await mkdir(dirname(to), { recursive: true });
  await rename(from, to);
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

async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, "r").catch(() => undefined);
  if (!handle) return;
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
