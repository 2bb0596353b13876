/**
 * The identity controllers remember of a bridge and of its entity devices: vendor and product, serial number, the
 * unique ids and the root node's BasicInformation. Derived here, in one place, from stable inputs (the bridge id and
 * an entity's endpoint id), never from names that change: a controller that sees a new unique id shows a new device.
 * The ids must stay byte-identical across releases (identity.test.ts pins them).
 */
import { cutUtf8, hashedId, MAX_LABEL_BYTES, MAX_NAME_BYTES } from "../matter-strings.ts";

/** The test vendor id and a product id of ours: what the pairing codes and the basic information carry. */
export const VENDOR_ID = 0xfff1;
export const PRODUCT_ID = 0x8000;
export const VENDOR_NAME = "Matter Hub";

/** The unique id a bridge's root node is created with (before {@link uniqueIdFor}'s checks). */
export function bridgeUniqueId(bridgeId: string): string {
  return hashedId(`matter-hub-bridge:${bridgeId}`);
}

/** The bridge's serial number. */
export function bridgeSerialNumber(bridgeId: string): string {
  return `mh-${bridgeId}`;
}

/** The unique id of an entity's device on a bridge: per endpoint id, so it follows the entity through renames. */
export function entityUniqueId(endpointId: string, bridgeId: string): string {
  return hashedId(`matter-hub:${endpointId}:${bridgeId}`);
}

/** Bridge-side names are cut with the trailing whitespace dropped (see cutUtf8). */
const cut = (text: string, maxBytes: number) => cutUtf8(text, maxBytes, { trimEnd: true });

/**
 * A uniqueId within 32 bytes that differs from the serial number (the spec wants both, and different). A too long
 * id is replaced by a hash rather than cut: two long ids sharing a prefix must not collide.
 */
export function uniqueIdFor(uniqueId: string, serialNumber: string): string {
  let id = Buffer.byteLength(uniqueId, "utf8") <= MAX_NAME_BYTES ? uniqueId : hashedId(uniqueId);
  if (id === serialNumber) id = hashedId(`uid:${uniqueId}`);
  return id;
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
  const vendorName = cut(input.vendorName, MAX_NAME_BYTES);
  const productName = cut(input.productName, MAX_NAME_BYTES);
  const serialNumber = cut(input.serialNumber, MAX_NAME_BYTES);
  const withoutVendor = vendorName ? productName.split(vendorName).join(" ").replace(/\s+/g, " ").trim() : productName;
  return {
    vendorId: input.vendorId,
    vendorName,
    productId: input.productId,
    productName,
    productLabel: cut(withoutVendor || "Bridge", MAX_LABEL_BYTES),
    nodeLabel: cut(input.name, MAX_NAME_BYTES),
    serialNumber,
    uniqueId: uniqueIdFor(input.uniqueId, serialNumber),
    hardwareVersion: 1,
    hardwareVersionString: "1",
    softwareVersion: versionNumber(input.softwareVersion),
    softwareVersionString: cut(input.softwareVersion, MAX_LABEL_BYTES),
  };
}
