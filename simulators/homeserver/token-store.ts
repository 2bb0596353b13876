import { randomInt } from "node:crypto";
import { MatrixError } from "./errors.ts";

/** A registration token as every admin endpoint returns it; `expiry_time` is in milliseconds since the epoch. */
export interface TokenRecord {
  token: string;
  uses_allowed: number | null;
  pending: number;
  completed: number;
  expiry_time: number | null;
}

/** The characters Synapse allows in a token and draws generated ones from (`string.ascii_letters + digits + "._~-"`). */
export const TOKEN_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._~-";

/**
 * The `registration_tokens` table and the store methods over it, as in
 * `synapse/storage/databases/main/registration.py`. Rows keep insertion order, like SQLite's `SELECT *`.
 */
export class TokenStore {
  private readonly rows = new Map<string, TokenRecord>();

  constructor(private readonly now: () => number) {}

  all(): TokenRecord[] {
    return [...this.rows.values()].map((row) => ({ ...row }));
  }

  get(token: string): TokenRecord | undefined {
    const row = this.rows.get(token);
    return row && { ...row };
  }

  /**
   * `get_registration_tokens(valid)`: the listing uses SQL comparisons, where NULL never compares, so
   * `valid=true` is `(uses_allowed > pending+completed OR uses_allowed IS NULL) AND (expiry_time > now OR expiry_time
   * IS NULL)` and `valid=false` is `uses_allowed <= pending+completed OR expiry_time <= now`. A token with
   * `uses_allowed: 0` is therefore listed as invalid although `isValid` accepts it.
   */
  list(valid?: boolean): TokenRecord[] {
    const now = this.now();
    return this.all().filter((t) => {
      if (valid === undefined) return true;
      const used = t.pending + t.completed;
      if (valid) return (t.uses_allowed === null || t.uses_allowed > used) && (t.expiry_time === null || t.expiry_time > now);
      return (t.uses_allowed !== null && t.uses_allowed <= used) || (t.expiry_time !== null && t.expiry_time <= now);
    });
  }

  /** `create_registration_token`: false when the token already exists. */
  create(token: string, usesAllowed: number | null, expiryTime: number | null, pending = 0, completed = 0): boolean {
    if (this.rows.has(token)) return false;
    this.rows.set(token, { token, uses_allowed: usesAllowed, pending, completed, expiry_time: expiryTime });
    return true;
  }

  /** `generate_registration_token`: three random draws, then 500 `M_UNKNOWN` if every one already exists. */
  generate(length: number): string {
    for (let attempt = 0; attempt < 3; attempt++) {
      let token = "";
      for (let i = 0; i < length; i++) token += TOKEN_ALPHABET[randomInt(TOKEN_ALPHABET.length)];
      if (!this.rows.has(token)) return token;
    }
    throw new MatrixError(500, "Unable to generate a unique registration token. Try again with a greater length");
  }

  /** `update_registration_token`: undefined when the token does not exist. */
  update(token: string, attributes: Partial<Pick<TokenRecord, "uses_allowed" | "expiry_time">>): TokenRecord | undefined {
    const row = this.rows.get(token);
    if (!row) return undefined;
    Object.assign(row, attributes);
    return { ...row };
  }

  delete(token: string): boolean {
    return this.rows.delete(token);
  }

  /**
   * `registration_token_is_valid`, the check used by the UIA stage and by `/validity`. Python truthiness decides:
   * an expiry of 0 never expires, `expiry_time == now` is still valid, and **`uses_allowed: 0` means unlimited**
   * (the `uses_allowed and pending + completed >= uses_allowed` test is skipped for 0). Pending uses count.
   */
  isValid(token: string): boolean {
    const row = this.rows.get(token);
    if (!row) return false;
    if (row.expiry_time && row.expiry_time < this.now()) return false;
    if (row.uses_allowed && row.pending + row.completed >= row.uses_allowed) return false;
    return true;
  }

  /** `set_registration_token_pending`: one more registration in progress with this token. */
  markPending(token: string): void {
    const row = this.rows.get(token);
    if (row) row.pending += 1;
  }

  /**
   * `use_registration_token`: pending → completed. It reads the row without `allow_none`, so a token deleted during
   * the session raises `StoreError(404, "No row found (registration_tokens)")` (after the account was created; the table
   * name is in the message, as Synapse 1.163 answered in the interop run).
   */
  use(token: string): void {
    const row = this.rows.get(token);
    if (!row) throw new MatrixError(404, "No row found (registration_tokens)");
    row.pending -= 1;
    row.completed += 1;
  }

  /** The session sweep's decrement (`_delete_old_ui_auth_sessions_txn`); a deleted token is skipped. */
  releasePending(token: string, count: number): void {
    const row = this.rows.get(token);
    if (row) row.pending -= count;
  }
}
