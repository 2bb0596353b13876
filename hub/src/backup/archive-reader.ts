import { createHash } from "node:crypto";
import type { Entry, ZipFile } from "yauzl";
import { badRequest, HttpError } from "../../../lib/http-error.ts";
import { type ArchiveContent, checkContent, checkManifest } from "./archive-content.ts";
import { classify, type EntryKind, MANIFEST_PATH, unsafePathReason } from "./backup-layout.ts";
import { type BackupLimits, type BackupManifest, includesLockPins } from "./backup-manifest.ts";

export interface ArchiveEntry {
  path: string;
  size: number;
  kind: EntryKind;
  bridgeId?: string;
}

export interface VerifiedArchive extends ArchiveContent {
  manifest: BackupManifest;
  entries: ArchiveEntry[];
  /** Whether the backup holds the lock PINs (backup-manifest.ts {@link includesLockPins}). */
  includesLockPins: boolean;
}

/** Receives each verified entry (after its size and sha256 were checked), one at a time. */
export type EntrySink = (entry: ArchiveEntry, data: Buffer) => Promise<void>;

export interface ReadOptions {
  limits: BackupLimits;
  /** Built-in plugin names: no package record of the backup may take one. */
  reservedPluginNames?: readonly string[];
  sink?: EntrySink;
}

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFLNK = 0o120000;
const DOS_DIRECTORY = 0x10;

/**
 * Reads and verifies a backup ZIP with yauzl; any problem is a 400 naming it. The central directory is
 * checked completely before a single byte is inflated: safe names, regular files only (no links, no folders),
 * no encryption, no duplicates, only paths of the backup layout, declared sizes within the limits. Then the
 * manifest (format, version), then every entry, counting bytes while inflating (an entry that inflates beyond
 * its declared size is cut off at once: zip bombs never reach memory) and comparing its sha256 with the manifest.
 */
export async function readBackupArchive(zip: Buffer, options: ReadOptions): Promise<VerifiedArchive> {
  const { limits, sink } = options;
  if (zip.length > limits.maxArchiveBytes) throw invalid(`the archive is larger than ${mb(limits.maxArchiveBytes)}`);
  // Loaded with the first archive read: a hub that never restores never holds it.
  const { default: yauzl } = await import("yauzl");
  let zipfile: ZipFile;
  try {
    zipfile = await yauzl.fromBufferPromise(zip, { lazyEntries: true, autoClose: false, strictFileNames: true });
  } catch {
    // yauzl's own words ("End of central directory record signature not found…") mean nothing to the person who
    // chose the file; what they can act on is that it is not a whole ZIP.
    throw invalid(NOT_A_ZIP);
  }
  try {
    if (zipfile.entryCount > limits.maxEntries) throw invalid(`more than ${limits.maxEntries} entries`);
    const listed = await listEntries(zipfile, limits);
    const manifestEntry = listed.find(({ entry }) => entry.fileName === MANIFEST_PATH);
    if (!manifestEntry) throw invalid("no manifest.json: not a Matter Hub backup");
    const manifest = checkManifest(await inflate(zipfile, manifestEntry.entry, limits));
    const entries = listed.filter((item) => item !== manifestEntry).map((item) => item.archiveEntry);
    const withPins = includesLockPins(manifest);
    const expected = new Map(manifest.files.map((file) => [file.path, file]));
    if (expected.size !== manifest.files.length) throw invalid("the manifest lists a file twice");
    for (const entry of entries) {
      const file = expected.get(entry.path);
      if (!file) throw invalid(`${entry.path} is not in the manifest`);
      if (file.size !== entry.size) throw invalid(`${entry.path}: size differs from the manifest`);
      if (entry.kind === "identity" && !manifest.includesIdentity) {
        throw invalid(`${entry.path}: Matter identity file in a backup that declares none`);
      }
      if (entry.kind === "lock-pins" && !withPins) throw invalid(`${entry.path}: lock PINs in a backup that declares none`);
    }
    if (entries.length !== expected.size) throw invalid("files listed in the manifest are missing from the archive");

    const content: ArchiveContent = { bridges: [], packages: [], pluginStates: [] };
    for (const { entry, archiveEntry } of listed) {
      if (archiveEntry.path === MANIFEST_PATH) continue;
      const data = await inflate(zipfile, entry, limits);
      if (createHash("sha256").update(data).digest("hex") !== expected.get(archiveEntry.path)?.sha256) {
        throw invalid(`${archiveEntry.path}: sha256 does not match the manifest (corrupt or altered)`);
      }
      checkContent(archiveEntry.path, data, content, options.reservedPluginNames ?? []);
      await sink?.(archiveEntry, data);
    }
    const ids = new Set(content.bridges.map((bridge) => bridge.id));
    const orphan = entries.find((entry) => entry.bridgeId !== undefined && !ids.has(entry.bridgeId));
    if (orphan) throw invalid(`${orphan.path} belongs to no bridge of the backup's bridges.json`);
    return { manifest, entries, includesLockPins: withPins, ...content };
  } finally {
    zipfile.close();
  }
}

