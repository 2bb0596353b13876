/**
 * The hub's PIN rules in one place: what the credentials API accepts, when the brake refuses, and what the
 * DoorLock endpoint advertises (MinPINCodeLength, MaxPINCodeLength, WrongCodeEntryLimit,
 * UserCodeTemporaryDisableTime), so that a controller is told exactly the rules the hub enforces.
 *
 * It lives on the Matter side because the DoorLock endpoint advertises these numbers; the credentials service
 * (hub/src/lock-credentials) imports them from here, so imports run one way. No imports on purpose.
 */
export const PIN_POLICY = {
  /** Shortest PIN: four digits, the smallest keypad PIN in common use. */
  minLength: 4,
  /**
   * Longest PIN. Matter leaves the range to the lock; 8 is what keypad locks and the Matter SDK's example lock
   * use, and HA's Matter integration turns the advertised range into its `^\d{min,max}$` code format.
   */
  maxLength: 8,
  /** Wrong PINs of one lock within {@link PIN_POLICY.failureWindowMs} that trigger a lockout. */
  maxFailures: 5,
  failureWindowMs: 5 * 60_000,
  /** How long remote unlocks of that lock are refused; must fit Matter's 1-255 s UserCodeTemporaryDisableTime. */
  lockoutMs: 60_000,
} as const;

/**
 * A PIN is 4 to 8 ASCII digits. Digits only because controllers show a numeric keypad for lock PINs and HA
 * codes of Matter locks are numeric; a PIN sent by a controller that does not match can never be right.
 */
export const PIN_FORMAT = /^[0-9]{4,8}$/;

/** The rule in words, for error messages (which must never quote the PIN that was sent). */
export const PIN_RULE = `pin must be a string of ${PIN_POLICY.minLength} to ${PIN_POLICY.maxLength} digits (0-9)`;

/** True for a PIN the hub could have stored (checked before spending a slow hash on it). */
export function isWellFormedPin(pin: string): boolean {
  return PIN_FORMAT.test(pin);
}

/** Lock entities only: `lock.<object_id>` as HA writes entity ids. */
export const LOCK_ENTITY_ID = /^lock\.[a-z0-9_]+$/;
