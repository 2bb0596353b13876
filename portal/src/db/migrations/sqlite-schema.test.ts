import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { sql } from "kysely";
import { openDatabase } from "../database.ts";
import { migrate } from "../migrate.ts";
import { MIGRATIONS } from "./index.ts";

/**
 * `sqlite_master` (every table, index and trigger with the exact SQL SQLite stores) after migrations 0001-0011, as the
 * SQLite-only migrations gave it before they learnt PostgreSQL (issue 24). Existing installs were migrated by those:
 * the portable rewrite must give a new SQLite install the very same schema, text for text.
 */
const RECORDED = JSON.parse(readFileSync(new URL("./sqlite-schema-0011.json", import.meta.url), "utf8")) as unknown[];

describe("migrations 0001-0011 on SQLite", () => {
  it("give exactly the schema the SQLite-only migrations gave", async () => {
    const db = openDatabase(":memory:");
    try {
      await migrate(db, MIGRATIONS.slice(0, MIGRATIONS.findIndex((m) => m.name === "0011-server-kind") + 1));
      const rows = await sql`SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name`.execute(db);
      assert.deepEqual(rows.rows, RECORDED);
    } finally {
      await db.destroy();
    }
  });
});
