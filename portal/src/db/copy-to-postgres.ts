import { existsSync } from "node:fs";
import BetterSqlite3 from "better-sqlite3";
import { Kysely, SqliteDialect, sql, type Transaction } from "kysely";
import { applyMigrations, pendingMigrations } from "./migrate.ts";
import { MIGRATIONS } from "./migrations/index.ts";
import type { Database } from "./schema.ts";

/** Tables the copy does not carry: the migrations' own record (the target's migrations write it) and derived rows. */
const NOT_COPIED = new Set(["portal_migrations", "audit_log_counts"]);

/** Rows per INSERT: PostgreSQL takes at most 65535 parameters in one statement. */
const MAX_PARAMETERS = 30_000;

export interface CopyReport {
  /** Rows copied, by table, in copy order (parents before the tables that point at them). */
  readonly tables: { readonly name: string; readonly rows: number }[];
}

/** A refusal the user can act on (printed as one line by the command). */
export class CopyRefused extends Error {
  override name = "CopyRefused";
}

/**
 * Copies an SQLite portal database into PostgreSQL in one transaction: the target's schema is migrated, must hold no
 * rows, gets every row (sealed secrets as they are: ciphertext, readable only with the same secret key), and each
 * table's row count is compared before the commit; any difference rolls everything back. Identity columns continue
 * after the copied ids. The SQLite file is only read, in one snapshot (stop the portal first all the same: what it
 * writes after the snapshot would be missing from the copy).
 */
export async function copyToPostgres(sqlitePath: string, target: Kysely<Database>): Promise<CopyReport> {
  if (!existsSync(sqlitePath)) throw new CopyRefused(`no portal database at ${sqlitePath}`);
  const source = new BetterSqlite3(sqlitePath, { readonly: true, fileMustExist: true });
  try {
    const pending = await pendingOf(source);
    if (pending.length > 0) {
      throw new CopyRefused(
        `the SQLite database is not fully migrated (pending: ${pending.join(", ")}): start this version of the portal on it once, or run npm run portal:migrate with its PORTAL_DATA_DIR`,
      );
    }
    const tables = copyOrder(source);
    // One read snapshot of the source for the whole copy (each statement would otherwise see later writes).
    source.exec("BEGIN");
    return await target.transaction().execute(async (trx) => {
      await applyMigrations(trx, MIGRATIONS);
      await refuseRows(trx, tables);
      const report: CopyReport["tables"] = [];
      for (const table of tables) {
        const copied = await copyTable(source, trx, table);
        const counted = await countRows(trx, table);
        if (counted !== copied) throw new Error(`${table}: ${copied} rows read, ${counted} in PostgreSQL; nothing was copied`);
        report.push({ name: table, rows: copied });
      }
      await checkAuditCounts(source, trx);
      return { tables: report };
    });
  } finally {
    source.close();
  }
}

/** Pending migrations of the SQLite file, read through a Kysely over the read-only connection. */
function pendingOf(source: BetterSqlite3.Database): Promise<string[]> {
  // Not destroyed afterwards: that would close `source`, which the copy still reads.
  return pendingMigrations(new Kysely<Database>({ dialect: new SqliteDialect({ database: source }) }), MIGRATIONS);
}

/** The SQLite tables to copy, each after the tables its foreign keys point at. */
function copyOrder(source: BetterSqlite3.Database): string[] {
  const names = (
    source.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as {
      name: string;
    }[]
  )
    .map((row) => row.name)
    .filter((name) => !NOT_COPIED.has(name));
  const parents = new Map(
    names.map((name) => [
      name,
      (source.prepare('SELECT DISTINCT "table" AS parent FROM pragma_foreign_key_list(?)').all(name) as { parent: string }[])
        .map((row) => row.parent)
        .filter((parent) => parent !== name),
    ]),
  );
  const ordered: string[] = [];
  const visit = (name: string, path: string[]) => {
    if (ordered.includes(name)) return;
    if (path.includes(name)) throw new Error(`foreign keys loop through ${[...path, name].join(" → ")}`);
    for (const parent of parents.get(name) ?? []) visit(parent, [...path, name]);
    ordered.push(name);
  };
  for (const name of names) visit(name, []);
  return ordered;
}

