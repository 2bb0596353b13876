import { type Kysely, type Selectable, sql } from "kysely";
import type { Database, LoginAuditWindowsTable } from "../db/schema.ts";

export type LoginAuditWindow = Selectable<LoginAuditWindowsTable>;

const CURRENT = "current";
const rowName = (start: number) => `window:${start}`;
const ms = (value: number) => sql<number>`CAST(${value} AS BIGINT)`;

/**
 * The failed-login audit budget shared by every portal instance (`login_audit_windows`, `login_audit_seen`, migration
 * 0012). Every change is one statement on one row, decided by the database: one instance rolls a window over, one
 * takes each of a window's entries, one writes its summary.
 */
export class LoginAuditRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * The start of the window under way at `now`, starting one when there is none or the last ended (`windowMs` after
   * its start). `ended` is the start of the window this call ended, whose summary is due.
   */
  async window(now: number, windowMs: number): Promise<{ start: number; ended?: number }> {
    for (let round = 0; round < 5; round++) {
      const current = await this.db
        .selectFrom("login_audit_windows")
        .select("started_at")
        .where("name", "=", CURRENT)
        .executeTakeFirst();
      const start = current === undefined ? undefined : Number(current.started_at);
      if (start !== undefined && now - start < windowMs) return { start };
      // The new window's row first, so that whoever reads `current` next finds it (a loser's row stays empty and is
      // cleared as an ended window without a summary).
      await this.insertRow(rowName(now), now);
      // Compare and swap: of the instances that saw the same ended window, one moves `current` on.
      const moved =
        start === undefined
          ? await this.insertRow(CURRENT, now)
          : Number(
              (
                await this.db
                  .updateTable("login_audit_windows")
                  .set({ started_at: now })
                  .where("name", "=", CURRENT)
                  .where("started_at", "=", start)
                  .executeTakeFirst()
              ).numUpdatedRows,
            ) > 0;
      if (moved) {
        return start === undefined ? { start: now } : { start: now, ended: start };
      }
    }
    throw new Error("the failed-login audit window keeps moving");
  }

  /** Takes one of the window's individual entries; false once `budget` are taken (or the window is summarized). */
  async takeEntry(start: number, budget: number): Promise<boolean> {
    const result = await this.db
      .updateTable("login_audit_windows")
      .set((eb) => ({ written: eb("written", "+", 1) }))
      .where("name", "=", rowName(start))
      .where("written", "<", budget)
      .where("summarized", "=", 0)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Counts an attempt beyond the budget; false when the window was summarized meanwhile (count it in the next). */
  async countSuppressed(start: number, attempt: { limited: boolean; at: string; ip: string }): Promise<boolean> {
    const result = await this.db
      .updateTable("login_audit_windows")
      .set((eb) => ({
        attempts: eb("attempts", "+", 1),
        limited: eb("limited", "+", attempt.limited ? 1 : 0),
        first_at: sql<string>`COALESCE(first_at, ${attempt.at})`,
        last_at: attempt.at,
        single_ip: sql<string>`CASE WHEN single_ip IS NULL OR single_ip = ${attempt.ip} THEN ${attempt.ip} ELSE '(many)' END`,
      }))
      .where("name", "=", rowName(start))
      .where("summarized", "=", 0)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Remembers a fingerprint seen in the window, unless `max` of its kind are counted already. */
  async see(start: number, kind: "account" | "address", fingerprint: string, max: number): Promise<void> {
    const column = kind === "account" ? "accounts" : "addresses";
    const row = await this.db
      .selectFrom("login_audit_windows")
      .select(column)
      .where("name", "=", rowName(start))
      .executeTakeFirst();
    if (!row || row[column] >= max) return;
    const inserted = await this.db
      .insertInto("login_audit_seen")
      .values({ window_start: start, kind, fingerprint })
      .onConflict((oc) => oc.columns(["window_start", "kind", "fingerprint"]).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return;
    await this.db
      .updateTable("login_audit_windows")
      .set((eb) => ({ [column]: eb(column, "+", 1) }))
      .where("name", "=", rowName(start))
      .execute();
  }

  /**
   * Takes an ended window for its summary: the instance that gets it (exactly one) receives its counts, and the
   * window's rows are gone. Undefined for anyone else, or when the window is unknown.
   */
  async takeForSummary(start: number): Promise<LoginAuditWindow | undefined> {
    const taken = await this.db
      .updateTable("login_audit_windows")
      .set({ summarized: 1 })
      .where("name", "=", rowName(start))
      .where("summarized", "=", 0)
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) === 0) return undefined;
    const row = await this.db.selectFrom("login_audit_windows").selectAll().where("name", "=", rowName(start)).executeTakeFirst();
    await this.db.deleteFrom("login_audit_seen").where("window_start", "=", ms(start)).execute();
    await this.db.deleteFrom("login_audit_windows").where("name", "=", rowName(start)).execute();
    return row;
  }

  /** Starts of windows that ended before `before` and still await their summary (their instance stopped). */
  async endedWindows(before: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom("login_audit_windows")
      .select("started_at")
      .where("name", "!=", CURRENT)
      .where("summarized", "=", 0)
      .where("started_at", "<=", before)
      .execute();
    return rows.map((row) => Number(row.started_at));
  }

  private async insertRow(name: string, start: number): Promise<boolean> {
    const result = await this.db
      .insertInto("login_audit_windows")
      .values({
        name,
        started_at: start,
        written: 0,
        attempts: 0,
        limited: 0,
        first_at: null,
        last_at: null,
        single_ip: null,
        accounts: 0,
        addresses: 0,
        summarized: 0,
      })
      .onConflict((oc) => oc.column("name").doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }
}
