import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type Kysely, sql } from "kysely";
import { openDatabase } from "./database.ts";
import { type Migration, migrate } from "./migrate.ts";
import { MIGRATIONS } from "./migrations/index.ts";
import type { Database } from "./schema.ts";

const tables = async (db: Kysely<Database>) =>
  (await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`.execute(db)).rows.map(
    (row) => row.name,
  );

describe("migrations", () => {
  it("applies the list once, in order, with foreign keys on", async () => {
    const db = openDatabase(":memory:");
    try {
      assert.deepEqual(
        await migrate(db, MIGRATIONS),
        MIGRATIONS.map((m) => m.name),
      );
      assert.deepEqual(await migrate(db, MIGRATIONS), [], "nothing left to apply");
      for (const table of [
        "audit_log",
        "bots",
        "branding_assets",
        "branding_profiles",
        "integrations",
        "registrations",
        "servers",
        "sessions",
        "token_metadata",
        "users",
      ]) {
        assert.ok((await tables(db)).includes(table), table);
      }
      const fk = await sql<{ foreign_keys: number }>`PRAGMA foreign_keys`.execute(db);
      assert.equal(fk.rows[0]?.foreign_keys, 1);
    } finally {
      await db.destroy();
    }
  });

  it("rolls the whole run back when a step fails", async () => {
    const db = openDatabase(":memory:");
    const broken: Migration = {
      name: "9999-broken",
      async up(trx) {
        await sql`CREATE TABLE half_done (id INTEGER)`.execute(trx);
        await sql`THIS IS NOT SQL`.execute(trx);
      },
    };
    try {
      await assert.rejects(migrate(db, [...MIGRATIONS, broken]));
      assert.deepEqual(await tables(db), [], "not even the earlier steps or the bookkeeping table remain");
      assert.deepEqual((await migrate(db, MIGRATIONS)).length, MIGRATIONS.length);
    } finally {
      await db.destroy();
    }
  });

  it("refuses a database written by a newer portal and a list out of order", async () => {
    const db = openDatabase(":memory:");
    const extra: Migration = { name: "9999-newer", up: async () => {} };
    try {
      await migrate(db, [...MIGRATIONS, extra]);
      await assert.rejects(migrate(db, MIGRATIONS), /migrated by a newer portal \(unknown migrations: 9999-newer\)/);
      await assert.rejects(migrate(db, [extra, ...MIGRATIONS]), /ascending order/);
    } finally {
      await db.destroy();
    }
  });
});
