import { lstat, readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { bridgeFiles } from "../bridges/bridge-files.ts";
import { BRIDGE_ID, BRIDGES_FILE, CONFIG_FILES, classify, type EntryKind } from "./backup-layout.ts";

/** Identity of one version of a file: an atomic replace (rename) changes the inode, an in-place write the mtime. */
export interface FileStamp {
  ino: bigint;
  size: bigint;
  mtimeNs: bigint;
}

export interface DataFile {
  path: string;
  kind: EntryKind;
  bridgeId?: string;
  stamp: FileStamp;
}

/** Which optional parts of the backup material to list. */
export interface MaterialOptions {
  includeIdentity: boolean;
  includeLockPins: boolean;
}

/**
 * Lists the backup material present in the data dir (see backup-layout.ts): the configuration files, with
 * `includeIdentity` the Matter identity of each bridge, with `includeLockPins` the lock PIN hashes. Bridges are
 * those of `bridges.json` plus `extraBridgeIds` (a restore also clears what belongs to the bridges it brings).
 * Symbolic links are never followed nor listed.
 */
export async function listDataFiles(
  dataDir: string,
  options: MaterialOptions & { extraBridgeIds?: Iterable<string> },
): Promise<DataFile[]> {
  const ids = new Set([...(await readBridgeIds(dataDir)), ...(options.extraBridgeIds ?? [])]);
  const candidates: string[] = [...CONFIG_FILES];
  for (const id of ids) {
    candidates.push(...(await walk(dataDir, `plugins/${id}`)));
    if (options.includeIdentity) {
      const owned = bridgeFiles(id);
      candidates.push(owned.identities, owned.controllers);
      candidates.push(...(await walk(dataDir, owned.matterStorage)));
    }
  }
  const files: DataFile[] = [];
  for (const path of candidates) {
    const place = classify(path);
    if (!place || (place.kind === "identity" && !options.includeIdentity)) continue;
    if (place.kind === "lock-pins" && !options.includeLockPins) continue;
    const stamp = await stampOf(join(dataDir, path));
    if (stamp) files.push({ path, ...place, stamp });
  }
  return files.sort((a, b) => a.path.localeCompare(b.path));
}

/** Bridge ids listed in `bridges.json` (none when it does not exist). A corrupt file is an error, never ignored. */
export async function readBridgeIds(dataDir: string): Promise<string[]> {
  let text: string;
  try {
    text = await readFile(join(dataDir, BRIDGES_FILE), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  return bridgeIdsOf(JSON.parse(text));
}

/** The valid bridge ids of a parsed `bridges.json` document. */
export function bridgeIdsOf(document: unknown): string[] {
  const bridges = (document as { bridges?: unknown } | null)?.bridges;
  if (!Array.isArray(bridges)) return [];
  return bridges
    .map((bridge) => (bridge as { id?: unknown } | null)?.id)
    .filter((id): id is string => typeof id === "string" && BRIDGE_ID.test(id));
}

/** The stamp of a regular file; `undefined` when missing or not a regular file (links, folders). */
export async function stampOf(path: string): Promise<FileStamp | undefined> {
  try {
    const stat = await lstat(path, { bigint: true });
    return stat.isFile() ? { ino: stat.ino, size: stat.size, mtimeNs: stat.mtimeNs } : undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

export function sameStamp(a: FileStamp | undefined, b: FileStamp | undefined): boolean {
  return a !== undefined && b !== undefined && a.ino === b.ino && a.size === b.size && a.mtimeNs === b.mtimeNs;
}

/** Regular files below `dataDir/relative` (relative paths), without following links; empty when absent. */
async function walk(dataDir: string, relative: string, depth = 0): Promise<string[]> {
  if (depth > 8) return [];
  let entries: import("node:fs").Dirent[];
  try {
    entries = await readdir(join(dataDir, relative), { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return [];
    throw error;
  }
  const found: string[] = [];
  for (const entry of entries) {
    const path = `${relative}/${entry.name}`;
    if (entry.isDirectory() && entry.name !== "node_modules") found.push(...(await walk(dataDir, path, depth + 1)));
    else if (entry.isFile()) found.push(path);
  }
  return found;
}
