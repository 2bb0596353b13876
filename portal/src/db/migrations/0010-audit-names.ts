import { type Kysely, sql } from "kysely";
import { dialectOf } from "../dialect.ts";
import type { Migration } from "../migrate.ts";

/**
 * The last known name of each audited subject (issue 21: audit rows show names, not ids). Filled here from what the
 * database already knows: the names written into older entries' details (`server.created`/`server.deleted`,
 * `branding.created`: the only way to name what was deleted before this table existed), then the live rows, which
 * are newer and win. PostgreSQL has no `INSERT OR REPLACE` and reads JSON differently: there the old entries' names
 * are read in JavaScript and every name is upserted.
 */
export const auditNames: Migration = {
  name: "0010-audit-names",
  // biome-ignore lint/suspicious/noExplicitAny: migrations work on the schema as it was
  async up(db: Kysely<any>) {
    if (dialectOf(db) === "postgres") return namesOnPostgres(db);
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

// biome-ignore lint/suspicious/noExplicitAny: migrations work on the schema as it was
async function namesOnPostgres(db: Kysely<any>): Promise<void> {
  await sql`CREATE TABLE audit_names (
    subject TEXT COLLATE "C" PRIMARY KEY,
    name TEXT COLLATE "C" NOT NULL,
    updated_at TEXT COLLATE "C" NOT NULL
  )`.execute(db);
  const remember = async (rows: { subject: string; name: string; updated_at: string }[]) => {
    for (let i = 0; i < rows.length; i += 500) {
      await db
        .insertInto("audit_names")
        .values(rows.slice(i, i + 500))
        .onConflict((oc) =>
          oc.column("subject").doUpdateSet({ name: sql.ref("excluded.name"), updated_at: sql.ref("excluded.updated_at") }),
        )
        .execute();
    }
  };
  // Older entries, oldest first: the last name written for a subject wins (one row per subject per statement).
  const entries: { action: string; target: string; detail: string | null; created_at: string }[] = await db
    .selectFrom("audit_log")
    .select(["action", "target", "detail", "created_at"])
    .where("action", "in", ["server.created", "server.deleted", "branding.created"])
    .orderBy("id")
    .execute();
  const named = new Map<string, { subject: string; name: string; updated_at: string }>();
  for (const entry of entries) {
    const name = nameIn(entry.detail);
    const subject = `${entry.action.startsWith("server.") ? "server" : "branding"}:${entry.target}`;
    if (name !== undefined) named.set(subject, { subject, name, updated_at: entry.created_at });
  }
  await remember([...named.values()]);
  const now = new Date().toISOString();
  const live = async (query: string) =>
    remember(
      (await sql.raw<{ subject: string; name: string }>(query).execute(db)).rows.map((row) => ({ ...row, updated_at: now })),
    );
  await live(`SELECT 'server:' || id AS subject, name FROM servers`);
  await live(`SELECT 'bot:' || id AS subject, display_name AS name FROM bots`);
  await live(`SELECT 'branding:' || id AS subject, name FROM branding_profiles`);
  await live(`SELECT 'integration:' || id AS subject, name FROM integrations`);
  await live(
    `SELECT 'token:' || server_id || ':' || token AS subject, label AS name FROM token_metadata WHERE label IS NOT NULL AND label <> ''`,
  );
}

/** The string `name` of a JSON object, as SQLite's `json_extract(detail, '$.name')` with a text check. */
function nameIn(detail: string | null): string | undefined {
  try {
    const name = (JSON.parse(detail ?? "") as { name?: unknown } | null)?.name;
    return typeof name === "string" ? name : undefined;
  } catch {
    return undefined;
  }
}
