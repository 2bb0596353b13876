import { randomInt } from "node:crypto";

/**
 * Letters and digits without the look-alikes people mistype off paper (0/O, 1/l/I), as the console's "Generate"
 * uses: 57 characters, so a 12-character token has about 70 bits. All are in Synapse's token alphabet, and none
 * starts a spreadsheet formula, so a token is safe as it is in a CSV cell.
 */
export const READABLE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";

/** A random token of `length` characters of {@link READABLE_ALPHABET} (crypto.randomInt: no modulo bias). */
export function readableToken(length: number): string {
  let token = "";
  for (let i = 0; i < length; i++) token += READABLE_ALPHABET[randomInt(READABLE_ALPHABET.length)];
  return token;
}
