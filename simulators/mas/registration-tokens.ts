import { randomInt } from "node:crypto";
import type { UlidFactory } from "./ulid.ts";

/** One row of MAS's `user_registration_tokens` table (times in ms since the epoch). */
export interface RegistrationTokenRow {
  id: string;
  token: string;
  usageLimit: number | null;
  timesUsed: number;
  createdAt: number;
  lastUsedAt: number | null;
  expiresAt: number | null;
  revokedAt: number | null;
}

/** `filter[used|revoked|expired|valid]` of the list endpoint. */
export interface TokenFilter {
  used?: boolean;
  revoked?: boolean;
  expired?: boolean;
  valid?: boolean;
}

/** A page request (mas_storage `Pagination`): `first` pages forward, `last` backward, both bounded by cursors. */
export interface PageRequest {
  direction: "forward" | "backward";
  count: number;
  after?: string;
  before?: string;
}

export interface Page {
  rows: RegistrationTokenRow[];
  hasNextPage: boolean;
  hasPreviousPage: boolean;
}

const ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/**
 * `UserRegistrationToken::is_valid` (crates/data-model): not revoked, not past `expires_at` (`now < expires_at`),
 * and fewer uses than the limit. A limit of 0 is accepted by the API and makes a token that is never valid.
 */
export function isValid(row: RegistrationTokenRow, now: number): boolean {
  if (row.revokedAt !== null) return false;
  if (row.expiresAt !== null && now >= row.expiresAt) return false;
  if (row.usageLimit !== null && row.timesUsed >= row.usageLimit) return false;
  return true;
}

/** The SQL of `UserRegistrationTokenFilter` (crates/storage-pg/src/user/registration_token.rs). */
function matches(row: RegistrationTokenRow, filter: TokenFilter, now: number): boolean {
  if (filter.used !== undefined && row.timesUsed > 0 !== filter.used) return false;
  if (filter.revoked !== undefined && (row.revokedAt !== null) !== filter.revoked) return false;
  // `expires_at < now`: a token expiring exactly now is neither expired nor valid.
  if (filter.expired !== undefined && (row.expiresAt !== null && row.expiresAt < now) !== filter.expired) return false;
  if (filter.valid !== undefined && isValid(row, now) !== filter.valid) return false;
  return true;
}

/** The registration tokens of one simulated MAS, ordered by id (ULIDs: creation order). */
export class RegistrationTokens {
  private readonly rows = new Map<string, RegistrationTokenRow>();

  constructor(
    private readonly ids: UlidFactory,
    private readonly now: () => number,
  ) {}

  /** A new row; undefined when the token string is taken (the table's UNIQUE constraint, 409 in the API). */
  add(
    token: string | undefined,
    fields: { usageLimit?: number | null; expiresAt?: number | null; timesUsed?: number; revokedAt?: number | null } = {},
  ): RegistrationTokenRow | undefined {
    // `Alphanumeric.sample_string(rng, 12)` in add.rs.
    const value = token ?? Array.from({ length: 12 }, () => ALPHANUMERIC[randomInt(ALPHANUMERIC.length)]).join("");
    if (this.findByToken(value)) return undefined;
    const row: RegistrationTokenRow = {
      id: this.ids.next(),
      token: value,
      usageLimit: fields.usageLimit ?? null,
      timesUsed: fields.timesUsed ?? 0,
      createdAt: this.now(),
      lastUsedAt: null,
      expiresAt: fields.expiresAt ?? null,
      revokedAt: fields.revokedAt ?? null,
    };
    this.rows.set(row.id, row);
    return row;
  }

  lookup(id: string): RegistrationTokenRow | undefined {
    return this.rows.get(id);
  }

  findByToken(token: string): RegistrationTokenRow | undefined {
    return [...this.rows.values()].find((row) => row.token === token);
  }

  /** Every row in id order (copies). */
  all(): RegistrationTokenRow[] {
    return this.sorted().map((row) => ({ ...row }));
  }

  count(filter: TokenFilter): number {
    const now = this.now();
    return this.sorted().filter((row) => matches(row, filter, now)).length;
  }

  /** mas_storage's keyset pagination: fetch `count + 1` rows past the cursor to learn whether more exist. */
  list(filter: TokenFilter, page: PageRequest): Page {
    const now = this.now();
    const candidates = this.sorted().filter(
      (row) =>
        matches(row, filter, now) &&
        (page.after === undefined || row.id > page.after) &&
        (page.before === undefined || row.id < page.before),
    );
    if (page.direction === "forward") {
      const rows = candidates.slice(0, page.count);
      return { rows, hasNextPage: candidates.length > page.count, hasPreviousPage: false };
    }
    const rows = candidates.slice(Math.max(0, candidates.length - page.count));
    return { rows, hasNextPage: false, hasPreviousPage: candidates.length > page.count };
  }

  /** A sign-up finished with this token (`use_token`): one more use, `last_used_at` now. */
  use(row: RegistrationTokenRow): void {
    row.timesUsed += 1;
    row.lastUsedAt = this.now();
  }

  private sorted(): RegistrationTokenRow[] {
    return [...this.rows.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }
}