/** Refuses a target that holds any row (of the tables copied): the copy never merges into a live portal. */
async function refuseRows(trx: Transaction<Database>, tables: string[]): Promise<void> {
  const filled = [];
  for (const table of tables) if ((await countRows(trx, table)) > 0) filled.push(table);
  if (filled.length > 0) {
    throw new CopyRefused(`the PostgreSQL database is not empty (rows in ${filled.join(", ")}): copy into an empty database`);
  }
}

/** Copies one table in insertion (rowid) order, so that PostgreSQL's rowid keeps the order; returns the rows read. */
async function copyTable(source: BetterSqlite3.Database, trx: Transaction<Database>, table: string): Promise<number> {
  const withoutRowid = /WITHOUT ROWID/i.test(
    (source.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) as { sql: string }).sql,
  );
  const select = source.prepare(`SELECT * FROM "${table}"${withoutRowid ? "" : " ORDER BY rowid"}`);
  const columns = select.columns().length;
  const batch = Math.max(1, Math.floor(MAX_PARAMETERS / columns));
  let rows: Record<string, unknown>[] = [];
  let copied = 0;
  const flush = async () => {
    // Any table, whatever its columns: the typed schema does not name them all (later migrations' tables too).
    const untyped = trx as unknown as Transaction<Record<string, Record<string, unknown>>>;
    if (rows.length > 0) await untyped.insertInto(table).values(rows).execute();
    copied += rows.length;
    rows = [];
  };
  for (const row of select.iterate() as IterableIterator<Record<string, unknown>>) {
    rows.push(row);
    if (rows.length >= batch) await flush();
  }
  await flush();
  await continueIdentity(source, trx, table);
  return copied;
}

/** Moves the sequence of an identity `id` column past the copied ids (and past SQLite's AUTOINCREMENT high mark). */
async function continueIdentity(source: BetterSqlite3.Database, trx: Transaction<Database>, table: string): Promise<void> {
  const sequence = (
    await sql<{ name: string | null }>`SELECT pg_get_serial_sequence(${table}, 'id') AS name FROM information_schema.columns
      WHERE table_schema = current_schema() AND table_name = ${table} AND column_name = 'id' AND is_identity = 'YES'`.execute(trx)
  ).rows[0]?.name;
  if (!sequence) return;
  const seen = source.prepare("SELECT name FROM sqlite_master WHERE name = 'sqlite_sequence'").get()
    ? ((source.prepare("SELECT seq FROM sqlite_sequence WHERE name = ?").get(table) as { seq: number } | undefined)?.seq ?? 0)
    : 0;
  await sql`SELECT setval(${sequence}::regclass, greatest(${seen}::bigint, (SELECT coalesce(max(id), 0) FROM ${sql.table(table)}), 1),
    greatest(${seen}::bigint, (SELECT coalesce(max(id), 0) FROM ${sql.table(table)})) > 0)`.execute(trx);
}

async function countRows(trx: Transaction<Database>, table: string): Promise<number> {
  const row = (await sql<{ n: number }>`SELECT count(*) AS n FROM ${sql.table(table)}`.execute(trx)).rows[0];
  return Number(row?.n ?? 0);
}

/** The audit counters, kept by the target's triggers while the log was copied, must equal the source's. */
async function checkAuditCounts(source: BetterSqlite3.Database, trx: Transaction<Database>): Promise<void> {
  const query = "SELECT scope, server_id, entries FROM audit_log_counts WHERE entries <> 0 ORDER BY scope, server_id";
  const expected = JSON.stringify(source.prepare(query).all());
  const actual = JSON.stringify((await sql.raw(query).execute(trx)).rows);
  if (actual !== expected) throw new Error("the audit counters differ after the copy; nothing was copied");
}
