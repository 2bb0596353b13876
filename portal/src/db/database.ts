import { chmodSync, closeSync, mkdirSync, openSync, statSync } from "node:fs";
import { dirname } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { Kysely, type SqliteDatabase, SqliteDialect, type SqliteStatement } from "kysely";
import type { Logger } from "../../../lib/logger.ts";
import { type DatabaseConfig, SQLITE_FILE } from "../config.ts";
import { openPostgres } from "./postgres.ts";
import type { Database } from "./schema.ts";

/** The database file inside the data dir. */
export const DATABASE_FILE = SQLITE_FILE;

/** Owner read and write only, like `secret.key`: the database holds sealed secrets and password hashes. */
export const DATABASE_FILE_MODE = 0o600;

/** The files SQLite keeps beside the database (WAL mode; `-journal` only while switching modes). */
const COMPANIONS = ["-wal", "-shm", "-journal"];

/**
 * Makes the database file and its companions owner-only before SQLite opens them. SQLite creates a new database
 * 0644 (minus the umask) and gives its `-wal` and `-shm` files the database file's mode, so creating the file 0600
 * first covers every file made later; files left 0644 by an older portal (or a crash) are narrowed here at start.
 * A file this process may not chmod (owned by another user) is reported, not fatal: the portal still runs.
 */
function makePrivate(path: string, log: Logger | undefined): void {
  closeSync(openSync(path, "a", DATABASE_FILE_MODE));
  for (const file of [path, ...COMPANIONS.map((suffix) => `${path}${suffix}`)]) {
    try {
      if ((statSync(file).mode & 0o777) !== DATABASE_FILE_MODE) chmodSync(file, DATABASE_FILE_MODE);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT") continue;
      log?.warn({ file, code }, "cannot make the database file private (mode 0600): fix its owner or mode");
    }
  }
}

/**
 * Opens (creating if needed) the portal's SQLite database: owner-only files (mode 0600), WAL so that readers never
 * wait for the writer, foreign keys enforced (SQLite leaves them off per connection), and a busy timeout so that a
 * second process (a backup, the sqlite3 shell) makes us wait instead of failing with SQLITE_BUSY.
 */
export function openDatabase(path: string, log?: Logger): Kysely<Database> {
  if (path !== ":memory:") {
    mkdirSync(dirname(path), { recursive: true });
    makePrivate(path, log);
  }
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

/** The portal's database as configured: SQLite in the data dir, or a connection pool to PostgreSQL. */
export function openConfiguredDatabase(database: DatabaseConfig, log?: Logger): Kysely<Database> {
  return database.kind === "postgres" ? openPostgres(database.url, { log }) : openDatabase(database.path, log);
}
