import { randomBytes } from "node:crypto";
import BetterSqlite3 from "better-sqlite3";
import { type CompiledQuery, Kysely, SqliteDialect } from "kysely";
import pg from "pg";
import { type Migration, migrate } from "../../src/db/migrate.ts";
import { MIGRATIONS } from "../../src/db/migrations/index.ts";
import { openPostgres } from "../../src/db/postgres.ts";
import type { Database } from "../../src/db/schema.ts";

/**
 * Which database the portal's shared suite runs on. Unset: SQLite, as in production by default. Set (by
 * scripts/with-postgres.mjs, `npm run test:postgres`) to a PostgreSQL superuser URL: every test portal and every
 * repository test gets a schema of its own there, made fresh, so tests never see each other's rows.
 */
export const TEST_POSTGRES_URL = process.env.PORTAL_TEST_DATABASE_URL || undefined;

/** True when this run of the suite is on PostgreSQL. */
export const onPostgres = TEST_POSTGRES_URL !== undefined;

/** A connection URL for a new, empty schema (its tables made by the portal's migrations when it starts). */
export async function freshPostgresUrl(base = TEST_POSTGRES_URL): Promise<string> {
  if (!base) throw new Error("PORTAL_TEST_DATABASE_URL is not set");
  const schema = `t_${process.pid}_${randomBytes(6).toString("hex")}`;
  await withClient(base, (client) => client.query(`CREATE SCHEMA ${schema}`));
  const url = new URL(base);
  url.searchParams.set("options", `-c search_path=${schema}`);
  return url.toString();
}

/** Runs `work` on one connection to `url`, closed afterwards (an open pool would keep the test file's process alive). */
export async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * A database for a repository test: SQLite in memory, or a fresh PostgreSQL schema; migrated unless `migrations` says
 * otherwise. `onQuery` sees every statement. Destroy it after.
 */
export async function openTestDatabase(
  options: { migrations?: readonly Migration[]; onQuery?: (query: CompiledQuery) => void } = {},
): Promise<Kysely<Database>> {
  const { onQuery } = options;
  const db = onPostgres
    ? openPostgres(await freshPostgresUrl(), { max: 4, onQuery })
    : new Kysely<Database>({
        dialect: new SqliteDialect({ database: memorySqlite() }),
        ...(onQuery && { log: (event) => (event.level === "query" ? onQuery(event.query) : undefined) }),
      });
  await migrate(db, options.migrations ?? MIGRATIONS);
  return db;
}

/**
 * Every row of every table as text, for the tests that make sure no secret is stored in clear: the SQLite files
 * are read by those tests directly; on PostgreSQL this reads the schema `url` points at.
 */
export async function dumpPostgres(url: string): Promise<string> {
  return withClient(url, async (client) => {
    const tables = await client.query<{ name: string }>(
      "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY 1",
    );
    let text = "";
    for (const { name } of tables.rows) {
      const rows = await client.query<{ row: string }>(`SELECT row_to_json(t)::text AS row FROM "${name}" t`);
      text += `${name}\n${rows.rows.map((row) => row.row).join("\n")}\n`;
    }
    return text;
  });
}

/** SQLite in memory with foreign keys on, as the portal opens its file (database.ts). */
function memorySqlite(): BetterSqlite3.Database {
  const sqlite = new BetterSqlite3(":memory:");
  sqlite.pragma("foreign_keys = ON");
  return sqlite;
}
