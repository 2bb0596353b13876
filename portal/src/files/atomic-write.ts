import { randomBytes } from "node:crypto";
import { open, rename, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

/**
 * Writes a file atomically: the bytes go to a temporary file in the same directory (created exclusively with
 * `mode`), are flushed to disk, and the temporary file is renamed over the target. A reader sees the old file or the
 * new one, never half of one; a crash leaves at most a `.tmp-` file behind. The mode is applied at creation, so a
 * secret-bearing file is never readable by others, not even for a moment.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array, mode = 0o644): Promise<void> {
  const temporary = join(dirname(path), `.${basename(path)}.tmp-${randomBytes(6).toString("hex")}`);
  const handle = await open(temporary, "wx", mode);
  try {
    await handle.writeFile(data);
    // `open` honours the umask; chmod makes the mode exact (e.g. 0644 under a 077 umask, 0600 always).
    await handle.chmod(mode);
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(temporary, { force: true });
    throw error;
  }
  await handle.close();
  try {
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  await syncDirectory(dirname(path));
}

/** Makes a rename durable (the directory entry) where the platform allows opening a directory. */
async function syncDirectory(dir: string): Promise<void> {
  try {
    const handle = await open(dir, "r");
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Not supported everywhere (e.g. some network file systems); the rename itself is still atomic.
  }
}
