import { type Kysely, sql } from "kysely";
import type { Database } from "../db/schema.ts";

/** One counted action of a sliding-window limit. */
export interface Slot {
  slot: number;
  member: string;
  at: number;
}

/** A key's failures in a row and its lock, as stored. */
export interface Failures {
  failures: number;
  lastAt: number;
  lockedUntil: number;
}

/** How a failure locks a key: the lock of the n-th failure in a row (ms), for n = 1, 2, … up to where it stays. */
export interface LockSteps {
  /** `steps[n - 1]` is the lock of the n-th failure; every failure past the last step locks for `last`. */
  steps: readonly number[];
  last: number;
}

/** A millisecond time as a bigint parameter: PostgreSQL would otherwise type `$1 + <int>` as a 32-bit integer. */
const ms = (value: number) => sql<number>`CAST(${value} AS BIGINT)`;

/**
 * The rate limits' rows (`rate_limit_slots`, `rate_limit_failures`, migration 0012), shared by every portal instance on
 * the database. Each method that counts is one statement deciding on one row, so two instances racing for the last
 * slot, or for the failure that locks an account, are decided by the database: one gets it.
 */
export class RateLimitRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async slots(bucket: string, key: string): Promise<Slot[]> {
    const rows = await this.db
      .selectFrom("rate_limit_slots")
      .select(["slot", "member", "at"])
      .where("bucket", "=", bucket)
      .where("key", "=", key)
      .execute();
    return rows.map((row) => ({ slot: row.slot, member: row.member, at: Number(row.at) }));
  }

  /** Takes `slot` for `member` at `now` if it is free (absent, or last used at or before `freeBefore`). */
  async claim(bucket: string, key: string, slot: number, member: string, now: number, freeBefore: number): Promise<boolean> {
    const result = await this.db
      .insertInto("rate_limit_slots")
      .values({ bucket, key, slot, member, at: now })
      .onConflict((oc) =>
        oc
          .columns(["bucket", "key", "slot"])
          .doUpdateSet((eb) => ({ member: eb.ref("excluded.member"), at: eb.ref("excluded.at") }))
          .where("rate_limit_slots.at", "<=", freeBefore),
      )
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /** Counts `member` again at `now` where it holds a slot already; false when it holds none. */
  async renew(bucket: string, key: string, member: string, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable("rate_limit_slots")
      .set({ at: now })
      .where("bucket", "=", bucket)
      .where("key", "=", key)
      .where("member", "=", member)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Frees the slots of `key` (all, or only `member`'s). */
  async free(bucket: string, key: string, member?: string): Promise<void> {
    let query = this.db.deleteFrom("rate_limit_slots").where("bucket", "=", bucket).where("key", "=", key);
    if (member !== undefined) query = query.where("member", "=", member);
    await query.execute();
  }

  /** Removes the slots of `bucket` last used at or before `before` (they count for nothing any more). */
  async sweepSlots(bucket: string, before: number): Promise<void> {
    await this.db.deleteFrom("rate_limit_slots").where("bucket", "=", bucket).where("at", "<=", before).execute();
  }

  async failures(bucket: string, key: string): Promise<Failures | undefined> {
    const row = await this.db
      .selectFrom("rate_limit_failures")
      .select(["failures", "last_at", "locked_until"])
      .where("bucket", "=", bucket)
      .where("key", "=", key)
      .executeTakeFirst();
    return row && { failures: row.failures, lastAt: Number(row.last_at), lockedUntil: Number(row.locked_until) };
  }

  /**
   * Counts a failure of `key` at `now` and sets the lock it earns, in one statement, unless the key is locked at
   * `now`: then nothing is counted and the answer is undefined. Failures last counted at or before `forgetBefore`
   * are forgotten (the count starts at 1 again). Returns the failures in a row, this one included.
   */
  async failUnlessLocked(
    bucket: string,
    key: string,
    now: number,
    forgetBefore: number,
    locks: LockSteps,
  ): Promise<number | undefined> {
    const count = sql<number>`(CASE WHEN rate_limit_failures.last_at <= ${ms(forgetBefore)} THEN 1 ELSE rate_limit_failures.failures + 1 END)`;
    // The lock of the new count, from the rule's steps: literals, so that the statement is the same for every call.
    const lock = sql<number>`(CASE ${sql.join(
      locks.steps.map((step, i) => sql`WHEN ${count} = ${sql.lit(i + 1)} THEN ${sql.lit(step)}`),
      sql` `,
    )} ELSE ${sql.lit(locks.last)} END)`;
    const row = await this.db
      .insertInto("rate_limit_failures")
      .values({ bucket, key, failures: 1, last_at: now, locked_until: now + (locks.steps[0] ?? locks.last) })
      .onConflict((oc) =>
        oc
          .columns(["bucket", "key"])
          .doUpdateSet({ failures: count, last_at: ms(now), locked_until: sql<number>`${ms(now)} + ${lock}` })
          .where("rate_limit_failures.locked_until", "<=", ms(now)),
      )
      .returning("failures")
      .executeTakeFirst();
    return row?.failures;
  }

  async forget(bucket: string, key: string): Promise<void> {
    await this.db.deleteFrom("rate_limit_failures").where("bucket", "=", bucket).where("key", "=", key).execute();
  }

  /** Removes keys whose failures are forgotten and whose lock is over. */
  async sweepFailures(bucket: string, now: number, forgetBefore: number): Promise<void> {
    await this.db
      .deleteFrom("rate_limit_failures")
      .where("bucket", "=", bucket)
      .where("last_at", "<=", forgetBefore)
      .where("locked_until", "<=", now)
      .execute();
  }
}
