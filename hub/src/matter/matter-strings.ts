/**
 * Matter's string limits and the two ways the hub fits a value into them: names are cut (a controller shows them),
 * ids are hashed (two long ids that share a prefix must not collide). Matter counts lengths in UTF-8 bytes;
 * matter.js only checks UTF-16 units, so a 20-letter name with umlauts passes matter.js and is then refused by
 * stricter controllers. Shared by the bridge's node (matter/bridge), entity devices (matter/devices) and plugin
 * devices (matter/plugin-devices); it imports nothing of theirs.
 */
import { createHash } from "node:crypto";

/**
 * Matter's limit for nodeLabel, vendorName, productName, serialNumber and uniqueId (BasicInformation and
 * BridgedDeviceBasicInformation, Core spec §9.13.5).
 */
export const MAX_NAME_BYTES = 32;
/** Matter's limit for productLabel and the version strings (BasicInformation). */
export const MAX_LABEL_BYTES = 64;

/**
 * `text` cut to at most `maxBytes` UTF-8 bytes without splitting a character; unchanged when it fits. With
 * `trimEnd`, whitespace the cut leaves at the end is dropped (the bridge's own BasicInformation does; entity and
 * plugin device names keep what they always had, so controllers see no rename).
 */
export function cutUtf8(text: string, maxBytes = MAX_NAME_BYTES, options: { trimEnd?: boolean } = {}): string {
  if (Buffer.byteLength(text, "utf8") <= maxBytes) return text;
  let bytes = 0;
  let out = "";
  for (const char of text) {
    const size = Buffer.byteLength(char, "utf8");
    if (bytes + size > maxBytes) break;
    bytes += size;
    out += char;
  }
  return options.trimEnd ? out.trimEnd() : out;
}

/**
 * A stable id of {@link MAX_NAME_BYTES} characters for `text`: the first 32 hex characters of its SHA-256. Matter
 * UniqueIDs are made this way; controllers and stored data know them, so the formula must never change.
 */
export function hashedId(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, MAX_NAME_BYTES);
}
