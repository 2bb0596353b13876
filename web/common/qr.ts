import { encode } from "uqr";
import { type Deflate, greyPng } from "./png.ts";

/**
 * QR codes for links people scan off a screen or a printed card: error correction M (15 %: a crease, a smudge, a
 * glare survive), dark modules on white whatever the theme, and the quiet zone of four modules the standard asks
 * for around the code. Used by the portal's invites (on screen, SVG and PNG downloads, printed sheets).
 */
export const QUIET_ZONE = 4;

export interface QrMatrix {
  /** Modules per side, without the quiet zone. */
  size: number;
  /** `dark[y][x]`. */
  dark: boolean[][];
}

export function qrMatrix(value: string): QrMatrix {
  const qr = encode(value, { ecc: "M", border: 0 });
  return { size: qr.size, dark: qr.data };
}

/** The side of the whole picture in modules, quiet zone included. */
export const qrSide = (qr: QrMatrix) => qr.size + 2 * QUIET_ZONE;

/** SVG path data for the dark modules (one rectangle per horizontal run), in module units, quiet zone included. */
export function qrPath(qr: QrMatrix): string {
  let d = "";
  qr.dark.forEach((row, y) => {
    let x = 0;
    while (x < row.length) {
      if (!row[x]) {
        x++;
        continue;
      }
      const start = x;
      while (x < row.length && row[x]) x++;
      d += `M${start + QUIET_ZONE} ${y + QUIET_ZONE}h${x - start}v1h-${x - start}z`;
    }
  });
  return d;
}

const escapeXml = (text: string) =>
  text.replace(/[<>&"']/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[c] ?? c);

/**
 * A standalone SVG file of the code (for download and print): `title` is its accessible name, `pixels` its default
 * size. Vector: it prints sharp at any size.
 */
export function qrSvg(value: string, title: string, pixels = 512): string {
  const qr = qrMatrix(value);
  const side = qrSide(qr);
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<svg xmlns="http://www.w3.org/2000/svg" width="${pixels}" height="${pixels}" viewBox="0 0 ${side} ${side}" ` +
    `shape-rendering="crispEdges" role="img"><title>${escapeXml(title)}</title>` +
    `<rect width="${side}" height="${side}" fill="#fff"/><path d="${qrPath(qr)}" fill="#000"/></svg>\n`
  );
}

/**
 * A PNG of the code, `scale` pixels per module (whole pixels, so every module is sharp), quiet zone included. With
 * the default 16 a typical invite link (version 5, 37 modules) is 720 px: enough to print at 6 cm and 300 dpi.
 */
export function qrPng(value: string, deflate: Deflate, scale = 16): Promise<Uint8Array> {
  const qr = qrMatrix(value);
  const side = qrSide(qr) * scale;
  return greyPng(
    side,
    side,
    (x, y) => (qr.dark[Math.floor(y / scale) - QUIET_ZONE]?.[Math.floor(x / scale) - QUIET_ZONE] ? 0 : 255),
    deflate,
  );
}
