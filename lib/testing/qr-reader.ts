import { inflateSync } from "node:zlib";
import jsQRModule from "jsqr";

// jsqr is CommonJS: its `module.exports` is the reader, which also carries itself as `default` (what its types name).
const jsQR = jsQRModule.default;

/**
 * Reads QR codes back in tests, so a test checks what a phone's camera would get, not what the encoder was asked:
 * a small PNG decoder (8-bit greyscale, grey+alpha, RGB, RGBA; every filter; no interlace: what the portal writes and
 * what Chromium's screenshots are) in front of jsQR, and a reader of the module rectangles in the portal's SVG files.
 */

export interface Picture {
  width: number;
  height: number;
  /** RGBA, 4 bytes a pixel, rows top to bottom. */
  rgba: Uint8ClampedArray;
}

const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 4: 2, 6: 4 };

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** Decodes a PNG file; throws on what it does not read (another bit depth, a palette, interlacing). */
export function decodePng(file: Uint8Array): Picture {
  const bytes = Buffer.from(file);
  if (bytes.readUInt32BE(0) !== 0x89504e47) throw new Error("not a PNG");
  let at = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const data: Buffer[] = [];
  while (at < bytes.length) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString("latin1", at + 4, at + 8);
    const body = bytes.subarray(at + 8, at + 8 + length);
    if (type === "IHDR") {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const [depth, colour, , , interlace] = [body[8], body[9], body[10], body[11], body[12]];
      channels = CHANNELS[colour ?? -1] ?? 0;
      if (depth !== 8 || channels === 0 || interlace !== 0) throw new Error(`unsupported PNG: depth ${depth}, colour ${colour}`);
    } else if (type === "IDAT") data.push(body);
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const pixels = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    for (let i = 0; i < stride; i++) {
      const value = raw[y * (stride + 1) + 1 + i] as number;
      const left = i >= channels ? (pixels[y * stride + i - channels] as number) : 0;
      const up = y > 0 ? (pixels[(y - 1) * stride + i] as number) : 0;
      const upLeft = y > 0 && i >= channels ? (pixels[(y - 1) * stride + i - channels] as number) : 0;
      const predicted = [0, left, up, (left + up) >> 1, paeth(left, up, upLeft)][filter ?? 0] ?? 0;
      pixels[y * stride + i] = (value + predicted) & 0xff;
    }
  }
  const rgba = new Uint8ClampedArray(width * height * 4);
  for (let p = 0; p < width * height; p++) {
    const px = pixels.subarray(p * channels, (p + 1) * channels);
    const [r, g, b] = channels >= 3 ? [px[0], px[1], px[2]] : [px[0], px[0], px[0]];
    const alpha = channels === 4 ? px[3] : channels === 2 ? px[1] : 255;
    rgba.set([r ?? 0, g ?? 0, b ?? 0, alpha ?? 255], p * 4);
  }
  return { width, height, rgba };
}

/** The text of the QR code in a picture, or null when jsQR finds none. */
export function readQr(picture: Picture): string | null {
  return jsQR(picture.rgba, picture.width, picture.height)?.data ?? null;
}

/** The text of the QR code in a PNG file. */
export const readQrPng = (file: Uint8Array) => readQr(decodePng(file));

/**
 * The QR code of one of the portal's SVG files, read from its markup: the viewBox, the white field and the dark
 * module runs of its path (`M x y h w v1 h-w z`), drawn at `scale` pixels a module, then read by jsQR. Anything else
 * in the path is refused, so a change of the drawing shows here instead of passing unread.
 */
export function readQrSvg(svg: string, scale = 6): string | null {
  const side = Number(/viewBox="0 0 (\d+) \1"/.exec(svg)?.[1]);
  const d = /<path d="([^"]*)" fill="#000"\/>/.exec(svg)?.[1];
  if (!side || d === undefined) throw new Error("not a QR SVG of the portal");
  const width = side * scale;
  const rgba = new Uint8ClampedArray(width * width * 4).fill(255);
  const runs = d.match(/M\d+ \d+h\d+v1h-\d+z/g) ?? [];
  if (runs.join("") !== d) throw new Error("unexpected path commands in the QR SVG");
  for (const run of runs) {
    const [x, y, w] = (/M(\d+) (\d+)h(\d+)/.exec(run) ?? []).slice(1).map(Number) as [number, number, number];
    for (let py = y * scale; py < (y + 1) * scale; py++)
      for (let px = x * scale; px < (x + w) * scale; px++) rgba.fill(0, (py * width + px) * 4, (py * width + px) * 4 + 3);
  }
  return readQr({ width, height: width, rgba });
}
