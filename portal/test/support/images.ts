import { deflateSync } from "node:zlib";

/** Tiny but valid images of every accepted format, built byte by byte (no fixtures on disk). */

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (CRC_TABLE[(crc ^ byte) & 0xff] as number) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A 1×1 RGBA PNG (signature, IHDR, IDAT with a zlib stream of one filtered row, IEND; real CRCs). */
export function png(rgba: [number, number, number, number] = [13, 189, 139, 255]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0); // width
  header.writeUInt32BE(1, 4); // height
  header.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA, deflate, no filter method quirks, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", header),
    pngChunk("IDAT", deflateSync(Buffer.from([0, ...rgba]))),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

/**
 * A 1×1 grey baseline JPEG: SOI, a quantisation table of ones, SOF0 (one 8-bit component), one-symbol DC and AC
 * Huffman tables, and a scan whose only block is DC difference 0 then end-of-block (bits `00`, padded with ones).
 */
export function jpeg(): Buffer {
  const segment = (marker: number, data: number[]) => [0xff, marker, (data.length + 2) >> 8, (data.length + 2) & 0xff, ...data];
  const table = (tableClass: number) => [tableClass << 4, 1, ...new Array(15).fill(0), 0x00];
  return Buffer.from([
    0xff,
    0xd8,
    ...segment(0xdb, [0x00, ...new Array(64).fill(1)]),
    ...segment(0xc0, [8, 0, 1, 0, 1, 1, 1, 0x11, 0]),
    ...segment(0xc4, table(0)),
    ...segment(0xc4, table(1)),
    ...segment(0xda, [1, 1, 0x00, 0, 63, 0]),
    0x3f,
    0xff,
    0xd9,
  ]);
}

/** The 1×1 transparent GIF89a (global colour table of two, graphic control extension, one image, trailer). */
export function gif(): Buffer {
  return Buffer.from("47494638396101000100800000000000ffffff21f90401000000002c00000000010001000002024401003b", "hex");
}

/** A 1×1 lossless WebP (RIFF container with a VP8L bitstream). */
export function webp(): Buffer {
  return Buffer.from("UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==", "base64");
}

/** An ICO with one 1×1 image stored as PNG (allowed since Windows Vista): ICONDIR, one ICONDIRENTRY, the PNG. */
export function ico(): Buffer {
  const image = png();
  const header = Buffer.from([0, 0, 1, 0, 1, 0]);
  const entry = Buffer.alloc(16);
  entry.set([1, 1, 0, 0], 0); // width, height, colours, reserved
  entry.writeUInt16LE(1, 4); // planes
  entry.writeUInt16LE(32, 6); // bits per pixel
  entry.writeUInt32LE(image.length, 8);
  entry.writeUInt32LE(6 + 16, 12);
  return Buffer.concat([header, entry, image]);
}

export const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"><script>alert(1)</script></svg>';
