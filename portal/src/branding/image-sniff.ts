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
  | { ok: false; reason: "markup" | "unsupported"; detected: string | undefined };

/**
 * Decides an upload's type from its bytes only (magic numbers, via the file-type library): never from the file name
 * or the declared Content-Type. SVG (and any markup that a browser could run as a document) is refused in every
 * disguise: bytes that start with `<` after an optional BOM and whitespace (`<svg`, `<?xml`, `<!DOCTYPE`, HTML), or
 * that contain `<svg` anywhere in the first 4 KiB, whatever the name or declared type. Everything else must be one
 * of PNG, JPEG, WebP, GIF or ICO.
 */
export async function sniffImage(bytes: Uint8Array): Promise<SniffResult> {
  if (looksLikeMarkup(bytes)) return { ok: false, reason: "markup", detected: "image/svg+xml or other markup" };
  const type = await fileTypeFromBuffer(bytes);
  const accepted = type ? ACCEPTED[type.mime] : undefined;
  if (!accepted) return { ok: false, reason: "unsupported", detected: type?.mime };
  return { ok: true, ...accepted };
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
