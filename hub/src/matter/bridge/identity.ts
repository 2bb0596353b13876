import { createHash } from "node:crypto";

/** Matter's limit for nodeLabel, vendorName, productName, serialNumber and uniqueId (BasicInformation). */
export const MAX_NAME_BYTES = 32;
/** Matter's limit for productLabel and the version strings. */
export const MAX_LABEL_BYTES = 64;

/**
 * Cuts `text` to at most `maxBytes` UTF-8 bytes without splitting a character. Matter counts string lengths in
 * bytes; matter.js only checks UTF-16 units, so a 20-letter name with umlauts passes matter.js and is then refused
 * by stricter controllers. Trailing whitespace left by the cut is dropped.
 */
export function truncateUtf8(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text, "utf8") <= maxBytes) return text;
  let bytes = 0;
  let out = "";
  for (const char of text) {
    const size = Buffer.byteLength(char, "utf8");
    if (bytes + size > maxBytes) break;
    bytes += size;
    out += char;
  }
  return out.trimEnd();
}

/**
 * A uniqueId within 32 bytes that differs from the serial number (the spec wants both, and different). A too long
 * id is replaced by a hash rather than cut: two long ids sharing a prefix must not collide.
 */
export function uniqueIdFor(uniqueId: string, serialNumber: string): string {
  let id = Buffer.byteLength(uniqueId, "utf8") <= MAX_NAME_BYTES ? uniqueId : hash32(uniqueId);
  if (id === serialNumber) id = hash32(`uid:${uniqueId}`);
  return id;
}

function hash32(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, MAX_NAME_BYTES);
}

/**
 * The numeric softwareVersion for a version string such as "1.4.2": major, minor and patch packed into one
 * uint32 (8 bits each for minor and patch), so that a newer release always has the larger number.
 */
export function versionNumber(version: string): number {
  const [major = 0, minor = 0, patch = 0] = version.split(/[.+-]/, 3).map((part) => Number.parseInt(part, 10) || 0);
  const packed = (major % 256) * 65536 + (minor % 256) * 256 + (patch % 256);
  return packed > 0 ? packed : 1;
}

export interface IdentityInput {
  name: string;
  vendorId: number;
  productId: number;
  vendorName: string;
  productName: string;
  serialNumber: string;
  uniqueId: string;
  softwareVersion: string;
}

/**
 * The root node's BasicInformation, within Matter's length limits and without the values matter.js warns about:
 * explicit hardware/software versions (0 counts as a development value), a productLabel without the vendor name,
 * uniqueId different from serialNumber.
 */
export function basicInformationFor(input: IdentityInput) {
  const vendorName = truncateUtf8(input.vendorName, MAX_NAME_BYTES);
  const productName = truncateUtf8(input.productName, MAX_NAME_BYTES);
  const serialNumber = truncateUtf8(input.serialNumber, MAX_NAME_BYTES);
  const withoutVendor = vendorName ? productName.split(vendorName).join(" ").replace(/\s+/g, " ").trim() : productName;
  return {
    vendorId: input.vendorId,
    vendorName,
    productId: input.productId,
    productName,
    productLabel: truncateUtf8(withoutVendor || "Bridge", MAX_LABEL_BYTES),
    nodeLabel: truncateUtf8(input.name, MAX_NAME_BYTES),
    serialNumber,
    uniqueId: uniqueIdFor(input.uniqueId, serialNumber),
    hardwareVersion: 1,
    hardwareVersionString: "1",
    softwareVersion: versionNumber(input.softwareVersion),
    softwareVersionString: truncateUtf8(input.softwareVersion, MAX_LABEL_BYTES),
  };
}
