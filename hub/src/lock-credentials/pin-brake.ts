import { PIN_POLICY } from "../matter/model/pin-policy.ts";

/** The brake's thresholds; the defaults are {@link PIN_POLICY}'s. */
export interface PinBrakeOptions {
  maxFailures?: number;
  failureWindowMs?: number;
  lockoutMs?: number;
  /** Clock in epoch ms (tests pass a fake one). */
  now?: () => number;
}

/**
 * Brute-force brake per lock: after `maxFailures` wrong PINs within `failureWindowMs`, remote unlocks of that
 * lock are refused for `lockoutMs` without even checking the PIN. A 4-digit PIN has 10 000 values; at 5 guesses
 * per minute a search takes about 33 hours, long enough for the warnings in the log to be noticed. It is the
 * Matter WrongCodeEntryLimit / UserCodeTemporaryDisableTime behaviour, which the DoorLock endpoint advertises.
 *
 * Kept in memory only: an attacker cannot restart the hub, and a restart by the operator may well lift a lockout.
 */
export class PinBrake {
  readonly #maxFailures: number;
  readonly #windowMs: number;
  readonly #lockoutMs: number;
  readonly #now: () => number;
  /** Times of the recent wrong PINs per lock (only those inside the window are kept). */
  readonly #failures = new Map<string, number[]>();
  readonly #lockedUntil = new Map<string, number>();

  constructor(options: PinBrakeOptions = {}) {
    this.#maxFailures = options.maxFailures ?? PIN_POLICY.maxFailures;
    this.#windowMs = options.failureWindowMs ?? PIN_POLICY.failureWindowMs;
    this.#lockoutMs = options.lockoutMs ?? PIN_POLICY.lockoutMs;
    this.#now = options.now ?? Date.now;
  }

  /** Epoch ms until which unlocks of this lock are refused, or undefined when they are not. */
  lockedUntil(entityId: string): number | undefined {
    const until = this.#lockedUntil.get(entityId);
    if (until === undefined) return undefined;
    if (until > this.#now()) return until;
    // The lockout is over: the next guesses start a fresh window.
    this.#lockedUntil.delete(entityId);
    this.#failures.delete(entityId);
    return undefined;
  }

  /** Records a wrong PIN; true when it started a lockout. */
  recordFailure(entityId: string): boolean {
    const now = this.#now();
    const recent = (this.#failures.get(entityId) ?? []).filter((at) => at > now - this.#windowMs);
    recent.push(now);
    this.#failures.set(entityId, recent);
    if (recent.length < this.#maxFailures) return false;
    this.#lockedUntil.set(entityId, now + this.#lockoutMs);
    this.#failures.delete(entityId);
    return true;
  }

  /** A right PIN clears the count (Matter: the lock resets the counter when a valid credential is presented). */
  recordSuccess(entityId: string): void {
    this.#failures.delete(entityId);
  }

  /** Forgets everything about a lock (its PIN was replaced or deleted). */
  reset(entityId: string): void {
    this.#failures.delete(entityId);
    this.#lockedUntil.delete(entityId);
  }
}
