import { DistinctKeyLimiter, type DistinctRule } from "./distinct-key-limiter.ts";
import { type BackoffRule, FailureBackoff } from "./failure-backoff.ts";
import { RateLimiter, type RateLimitRule, tooManyRequests } from "./rate-limiter.ts";

const MINUTE = 60_000;

/** The login limits (docs/portal.md, Rate limits). */
export const LOGIN_LIMITS = {
  /** Per account (normalised e-mail, known or not): 5 failures in a row free, then 1, 2, 4, 8, 15, 15... minutes. */
  account: { free: 5, firstLockMs: MINUTE, maxLockMs: 15 * MINUTE, forgetMs: 24 * 60 * MINUTE, maxKeys: 10_000 },
  /** Per client IP: failures on at most 10 different accounts in 15 minutes. */
  address: { limit: 10, windowMs: 15 * MINUTE, maxGroups: 10_000 },
  /** Per device cookie: 5 failures in 15 minutes, then the cookie counts for nothing until the window frees. */
  device: { limit: 5, windowMs: 15 * MINUTE },
} as const satisfies { account: BackoffRule; address: DistinctRule; device: RateLimitRule };

/** One admitted login attempt, counted as a failure in advance. */
export interface LoginAttempt {
  /** The attempt came with a valid device cookie for the account, so the account and address limits were skipped. */
  readonly trusted: boolean;
  /** The password was right: takes back what the attempt counted in advance. */
  succeeded(): void;
}

/**
 * The login limits, after OWASP's "device cookie" scheme against lockout attacks: a browser that once logged in to an
 * account carries a sealed cookie naming it, and its attempts on that account skip the per-account and per-address
 * limits that everyone else meets (a flood started by someone else never locks it out), under a small limit of
 * their own. Everyone else is limited per account (with a bounded backoff) and per client IP (by distinct accounts,
 * so one account's flood from a shared address does not lock out the others behind it).
 */
export class LoginLimits {
  private readonly accounts: FailureBackoff;
  private readonly addresses: DistinctKeyLimiter;
  private readonly devices: RateLimiter;

  constructor(now: () => number, rules: typeof LOGIN_LIMITS = LOGIN_LIMITS) {
    this.accounts = new FailureBackoff(rules.account, now);
    this.addresses = new DistinctKeyLimiter(rules.address, now);
    this.devices = new RateLimiter(rules.device, now);
  }

  /**
   * Admits an attempt on `account` from `ip` before any password work, or throws the 429 (`RATE_LIMITED`,
   * `Retry-After`). `device` is the id of a valid device cookie naming this very account. The checks and the
   * advance count are one synchronous step, so parallel attempts cannot all pass a limit before one of them fails.
   */
  admit(account: string, ip: string, device: string | undefined): LoginAttempt {
    // A device over its own limit is treated like any other browser (OWASP: its cookie goes on the lockout list).
    if (device !== undefined && this.devices.consume(device) === 0) {
      return {
        trusted: true,
        // The account's failures stay: a trusted login must not hand a running flood a fresh set of tries.
        succeeded: () => this.devices.reset(device),
      };
    }
    const addressWait = this.addresses.wait(ip, account);
    if (addressWait > 0) throw tooManyRequests(addressWait, "Too many failed logins from this address; try again in {wait}");
    const accountWait = this.accounts.wait(account);
    if (accountWait > 0) throw tooManyRequests(accountWait, "Too many failed logins for this account; try again in {wait}");
    this.addresses.add(ip, account);
    this.accounts.fail(account);
    return {
      trusted: false,
      succeeded: () => {
        this.addresses.remove(ip, account);
        this.accounts.reset(account);
      },
    };
  }
}
