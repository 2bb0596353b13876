import type { Kysely } from "kysely";
import { textType, withRowid } from "../dialect.ts";
import type { Migration } from "../migrate.ts";

/**
 * State that held in one process's memory and must hold across several portal instances on one database (issue 24,
 * docs/scale-out.md). Schema builder and portable types only (text, integer, bigint; flags as 0/1 integers), so the
 * same step runs on SQLite and PostgreSQL. Times are milliseconds since the epoch (the portal's clock), as the
 * in-memory code counted them.
 *
 * - `shared_generations`: a counter per cached thing (`auth`, `servers`, `tokens:<server id>`), moved in the same
 *   transaction as every write to it, so an instance that keeps rows in memory sees another instance's writes.
 * - `leases`: named, expiring claims (one sign-up per registration token at a time, across instances).
 * - `rate_limit_slots`: the sliding-window limits, `limit` slots per key, each slot one counted action (`member`:
 *   the account for the per-address limit of failed logins, '' otherwise).
 * - `rate_limit_failures`: consecutive failures per key with the lock they earned (failed logins per account).
 * - `login_audit_windows` and `login_audit_seen`: the shared budget of failed-login audit entries per window (the row
 *   `current` names the window under way), and the distinct accounts and addresses of its summary, as keyed
 *   fingerprints (never the text typed).
 */
export const sharedState: Migration = {
  name: "0012-shared-state",
  // biome-ignore lint/suspicious/noExplicitAny: migrations work on the schema as it was
  async up(db: Kysely<any>) {
    // Text compares byte by byte on both databases; PostgreSQL gets SQLite's `rowid` too (dialect.ts).
    const text = textType(db);
    await withRowid(db, db.schema.createTable("shared_generations"))
      .addColumn("name", text, (col) => col.primaryKey())
      .addColumn("value", "bigint", (col) => col.notNull())
      .execute();
    await withRowid(db, db.schema.createTable("leases"))
      .addColumn("name", text, (col) => col.primaryKey())
      .addColumn("holder", text, (col) => col.notNull())
      .addColumn("expires_at", "bigint", (col) => col.notNull())
      .execute();
    await withRowid(db, db.schema.createTable("rate_limit_slots"))
      .addColumn("bucket", text, (col) => col.notNull())
      .addColumn("key", text, (col) => col.notNull())
      .addColumn("slot", "integer", (col) => col.notNull())
      .addColumn("member", text, (col) => col.notNull())
      .addColumn("at", "bigint", (col) => col.notNull())
      .addPrimaryKeyConstraint("rate_limit_slots_pk", ["bucket", "key", "slot"])
      .execute();
    await db.schema.createIndex("rate_limit_slots_age").on("rate_limit_slots").columns(["bucket", "at"]).execute();
    await withRowid(db, db.schema.createTable("rate_limit_failures"))
      .addColumn("bucket", text, (col) => col.notNull())
      .addColumn("key", text, (col) => col.notNull())
      .addColumn("failures", "integer", (col) => col.notNull())
      .addColumn("last_at", "bigint", (col) => col.notNull())
      .addColumn("locked_until", "bigint", (col) => col.notNull())
      .addPrimaryKeyConstraint("rate_limit_failures_pk", ["bucket", "key"])
      .execute();
    await db.schema.createIndex("rate_limit_failures_age").on("rate_limit_failures").columns(["bucket", "last_at"]).execute();
    await withRowid(db, db.schema.createTable("login_audit_windows"))
      .addColumn("name", text, (col) => col.primaryKey())
      .addColumn("started_at", "bigint", (col) => col.notNull())
      .addColumn("written", "integer", (col) => col.notNull())
      .addColumn("attempts", "integer", (col) => col.notNull())
      .addColumn("limited", "integer", (col) => col.notNull())
      .addColumn("first_at", text)
      .addColumn("last_at", text)
      .addColumn("single_ip", text)
      .addColumn("accounts", "integer", (col) => col.notNull())
      .addColumn("addresses", "integer", (col) => col.notNull())
      .addColumn("summarized", "integer", (col) => col.notNull())
      .execute();
    await withRowid(db, db.schema.createTable("login_audit_seen"))
      .addColumn("window_start", "bigint", (col) => col.notNull())
      .addColumn("kind", text, (col) => col.notNull())
      .addColumn("fingerprint", text, (col) => col.notNull())
      .addPrimaryKeyConstraint("login_audit_seen_pk", ["window_start", "kind", "fingerprint"])
      .execute();
  },
};
