import { type Kysely, sql } from "kysely";
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
 */
export const auditCounts: Migration = {
  name: "0009-audit-counts",
  // biome-ignore lint/suspicious/noExplicitAny: migrations work on the schema as it was
  async up(db: Kysely<any>) {
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

    await db.schema.createIndex("audit_log_actor").on("audit_log").columns(["actor", "id"]).execute();
    await db.schema.createIndex("audit_log_action").on("audit_log").columns(["action", "id"]).execute();
  },
};
