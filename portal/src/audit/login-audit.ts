import type { AuditService } from "./audit.service.ts";
import type { LoginAuditRepository } from "./login-audit.repository.ts";

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

/**
 * Writes admin logins into the audit log: every success (`auth.login`, bounded by people who know a password), and
 * failed attempts (`auth.login.failed`) within a budget, so that a flood of wrong passwords cannot grow the log
 * without bound (the log is never pruned) or cost a write per request: the first 30 failures of each 15-minute
 * window get an entry each (client address, account, reason); further ones are only counted, and one
 * `auth.login.failed.summary` entry per window says how many attempts, on how many accounts, from how many
 * addresses, between when and when. At most 31 failure entries per window, however large the flood.
 *
 * The budget and the counts are in the database (login-audit.repository.ts), shared by every portal instance: a flood
 * spread over several instances gets one budget and one summary. The summary of a window is written when it ends,
 * by the first instance to notice (a timer on each instance that counted into it, or the next failed login); a window
 * under way when every instance stopped is summarized at the next failed login after a start.
 *
 * Never recorded: the password, and the e-mail typed for an account that does not exist (it may be a password typed
 * into the wrong field, and it is text anyone can make the portal store). Distinct accounts and addresses are
 * counted by keyed fingerprints (`fingerprint`), which only the portal key could match to a text.
 */
export class LoginAudit {
  private timer: NodeJS.Timeout | undefined;
  private timerFor: number | undefined;

  constructor(
    private readonly audit: AuditService,
    private readonly repository: LoginAuditRepository,
    /** A keyed fingerprint (SecretBox.fingerprint): counts distinct texts without storing them. */
    private readonly fingerprint: (text: string) => string,
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
    for (let round = 0; round < 3; round++) {
      const now = this.now();
      const window = await this.repository.window(now, this.budget.windowMs);
      if (window.ended !== undefined) await this.flush();
      if (await this.repository.takeEntry(window.start, this.budget.entries)) {
        const email = await attempt.account();
        await this.audit.record(
          { email: ANONYMOUS, ip },
          { action: "auth.login.failed", serverId: null, target: email ?? UNKNOWN_ACCOUNT, detail: { reason } },
        );
        return;
      }
      const at = new Date(now).toISOString();
      // False when another instance summarized the window meanwhile: the attempt counts in the next one.
      if (!(await this.repository.countSuppressed(window.start, { limited: reason === "rate_limited", at, ip }))) continue;
      // Keyed by what was typed, but only counted, never stored.
      const max = this.budget.maxDistinct;
      await this.repository.see(window.start, "account", this.fingerprint(attempt.typed), max);
      await this.repository.see(window.start, "address", this.fingerprint(ip), max);
      // The summary is written when the window ends even if no login comes after it.
      this.summarizeAt(window.start);
      return;
    }
  }

  /**
   * Writes the summaries of ended windows that have counted attempts beyond the budget (at the end of a window, at
   * a roll-over, and at shutdown); each once, by whichever instance takes it first.
   */
  async flush(): Promise<void> {
    const now = this.now();
    if (this.timerFor !== undefined && now - this.timerFor >= this.budget.windowMs) {
      clearTimeout(this.timer);
      this.timer = undefined;
      this.timerFor = undefined;
    }
    for (const start of await this.repository.endedWindows(now - this.budget.windowMs)) await this.summarize(start);
  }

  /** Stops the timer (shutdown), after writing what has ended. */
  async stop(): Promise<void> {
    await this.flush();
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private summarizeAt(start: number): void {
    if (this.timerFor === start) return;
    clearTimeout(this.timer);
    this.timerFor = start;
    this.timer = setTimeout(() => void this.flush().catch(() => undefined), start + this.budget.windowMs - this.now()).unref();
  }

  private async summarize(start: number): Promise<void> {
    const s = await this.repository.takeForSummary(start);
    if (!s || s.attempts === 0) return;
    const capped = (count: number) => (count >= this.budget.maxDistinct ? `${count}+` : count);
    await this.audit.record(
      { email: ANONYMOUS, ip: s.single_ip === null || s.single_ip === "(many)" ? "(many)" : s.single_ip },
      {
        action: "auth.login.failed.summary",
        serverId: null,
        target: "(many accounts)",
        detail: {
          attempts: s.attempts,
          rateLimited: s.limited,
          accounts: capped(s.accounts),
          addresses: capped(s.addresses),
          from: s.first_at,
          to: s.last_at,
          reason: `more than ${this.budget.entries} failed logins in ${this.budget.windowMs / 60_000} minutes: counted, not written one by one`,
        },
      },
    );
  }
}
