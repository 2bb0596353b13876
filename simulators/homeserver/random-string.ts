import { randomInt } from "node:crypto";

/** The letters of Synapse's `random_string`. */
export const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** Synapse's `random_string`: letters only, unless another alphabet is given. */
export function randomString(length: number, alphabet = LETTERS): string {
  let text = "";
  for (let i = 0; i < length; i++) text += alphabet[randomInt(alphabet.length)];
  return text;
}
