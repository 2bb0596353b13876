import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { DATABASE_FILE } from "../../src/db/database.ts";

/**
 * Reads a portal's SQLite database from the side, read-only, for what the API never shows (where asset bytes are
 * kept). One short-lived connection per call; WAL lets it read while the portal writes.
 */
export function readPortalDb<T>(dataDir: string, query: string, ...params: unknown[]): T[] {
  const db = new BetterSqlite3(join(dataDir, DATABASE_FILE), { readonly: true, fileMustExist: true });
  try {
    return db.prepare(query).all(...params) as T[];
  } finally {
    db.close();
  }
}

/** The generated names of the branding assets whose bytes are stored (one per asset: bytes never outlive a record). */
export function storedAssetNames(dataDir: string): string[] {
  return readPortalDb<{ name: string }>(
    dataDir,
    `SELECT a.storage_name AS name FROM branding_asset_content c JOIN branding_assets a ON a.id = c.asset_id`,
  ).map((row) => row.name);
}
