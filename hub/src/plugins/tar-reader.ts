/**
 * Just enough of the tar format to look inside an uploaded npm package (`npm pack` output: gzip'd ustar with
 * everything under `package/`) before installing it: the manifest to check, and the entry paths to spot a
 * bundled matter.js. No extraction to disk; npm does the real install.
 */
import { gunzipSync } from "node:zlib";

const BLOCK = 512;

/** One file of the archive (regular files only). */
export interface TarFile {
  path: string;
  size: number;
  read(): Buffer;
}

function field(header: Buffer, offset: number, length: number): string {
  const raw = header.subarray(offset, offset + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end === -1 ? length : end).toString("utf8");
}

function octal(header: Buffer, offset: number, length: number): number {
  const text = field(header, offset, length).trim();
  return text === "" ? 0 : Number.parseInt(text, 8);
}

/** Lists the regular files of a gzip'd tar; throws on anything that is not one. */
export function readTarGz(archive: Uint8Array, maxUnpackedBytes = 256 * 1024 * 1024): TarFile[] {
  let data: Buffer;
  try {
    data = gunzipSync(archive, { maxOutputLength: maxUnpackedBytes });
  } catch (error) {
    throw new Error(`not a gzip'd archive (${(error as Error).message})`);
  }
  const files: TarFile[] = [];
  let offset = 0;
  let longName: string | undefined;
  while (offset + BLOCK <= data.length) {
    const header = data.subarray(offset, offset + BLOCK);
    if (header.every((byte) => byte === 0)) break;
    if (field(header, 257, 5) !== "ustar" && offset === 0) throw new Error("not a tar archive");
    const size = octal(header, 124, 12);
    const type = String.fromCharCode(header[156] ?? 0);
    const prefix = field(header, 345, 155);
    const name = longName ?? (prefix ? `${prefix}/${field(header, 0, 100)}` : field(header, 0, 100));
    longName = undefined;
    const start = offset + BLOCK;
    if (start + size > data.length) throw new Error("truncated tar archive");
    if (type === "L")
      longName = data
        .subarray(start, start + size)
        .toString("utf8")
        .replace(/\0+$/, "");
    else if (type === "0" || type === "\0") {
      files.push({ path: name, size, read: () => data.subarray(start, start + size) });
    }
    offset = start + Math.ceil(size / BLOCK) * BLOCK;
  }
  return files;
}

/** The parsed `package.json` at the root folder of an npm package archive, and every path in the archive. */
export function readPackageArchive(archive: Uint8Array): { manifest: unknown; paths: string[] } {
  const files = readTarGz(archive);
  const manifests = files.filter((file) => /^[^/]+\/package\.json$/.test(file.path));
  const manifestFile = manifests.find((file) => file.path === "package/package.json") ?? manifests[0];
  if (!manifestFile) throw new Error("the archive has no package.json at its root (expected package/package.json)");
  let manifest: unknown;
  try {
    manifest = JSON.parse(manifestFile.read().toString("utf8"));
  } catch {
    throw new Error(`${manifestFile.path} is not valid JSON`);
  }
  return { manifest, paths: files.map((file) => file.path) };
}
