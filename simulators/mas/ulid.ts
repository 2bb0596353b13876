import { randomBytes } from "node:crypto";

/** Crockford's base 32, the ULID alphabet. */
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/**
 * ULIDs as MAS stores ids (the `ulid` crate): 48 bits of milliseconds, then 80 random bits, 26 characters. Unlike
 * MAS (`Ulid::from_datetime_with_source`, fresh randomness each time) ids made within one millisecond increase here,
 * so that creation order and id order agree in tests with a frozen clock.
 */
export class UlidFactory {
  private lastTime = -1;
  private lastRandom = 0n;

  constructor(private readonly now: () => number) {}

  next(): string {
    const time = this.now();
    let random: bigint;
    if (time === this.lastTime) {
      random = (this.lastRandom + 1n) & ((1n << 80n) - 1n);
    } else {
      random = BigInt(`0x${randomBytes(10).toString("hex")}`) >> 1n; // headroom for increments
    }
    this.lastTime = time;
    this.lastRandom = random;
    return encode((BigInt(time) << 80n) | random);
  }
}

function encode(value: bigint): string {
  let text = "";
  for (let i = 0; i < 26; i++) {
    text = ALPHABET[Number(value & 31n)] + text;
    value >>= 5n;
  }
  return text;
}

/**
 * Parses a ULID as the `ulid` crate's `FromStr` does: 26 characters of Crockford base 32 (either case), at most
 * `7ZZZZZZZZZZZZZZZZZZZZZZZZZ`. Answers the canonical (upper-case) form, or undefined.
 */
export function parseUlid(text: string): string | undefined {
  if (!/^[0-7][0-9A-HJKMNP-TV-Z]{25}$/i.test(text)) return undefined;
  return text.toUpperCase();
}
