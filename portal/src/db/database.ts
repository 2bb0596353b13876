import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";
import type { Database } from "./schema.ts";

/** The database file inside the data dir. */
export const DATABASE_FILE = "portal.sqlite";

/**
 * Opens (creating if needed) the portal's SQLite database: WAL so that readers never wait for the writer,
 * foreign keys enforced (SQLite leaves them off per connection), and a busy timeout so that a second process
 * (a backup, the sqlite3 shell) makes us wait instead of failing with SQLITE_BUSY.
 */
export function openDatabase(path: string): Kysely<Database> {
  mkdirSync(dirname(path), { recursive: true });
  const sqlite = new BetterSqlite3(path);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("synchronous = NORMAL");
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
}
