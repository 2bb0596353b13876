import { randomInt } from "node:crypto";

/** Passcodes the Matter specification forbids (5.1.7.1: trivial sequences). */
const INVALID_PASSCODES = new Set([
  0, 11111111, 22222222, 33333333, 44444444, 55555555, 66666666, 77777777, 88888888, 99999999, 12345678, 87654321,
]);

/** A random setup passcode, valid per the Matter spec (1..99999998, not a trivial sequence). */
export function randomPasscode(): number {
  for (;;) {
    const candidate = randomInt(1, 99_999_999);
    if (!INVALID_PASSCODES.has(candidate)) return candidate;
  }
}

/** A random 12-bit discriminator, avoiding the well-known test value 3840 that many examples share. */
export function randomDiscriminator(taken: ReadonlySet<number> = new Set()): number {
  for (;;) {
    const candidate = randomInt(0, 4096);
    if (candidate !== 3840 && !taken.has(candidate)) return candidate;
  }
}
