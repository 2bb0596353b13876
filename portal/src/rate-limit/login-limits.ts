import { DistinctKeyLimiter, type DistinctRule } from "./distinct-key-limiter.ts";
import { type BackoffRule, FailureBackoff } from "./failure-backoff.ts";
import type { RateLimitRepository } from "./rate-limit.repository.ts";
import { RateLimiter, type RateLimitRule, tooManyRequests } from "./rate-limiter.ts";

const MINUTE = 60_000;

/** The login limits (docs/portal.md, Rate limits). */
export const LOGIN_LIMITS = {
  /** Per account (normalised e-mail, known or not): 5 failures in a row free, then 1, 2, 4, 8, 15, 15... minutes. */
  account: { free: 5, firstLockMs: MINUTE, maxLockMs: 15 * MINUTE, forgetMs: 24 * 60 * MINUTE },
  /** Per client IP: failures on at most 10 different accounts in 15 minutes. */
  address: { limit: 10, windowMs: 15 * MINUTE },
  /** Per device cookie: 5 failures in 15 minutes, then the cookie counts for nothing until the window frees. */
  device: { limit: 5, windowMs: 15 * MINUTE },
} as const satisfies { account: BackoffRule; address: DistinctRule; device: RateLimitRule };

/** One admitted login attempt, counted as a failure in advance. */
export interface LoginAttempt {
  /** The attempt came with a valid device cookie for the account, so the account and address limits were skipped. */
  readonly trusted: boolean;
  /** The password was right: takes back what the attempt counted in advance. */
  succeeded(): Promise<void>;
}

/**
 * The login limits, after OWASP's "device cookie" scheme against lockout attacks: a browser that once logged in to an
 * account carries a sealed cookie naming it, and its attempts on that account skip the per-account and per-address
 * limits that everyone else meets (a flood started by someone else never locks it out), under a small limit of
 * their own. Everyone else is limited per account (with a bounded backoff) and per client IP (by distinct accounts,
 * so one account's flood from a shared address does not lock out the others behind it). Every count is in the
 * database, shared by all portal instances: a flood spread over instances meets the same limits.
 */
export class LoginLimits {
  private readonly accounts: FailureBackoff;
  private readonly addresses: DistinctKeyLimiter;
  private readonly devices: RateLimiter;

  constructor(
    store: RateLimitRepository,
    now: () => number,
    /**
     * Turns the e-mail typed into the key stored in the database (SecretBox.fingerprint): the text may be a password
     * typed into the wrong field, and nothing typed at the login is ever stored.
     */
    private readonly fingerprint: (typed: string) => string,
    rules: typeof LOGIN_LIMITS = LOGIN_LIMITS,
  ) {
    this.accounts = new FailureBackoff(rules.account, store, "login-account", now);
    this.addresses = new DistinctKeyLimiter(rules.address, store, "login-address", now);
    this.devices = new RateLimiter(rules.device, store, "login-device", now);
  }

  /**
   * Admits an attempt on `account` from `ip` before any password work, or throws the 429 (`RATE_LIMITED`,
   * `Retry-After`). `device` is the id of a valid device cookie naming this very account. Each limit checks and counts
   * in one database statement, so parallel attempts, on one instance or several, cannot all pass a limit before one
   * of them fails.
   */
  async admit(typed: string, ip: string, device: string | undefined): Promise<LoginAttempt> {
    const account = this.fingerprint(typed);
    // A device over its own limit is treated like any other browser (OWASP: its cookie goes on the lockout list).
    if (device !== undefined && (await this.devices.consume(device)) === 0) {
      return {
        trusted: true,
        // The account's failures stay: a trusted login must not hand a running flood a fresh set of tries.
        succeeded: () => this.devices.reset(device),
      };
    }
    const address = await this.addresses.claim(ip, account);
    if (address.wait > 0) throw tooManyRequests(address.wait, "Too many failed logins from this address; try again in {wait}");
    const accountWait = await this.accounts.failUnlessLocked(account);
    if (accountWait > 0) {
      // A refused attempt is no failure: the address gets back the account it has just counted.
      if (address.added) await this.addresses.remove(ip, account);
      throw tooManyRequests(accountWait, "Too many failed logins for this account; try again in {wait}");
    }
    return {
      trusted: false,
      succeeded: async () => {
        await this.addresses.remove(ip, account);
        await this.accounts.reset(account);
      },
    };
  }
}
