import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { DATABASE_FILE } from "../../src/db/database.ts";
import { databaseUrlFor } from "./portal-harness.ts";
import { withClient } from "./test-database.ts";

/**
 * Runs one statement (no parameters) on a test portal's database from the side, for what the API never shows
 * (where asset bytes are kept): its SQLite file, or on a PostgreSQL run its schema. One short-lived connection per
 * call; SQLite's WAL lets it run while the portal works.
 */
export async function queryPortalDb<T>(dataDir: string, statement: string): Promise<T[]> {
  const url = databaseUrlFor(dataDir);
  if (url) return withClient(await url, async (client) => (await client.query(statement)).rows as T[]);
  const db = new BetterSqlite3(join(dataDir, DATABASE_FILE), { fileMustExist: true });
  try {
    const prepared = db.prepare(statement);
    if (prepared.reader) return prepared.all() as T[];
    prepared.run();
    return [];
  } finally {
    db.close();
  }
}

/** The generated names of the branding assets whose bytes are stored (one per asset: bytes never outlive a record). */
export async function storedAssetNames(dataDir: string): Promise<string[]> {
  const rows = await queryPortalDb<{ name: string }>(
    dataDir,
    "SELECT a.storage_name AS name FROM branding_asset_content c JOIN branding_assets a ON a.id = c.asset_id",
  );
  return rows.map((row) => row.name);
}
