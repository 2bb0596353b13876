import {
  type ColumnDataType,
  type Expression,
  type Kysely,
  PostgresAdapter,
  type RawBuilder,
  type SelectQueryBuilder,
  sql,
  type Transaction,
} from "kysely";

/** The two databases the portal runs on: embedded SQLite (the default) and PostgreSQL (PORTAL_DATABASE_URL). */
export type DialectName = "sqlite" | "postgres";

/** Which database `db` talks to (migrations and the few dialect-specific statements branch on it). */
// biome-ignore lint/suspicious/noExplicitAny: works for the typed database and for migrations' untyped one
export function dialectOf(db: Kysely<any>): DialectName {
  return db.getExecutor().adapter instanceof PostgresAdapter ? "postgres" : "sqlite";
}

/**
 * The column type of a text column. On PostgreSQL every text column compares and sorts byte by byte (collation "C"),
 * as SQLite's BINARY collation does: the portal's ranges (`action >= 'token.' AND action < 'token/'`) and orderings
 * must not change with the database's locale. On SQLite it is the plain `text` the migrations always used.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations work on the schema as it was
export function textType(db: Kysely<any>): ColumnDataType | Expression<unknown> {
  return dialectOf(db) === "postgres" ? sql`text collate "C"` : "text";
}

/**
 * Adds, on PostgreSQL only, the `rowid` column SQLite gives every table: insertion order, which the repositories use
 * to break ties of `created_at` (`ORDER BY created_at, rowid`). An identity column, filled by the database; the
 * PostgreSQL connection hides it from result rows (postgres.ts), as SQLite hides its own from `SELECT *`.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations work on the schema as it was
export function withRowid<T extends { addColumn: any }>(db: Kysely<any>, table: T): T {
  if (dialectOf(db) !== "postgres") return table;
  // biome-ignore lint/suspicious/noExplicitAny: the builder's own type, passed through
  return table.addColumn("rowid", "integer", (col: any) => col.notNull().generatedByDefaultAsIdentity()) as T;
}

/**
 * An integer primary key the database numbers (audit entries, registrations, snapshots): SQLite's `INTEGER PRIMARY
 * KEY AUTOINCREMENT`, PostgreSQL's identity column (by default, so the copy tool can keep the numbers).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations work on the schema as it was
export function serialKey(db: Kysely<any>) {
  // biome-ignore lint/suspicious/noExplicitAny: Kysely's column definition builder
  return (col: any) =>
    dialectOf(db) === "postgres" ? col.primaryKey().generatedByDefaultAsIdentity() : col.primaryKey().autoIncrement();
}

/**
 * Row locks for a read-then-write inside a transaction. SQLite needs none: Kysely runs a transaction on SQLite's one
 * connection, so nothing else of the portal reads or writes until it ends. On PostgreSQL several connections (and
 * several portals) run at once: `FOR UPDATE` makes a second writer of the same rows wait for the first to commit.
 */
// biome-ignore lint/suspicious/noExplicitAny: any select query of any database
export function forUpdate<Q extends SelectQueryBuilder<any, any, any>>(db: Kysely<any>, query: Q): Q {
  return dialectOf(db) === "postgres" ? (query.forUpdate() as Q) : query;
}

/**
 * Runs `work` in a transaction that holds the lock named `key` until it ends: writers that must see each other's
 * result (the one default server, the one active branding profile, one asset per purpose) run one after the other
 * across every portal instance. On PostgreSQL a transaction-scoped advisory lock (no table to create, released by
 * commit or rollback, even when a portal dies); on SQLite the transaction itself is that lock (see forUpdate).
 */
export function lockedTransaction<DB, T>(db: Kysely<DB>, key: string, work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    if (dialectOf(db) === "postgres") await advisoryLock(key).execute(trx);
    return work(trx);
  });
}

/**
 * `pg_advisory_xact_lock` on a 64-bit number derived from `key` and the schema (PostgreSQL only): portals sharing a
 * schema share the lock; portals in other schemas of the same database (the tests') do not wait for each other.
 */
export function advisoryLock(key: string): RawBuilder<unknown> {
  return sql`SELECT pg_advisory_xact_lock(hashtextextended('matrix-portal:' || current_schema() || ':' || ${key}, 0))`;
}
