import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { Kysely, type SqliteDatabase, SqliteDialect, type SqliteStatement } from "kysely";
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
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
}

/**
 * Kysely's SQLite driver prepares every statement anew: a tenth of a cheap admin request's CPU went to `prepare`. The
 * portal runs a small, fixed set of query shapes, so prepared statements are kept by SQL text (least recently used
 * beyond `max`). Safe because better-sqlite3 runs a statement to completion synchronously (the portal never streams).
 */
export function withStatementCache(sqlite: BetterSqlite3.Database, max = 500): SqliteDatabase {
  const cache = new Map<string, SqliteStatement>();
  return {
    close: () => sqlite.close(),
    prepare(sql) {
      const cached = cache.get(sql);
      if (cached) {
        cache.delete(sql);
        cache.set(sql, cached);
        return cached;
      }
      const statement = sqlite.prepare(sql);
      cache.set(sql, statement);
      if (cache.size > max) cache.delete(cache.keys().next().value as string);
      return statement;
    },
  };
}
