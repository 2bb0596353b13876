/**
 * The pixel size of a JPEG, read from its first start-of-frame segment (baseline, extended, progressive or
 * lossless; ITU T.81 B.2.2): a CaptureSnapshotResponse states the resolution it really delivers, which may differ
 * from what the controller asked for. Undefined when the bytes are not a JPEG.
 */
const START_OF_FRAME = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

export function jpegSize(bytes: Uint8Array): { width: number; height: number } | undefined {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return undefined;
  let offset = 2;
  while (offset + 4 <= bytes.length) {
    if (bytes[offset] !== 0xff) return undefined;
    const marker = bytes[offset + 1] as number;
    // Fill bytes (0xFF 0xFF …) and markers without a length (RSTn, TEM) carry no segment.
    if (marker === 0xff) {
      offset += 1;
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      offset += 2;
      continue;
    }
    const length = ((bytes[offset + 2] as number) << 8) | (bytes[offset + 3] as number);
    if (length < 2) return undefined;
    if (START_OF_FRAME.has(marker)) {
      if (offset + 9 > bytes.length) return undefined;
      const height = ((bytes[offset + 5] as number) << 8) | (bytes[offset + 6] as number);
      const width = ((bytes[offset + 7] as number) << 8) | (bytes[offset + 8] as number);
      return width > 0 && height > 0 ? { width, height } : undefined;
    }
    if (marker === 0xda || marker === 0xd9) return undefined;
    offset += 2 + length;
  }
  return undefined;
}