/** The central directory, every entry checked; nothing is inflated yet. */
async function listEntries(zipfile: ZipFile, limits: BackupLimits) {
  const listed: { entry: Entry; archiveEntry: ArchiveEntry }[] = [];
  const seen = new Set<string>();
  let total = 0;
  try {
    for await (const entry of zipfile.eachEntry()) {
      const name = entry.fileName;
      const mode = (entry.externalFileAttributes >>> 16) & 0xffff;
      if ((mode & S_IFMT) === S_IFLNK) throw invalid(`${name} is a symbolic link`);
      if (name.endsWith("/") || entry.externalFileAttributes & DOS_DIRECTORY) throw invalid(`${name} is a directory entry`);
      if ((mode & S_IFMT) !== 0 && (mode & S_IFMT) !== S_IFREG) throw invalid(`${name} is not a regular file`);
      const unsafe = unsafePathReason(name);
      if (unsafe) throw invalid(`${unsafe}: ${name}`);
      if (entry.isEncrypted()) throw invalid(`${name} is encrypted`);
      if (seen.has(name)) throw invalid(`${name} appears twice`);
      seen.add(name);
      const place = name === MANIFEST_PATH ? { kind: "config" as const } : classify(name);
      if (!place) throw invalid(`${name} is not part of a Matter Hub backup`);
      if (entry.uncompressedSize > limits.maxEntryBytes) throw invalid(`${name} is larger than ${mb(limits.maxEntryBytes)}`);
      total += entry.uncompressedSize;
      if (total > limits.maxTotalBytes) throw invalid(`the contents are larger than ${mb(limits.maxTotalBytes)} uncompressed`);
      listed.push({ entry, archiveEntry: { path: name, size: entry.uncompressedSize, ...place } });
    }
  } catch (error) {
    throw asInvalid(error);
  }
  return listed;
}

/** Inflates one entry into memory, refusing to hold more than its declared size (or the entry limit). */
async function inflate(zipfile: ZipFile, entry: Entry, limits: BackupLimits): Promise<Buffer> {
  const allowed = Math.min(entry.uncompressedSize, limits.maxEntryBytes);
  const chunks: Buffer[] = [];
  let count = 0;
  try {
    const stream = await zipfile.openReadStreamPromise(entry);
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      count += chunk.length;
      if (count > allowed) {
        stream.destroy();
        throw invalid(`${entry.fileName} inflates beyond its declared size (zip bomb?)`);
      }
      chunks.push(chunk);
    }
  } catch (error) {
    throw asInvalid(error, entry.fileName);
  }
  if (count !== entry.uncompressedSize) throw invalid(`${entry.fileName} is shorter than its declared size`);
  return Buffer.concat(chunks, count);
}

export function invalid(reason: string): HttpError {
  return badRequest(`Invalid backup: ${reason}`);
}

const NOT_A_ZIP =
  "this file is not a complete ZIP archive. It may have been cut short (an interrupted download or copy) or not be " +
  "a backup at all: download the backup again and choose that file.";

/**
 * yauzl's and zlib's own errors (unsafe names, "too many bytes", "invalid distance") become 400s too, in words a
 * user can act on: the library's wording ("invalid central directory file header signature: 0x…") stays out.
 */
function asInvalid(error: unknown, fileName?: string): HttpError {
  if (error instanceof HttpError) return error;
  const message = (error as Error).message ?? String(error);
  // strictFileNames: yauzl refuses these names before we see them; say it as unsafePathReason does.
  const name = /^(invalid relative path|absolute path|invalid characters in fileName): (.*)$/.exec(message);
  if (name) {
    const reason =
      name[1] === "invalid relative path"
        ? "path traversal"
        : name[1] === "absolute path"
          ? "absolute path"
          : "backslash in name";
    return invalid(`an entry has an unsafe name (${reason}: ${name[2]}); this is not a backup made by Matter Hub`);
  }
  if (fileName && /too many bytes/.test(message)) return invalid(`${fileName} inflates beyond its declared size (zip bomb?)`);
  if (fileName) return invalid(`${fileName} is damaged inside the ZIP archive and cannot be unpacked; ${RETRY}`);
  return invalid(`the ZIP archive is damaged: its list of files cannot be read; ${RETRY}`);
}

const RETRY = "download the backup again and choose that file";

const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;
