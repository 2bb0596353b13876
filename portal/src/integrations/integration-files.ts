import { createHash, randomBytes } from "node:crypto";
import { constants } from "node:fs";
import { access, mkdir, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { writeFileAtomic } from "../files/atomic-write.ts";
import type { FilePurpose, GeneratedFile } from "./catalog/types.ts";

/** Directory of generated integration files inside the portal's data dir. */
export const INTEGRATIONS_DIR = "integrations";

/** What the database remembers of each generated file. */
export interface FileManifestEntry {
  name: string;
  purpose: FilePurpose;
  description: string;
  containsSecrets: boolean;
  /** `0600` for files with secrets, `0644` otherwise. */
  mode: string;
  sha256: string;
  size: number;
}

export interface FilesCheck {
  /** Every generated file exists. */
  present: boolean;
  /** The directory and every file can be written (so the portal can regenerate them). */
  writable: boolean;
  /** Every file still has the content the portal wrote. */
  upToDate: boolean;
  missing: string[];
  notWritable: string[];
  modified: string[];
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/**
 * The folder exists, is a directory, and this process may create files in it. `access` alone is not enough: it
 * answers yes for a regular file that took the folder's place, where no generated file can ever be written.
 */
async function isWritableDirectory(dir: string): Promise<boolean> {
  try {
    if (!(await stat(dir)).isDirectory()) return false;
    await access(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The generated files of integrations: `<dataDir>/integrations/<integration id>/`, directories 0700, files written
 * atomically, 0600 when they hold secrets (the appservice registration, key files, secrets.env) and 0644 otherwise.
 */
export class IntegrationFiles {
  readonly root: string;

  constructor(dataDir: string) {
    this.root = join(dataDir, INTEGRATIONS_DIR);
  }

  dirOf(integrationId: string): string {
    if (!/^[0-9a-f-]{36}$/.test(integrationId)) throw new Error(`unexpected integration id ${JSON.stringify(integrationId)}`);
    return join(this.root, integrationId);
  }

  /** Writes the files and removes those of the previous manifest that are no longer generated. */
  async write(
    integrationId: string,
    files: GeneratedFile[],
    previous: readonly FileManifestEntry[],
  ): Promise<FileManifestEntry[]> {
    const dir = this.dirOf(integrationId);
    await mkdir(this.root, { recursive: true, mode: 0o700 });
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const manifest: FileManifestEntry[] = [];
    for (const file of files) {
      if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(file.name)) throw new Error(`unexpected generated file name ${file.name}`);
      const mode = file.containsSecrets ? 0o600 : 0o644;
      await writeFileAtomic(join(dir, file.name), file.content, mode);
      manifest.push({
        name: file.name,
        purpose: file.purpose,
        description: file.description,
        containsSecrets: file.containsSecrets,
        mode: `0${mode.toString(8)}`,
        sha256: sha256(file.content),
        size: Buffer.byteLength(file.content),
      });
    }
    const kept = new Set(manifest.map((entry) => entry.name));
    for (const old of previous) if (!kept.has(old.name)) await rm(join(dir, old.name), { force: true });
    return manifest;
  }

  /** Removes the integration's directory with everything in it; the number of generated files it had. */
  async remove(integrationId: string): Promise<void> {
    await rm(this.dirOf(integrationId), { recursive: true, force: true });
  }

  async check(integrationId: string, manifest: readonly FileManifestEntry[]): Promise<FilesCheck> {
    const dir = this.dirOf(integrationId);
    const missing: string[] = [];
    const notWritable: string[] = [];
    const modified: string[] = [];
    if (!(await isWritableDirectory(dir))) notWritable.push(".");
    for (const entry of manifest) {
      const path = join(dir, entry.name);
      let text: string;
      try {
        text = await readFile(path, "utf8");
      } catch {
        missing.push(entry.name);
        continue;
      }
      if (sha256(text) !== entry.sha256) modified.push(entry.name);
      try {
        await access(path, constants.W_OK);
      } catch {
        notWritable.push(entry.name);
      }
    }
    return {
      present: missing.length === 0,
      writable: notWritable.length === 0,
      upToDate: missing.length === 0 && modified.length === 0,
      missing,
      notWritable,
      modified,
    };
  }

  /** Removes the directories of integrations that no longer exist (`known` holds the ids that do); their names. */
  async removeOrphans(known: ReadonlySet<string>): Promise<string[]> {
    let entries: string[];
    try {
      entries = await readdir(this.root);
    } catch {
      return [];
    }
    const orphans = entries.filter((name) => /^[0-9a-f-]{36}$/.test(name) && !known.has(name));
    for (const name of orphans) await rm(join(this.root, name), { recursive: true, force: true });
    return orphans;
  }

  /** Whether new integration files can be written at all (diagnostics): creates and removes a probe file. */
  async writable(): Promise<boolean> {
    try {
      await mkdir(this.root, { recursive: true, mode: 0o700 });
      const probe = join(this.root, `.write-probe-${randomBytes(6).toString("hex")}`);
      await writeFile(probe, "", { flag: "wx", mode: 0o600 });
      await rm(probe, { force: true });
      return true;
    } catch {
      return false;
    }
  }
}
