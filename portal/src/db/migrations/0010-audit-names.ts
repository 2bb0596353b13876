import { type Kysely, sql } from "kysely";
import type { Migration } from "../migrate.ts";

/**
 * The last known name of each audited subject (issue 21: audit rows show names, not ids). Filled here from what the
 * database already knows: the names written into older entries' details (`server.created`/`server.deleted`,
 * `branding.created`: the only way to name what was deleted before this table existed), then the live rows, which
 * are newer and win.
 */
export const auditNames: Migration = {
  name: "0010-audit-names",
  // biome-ignore lint/suspicious/noExplicitAny: migrations work on the schema as it was
  async up(db: Kysely<any>) {
    await sql`CREATE TABLE audit_names (
      subject TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      updated_at TEXT NOT NULL
    ) WITHOUT ROWID`.execute(db);
    const remember = (select: string) =>
      sql.raw(`INSERT OR REPLACE INTO audit_names (subject, name, updated_at) ${select}`).execute(db);
    await remember(`SELECT kind || ':' || target, name, created_at FROM (
        SELECT CASE WHEN action LIKE 'server.%' THEN 'server' ELSE 'branding' END AS kind, target,
          json_extract(detail, '$.name') AS name, created_at, id
        FROM audit_log
        WHERE action IN ('server.created', 'server.deleted', 'branding.created') AND json_valid(detail)
          AND typeof(json_extract(detail, '$.name')) = 'text'
        ORDER BY id)`);
    const now = new Date().toISOString();
    await remember(`SELECT 'server:' || id, name, '${now}' FROM servers`);
    await remember(`SELECT 'bot:' || id, display_name, '${now}' FROM bots`);
    await remember(`SELECT 'branding:' || id, name, '${now}' FROM branding_profiles`);
    await remember(`SELECT 'integration:' || id, name, '${now}' FROM integrations`);
    await remember(
      `SELECT 'token:' || server_id || ':' || token, label, '${now}' FROM token_metadata WHERE label IS NOT NULL AND label <> ''`,
    );
  },
};
