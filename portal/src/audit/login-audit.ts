import type { AuditService } from "./audit.service.ts";

/** Why a login failed, as the audit entry's `detail.reason`. */
export type LoginFailure = "wrong_password" | "unknown_account" | "rate_limited";

/** The budget of individual failed-login entries (docs/portal.md, "Logins in the audit log"). */
export const LOGIN_AUDIT_BUDGET = {
  /** Individual `auth.login.failed` entries per window, all clients together. */
  entries: 30,
  windowMs: 15 * 60_000,
  /** Distinct accounts and addresses a summary counts exactly; beyond, it says "at least". */
  maxDistinct: 1_000,
};

/** The actor of a failed login: nobody is signed in, and the account named is not who typed the password. */
export const ANONYMOUS = "anonymous";
/** The target of a failed login on an e-mail no administrator has (the text typed is not kept: see below). */
export const UNKNOWN_ACCOUNT = "(unknown account)";

interface Suppressed {
  attempts: number;
  limited: number;
  accounts: Set<string>;
  addresses: Set<string>;
  from: string;
  to: string;
}

/**
 * Writes admin logins into the audit log: every success (`auth.login`, bounded by people who know a password), and
 * failed attempts (`auth.login.failed`) within a budget, so that a flood of wrong passwords cannot grow the log
 * without bound (the log is never pruned) or cost a write per request: the first 30 failures of each 15-minute
 * window get an entry each (client address, account, reason); further ones are only counted, and one
 * `auth.login.failed.summary` entry per window says how many attempts, on how many accounts, from how many
 * addresses, between when and when. At most 31 failure entries per 15 minutes, however large the flood.
 *
 * Never recorded: the password, and the e-mail typed for an account that does not exist (it may be a password typed
 * into the wrong field, and it is text anyone can make the portal store).
 */
export class LoginAudit {
  private windowStart = Number.NEGATIVE_INFINITY;
  private written = 0;
  private suppressed: Suppressed | undefined;
  private timer: NodeJS.Timeout | undefined;
  private pending: Promise<void> = Promise.resolve();

  constructor(
    private readonly audit: AuditService,
    private readonly now: () => number,
    private readonly budget: typeof LOGIN_AUDIT_BUDGET = LOGIN_AUDIT_BUDGET,
  ) {}

  async succeeded(email: string, ip: string): Promise<void> {
    await this.audit.record({ email, ip }, { action: "auth.login", serverId: null, target: email });
  }

  /**
   * A failed attempt from `ip` with the (normalised) e-mail `typed`. `account` gives the administrator's e-mail when
   * one has it, else undefined; it is only asked when the attempt gets an entry of its own (a rate-limited attempt has
   * not looked the account up, and a flood should not make it).
   */
  async failed(attempt: {
    ip: string;
    reason: LoginFailure;
    typed: string;
    account: () => Promise<string | undefined>;
  }): Promise<void> {
    const { ip, reason } = attempt;
    const now = this.now();
    if (now - this.windowStart >= this.budget.windowMs) {
      await this.flush();
      this.windowStart = now;
      this.written = 0;
    }
    if (this.written < this.budget.entries) {
      this.written += 1;
      const email = await attempt.account();
      await this.audit.record(
        { email: ANONYMOUS, ip },
        { action: "auth.login.failed", serverId: null, target: email ?? UNKNOWN_ACCOUNT, detail: { reason } },
      );
      return;
    }
    const at = new Date(now).toISOString();
    this.suppressed ??= { attempts: 0, limited: 0, accounts: new Set(), addresses: new Set(), from: at, to: at };
    const s = this.suppressed;
    s.attempts += 1;
    if (reason === "rate_limited") s.limited += 1;
    s.to = at;
    // Keyed by what was typed, but only counted, never stored.
    if (s.accounts.size < this.budget.maxDistinct) s.accounts.add(attempt.typed);
    if (s.addresses.size < this.budget.maxDistinct) s.addresses.add(ip);
    // The summary is written when the window ends even if no login comes after it.
    this.timer ??= setTimeout(() => void this.flush(), this.windowStart + this.budget.windowMs - now).unref();
  }

  /** Writes the summary of the attempts counted beyond the budget, if any (at the end of a window, and at shutdown). */
  flush(): Promise<void> {
    this.pending = this.pending.then(async () => {
      clearTimeout(this.timer);
      this.timer = undefined;
      const s = this.suppressed;
      this.suppressed = undefined;
      if (!s) return;
      const capped = (set: Set<string>) => (set.size >= this.budget.maxDistinct ? `${set.size}+` : set.size);
      await this.audit.record(
        { email: ANONYMOUS, ip: s.addresses.size === 1 ? ([...s.addresses][0] as string) : "(many)" },
        {
          action: "auth.login.failed.summary",
          serverId: null,
          target: "(many accounts)",
          detail: {
            attempts: s.attempts,
            rateLimited: s.limited,
            accounts: capped(s.accounts),
            addresses: capped(s.addresses),
            from: s.from,
            to: s.to,
            reason: `more than ${this.budget.entries} failed logins in ${this.budget.windowMs / 60_000} minutes: counted, not written one by one`,
          },
        },
      );
    });
    return this.pending;
  }
}
