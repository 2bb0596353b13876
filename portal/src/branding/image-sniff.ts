import { fileTypeFromBuffer } from "file-type";

/** The image types the portal accepts for branding assets, as file-type names them, and the type it serves. */
const ACCEPTED: Record<string, { mimeType: string; extension: string }> = {
  "image/png": { mimeType: "image/png", extension: "png" },
  // An animated PNG is a PNG (PNG third edition); browsers show it like any PNG.
  "image/apng": { mimeType: "image/png", extension: "png" },
  "image/jpeg": { mimeType: "image/jpeg", extension: "jpg" },
  "image/webp": { mimeType: "image/webp", extension: "webp" },
  "image/gif": { mimeType: "image/gif", extension: "gif" },
  "image/x-icon": { mimeType: "image/x-icon", extension: "ico" },
};

/** How far into a file the markup check looks for `<svg` (an SVG hidden behind a harmless-looking prefix). */
const MARKUP_SCAN_BYTES = 4096;

export type SniffResult =
  | { ok: true; mimeType: string; extension: string }
  | { ok: false; reason: "markup" | "unsupported"; detected: string | undefined }
  /** The magic number of an accepted type, but a structure no decoder could read (e.g. a truncated ICO). */
  | { ok: false; reason: "damaged"; detected: string; problem: string };

/**
 * Decides an upload's type from its bytes only (magic numbers, via the file-type library): never from the file name
 * or the declared Content-Type. SVG (and any markup that a browser could run as a document) is refused in every
 * disguise: bytes that start with `<` after an optional BOM and whitespace (`<svg`, `<?xml`, `<!DOCTYPE`, HTML), or
 * that contain `<svg` anywhere in the first 4 KiB, whatever the name or declared type. Everything else must be one
 * of PNG, JPEG, WebP, GIF or ICO. An ICO's magic number is only four bytes (`00 00 01 00`), so its icon directory
 * must also hold together (see `icoProblem`).
 */
export async function sniffImage(bytes: Uint8Array): Promise<SniffResult> {
  if (looksLikeMarkup(bytes)) return { ok: false, reason: "markup", detected: "image/svg+xml or other markup" };
  const type = await fileTypeFromBuffer(bytes);
  const accepted = type ? ACCEPTED[type.mime] : undefined;
  if (!accepted) return { ok: false, reason: "unsupported", detected: type?.mime };
  if (accepted.extension === "ico") {
    const problem = icoProblem(bytes);
    if (problem) return { ok: false, reason: "damaged", detected: "image/x-icon", problem };
  }
  return { ok: true, ...accepted };
}

/** Size of the ICONDIR header and of each ICONDIRENTRY (the Windows icon file format). */
const ICO_HEADER = 6;
const ICO_ENTRY = 16;

/**
 * What makes an ICO (or CUR, same layout) unreadable, or undefined when its directory is plausible: at least one
 * entry, the whole directory inside the file, and every entry's image (`dwBytesInRes` bytes at `dwImageOffset`)
 * non-empty, after the directory and inside the file. Six bytes `00 00 01 00 01 00` start like an icon but hold none.
 */
export function icoProblem(bytes: Uint8Array): string | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.byteLength < ICO_HEADER) return "the icon header is incomplete";
  const count = view.getUint16(4, true);
  if (count === 0) return "the icon directory lists no image";
  const directoryEnd = ICO_HEADER + ICO_ENTRY * count;
  if (directoryEnd > bytes.byteLength) return `the icon directory of ${count} image(s) is cut off`;
  for (let index = 0; index < count; index++) {
    const entry = ICO_HEADER + ICO_ENTRY * index;
    const size = view.getUint32(entry + 8, true);
    const offset = view.getUint32(entry + 12, true);
    if (size === 0) return `icon image ${index + 1} is empty`;
    if (offset < directoryEnd || offset + size > bytes.byteLength) {
      return `icon image ${index + 1} (${size} bytes at offset ${offset}) lies outside the file`;
    }
  }
  return undefined;
}

function looksLikeMarkup(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, MARKUP_SCAN_BYTES));
  let i = 0;
  // UTF-8 BOM, then UTF-16 BOMs (an SVG saved as UTF-16 starts with FF FE or FE FF).
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) i = 3;
  else if ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff)) return true;
  while (i < head.length && (head[i] === 0x20 || head[i] === 0x09 || head[i] === 0x0a || head[i] === 0x0d)) i++;
  if (head[i] === 0x3c /* < */) return true;
  return head.toString("latin1").toLowerCase().includes("<svg");
}
