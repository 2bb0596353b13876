import { type Kysely, sql } from "kysely";
import { dialectOf } from "../dialect.ts";
import type { Migration } from "../migrate.ts";

/**
 * Audit log totals without counting, and indexes for the actor and action filters.
 *
 * `audit_log_counts` holds one row with scope `all` (server_id '') for the whole log and one row with scope `server`
 * per server id: the `total` of an unfiltered or server-only page is read from here instead of a `count(*)` that
 * walks a million index entries. Triggers keep the rows exact inside the writing transaction; the log is
 * append-only, but deletions and server_id changes made by hand (the sqlite3 shell) are counted too, so the
 * numbers never drift. Existing entries are counted once here.
 *
 * `(actor, id)` and `(action, id)` let a filtered page walk one index range newest first instead of the whole table.
 * PostgreSQL gets the same table, counts and trigger names, the triggers calling one PL/pgSQL function.
 */
export const auditCounts: Migration = {
  name: "0009-audit-counts",
  // biome-ignore lint/suspicious/noExplicitAny: migrations work on the schema as it was
  async up(db: Kysely<any>) {
    if (dialectOf(db) === "postgres") await countsOnPostgres(db);
    else await countsOnSqlite(db);
    await db.schema.createIndex("audit_log_actor").on("audit_log").columns(["actor", "id"]).execute();
    await db.schema.createIndex("audit_log_action").on("audit_log").columns(["action", "id"]).execute();
  },
};

// biome-ignore lint/suspicious/noExplicitAny: migrations work on the schema as it was
async function countsOnSqlite(db: Kysely<any>): Promise<void> {
  await sql`CREATE TABLE audit_log_counts (
      scope TEXT NOT NULL CHECK (scope IN ('all', 'server')),
      server_id TEXT NOT NULL,
      entries INTEGER NOT NULL,
      PRIMARY KEY (scope, server_id)
    ) WITHOUT ROWID`.execute(db);
  await sql`INSERT INTO audit_log_counts (scope, server_id, entries)
      SELECT 'all', '', count(*) FROM audit_log`.execute(db);
  await sql`INSERT INTO audit_log_counts (scope, server_id, entries)
      SELECT 'server', server_id, count(*) FROM audit_log WHERE server_id IS NOT NULL GROUP BY server_id`.execute(db);

  // One statement per counter row touched; `WHERE … IS NOT NULL` also keeps the upsert's SELECT unambiguous
  // (SQLite's rule for INSERT … SELECT … ON CONFLICT).
  const server = (row: "NEW" | "OLD", by: "+" | "-") =>
    `INSERT INTO audit_log_counts (scope, server_id, entries) SELECT 'server', ${row}.server_id, ${by}1
        WHERE ${row}.server_id IS NOT NULL ON CONFLICT (scope, server_id) DO UPDATE SET entries = entries ${by} 1;`;
  const add = (row: "NEW" | "OLD", by: "+" | "-") =>
    sql.raw(`UPDATE audit_log_counts SET entries = entries ${by} 1 WHERE scope = 'all'; ${server(row, by)}`);
  await sql`CREATE TRIGGER audit_log_counts_insert AFTER INSERT ON audit_log BEGIN ${add("NEW", "+")} END`.execute(db);
  await sql`CREATE TRIGGER audit_log_counts_delete AFTER DELETE ON audit_log BEGIN ${add("OLD", "-")} END`.execute(db);
  await sql`CREATE TRIGGER audit_log_counts_move AFTER UPDATE OF server_id ON audit_log
      WHEN OLD.server_id IS NOT NEW.server_id BEGIN ${sql.raw(server("OLD", "-") + server("NEW", "+"))} END`.execute(db);
}

/**
 * The same on PostgreSQL. The `all` row is updated by every audit entry and so locked by it until its transaction
 * ends: entries are single statements (or end short transactions), so writers wait microseconds, never deadlock.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations work on the schema as it was
async function countsOnPostgres(db: Kysely<any>): Promise<void> {
  await sql`CREATE TABLE audit_log_counts (
    scope TEXT COLLATE "C" NOT NULL CHECK (scope IN ('all', 'server')),
    server_id TEXT COLLATE "C" NOT NULL,
    entries INTEGER NOT NULL,
    PRIMARY KEY (scope, server_id)
  )`.execute(db);
  await sql`INSERT INTO audit_log_counts (scope, server_id, entries) SELECT 'all', '', count(*) FROM audit_log`.execute(db);
  await sql`INSERT INTO audit_log_counts (scope, server_id, entries)
    SELECT 'server', server_id, count(*) FROM audit_log WHERE server_id IS NOT NULL GROUP BY server_id`.execute(db);
  const server = (row: "NEW" | "OLD", by: "+" | "-") =>
    `IF ${row}.server_id IS NOT NULL THEN
       INSERT INTO audit_log_counts (scope, server_id, entries) VALUES ('server', ${row}.server_id, ${by}1)
         ON CONFLICT (scope, server_id) DO UPDATE SET entries = audit_log_counts.entries ${by} 1;
     END IF;`;
  await sql`CREATE FUNCTION audit_log_counts_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        UPDATE audit_log_counts SET entries = entries + 1 WHERE scope = 'all';
        ${sql.raw(server("NEW", "+"))}
      ELSIF TG_OP = 'DELETE' THEN
        UPDATE audit_log_counts SET entries = entries - 1 WHERE scope = 'all';
        ${sql.raw(server("OLD", "-"))}
      ELSE
        ${sql.raw(server("OLD", "-"))}
        ${sql.raw(server("NEW", "+"))}
      END IF;
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER audit_log_counts_insert AFTER INSERT ON audit_log
    FOR EACH ROW EXECUTE FUNCTION audit_log_counts_change()`.execute(db);
  await sql`CREATE TRIGGER audit_log_counts_delete AFTER DELETE ON audit_log
    FOR EACH ROW EXECUTE FUNCTION audit_log_counts_change()`.execute(db);
  await sql`CREATE TRIGGER audit_log_counts_move AFTER UPDATE OF server_id ON audit_log
    FOR EACH ROW WHEN (OLD.server_id IS DISTINCT FROM NEW.server_id) EXECUTE FUNCTION audit_log_counts_change()`.execute(db);
}
