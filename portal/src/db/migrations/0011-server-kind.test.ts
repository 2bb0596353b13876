import assert from "node:assert/strict";
import { describe, it } from "node:test";
import BetterSqlite3 from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";
import { migrate } from "../migrate.ts";
import type { Database } from "../schema.ts";
import { MIGRATIONS } from "./index.ts";

describe("migration 0011: server kind", () => {
  it("makes every existing server a Synapse server and only accepts synapse or mas", async () => {
    const sqlite = new BetterSqlite3(":memory:");
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
    try {
      await migrate(
        db,
        MIGRATIONS.slice(
          0,
          MIGRATIONS.findIndex((m) => m.name === "0011-server-kind"),
        ),
      );
      const insert = (id: string, slug: string) =>
        sqlite
          .prepare(
            `INSERT INTO servers (id, name, slug, server_name, internal_url, public_url, admin_token_enc, status, created_at, updated_at)
             VALUES (?, 'Old', ?, 'old.example', 'http://hs', 'https://hs', 'v1:sealed', 'active', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')`,
          )
          .run(id, slug);
      insert("s1", "old");
      await migrate(db, MIGRATIONS);
      assert.deepEqual(
        sqlite.prepare("SELECT kind, mas_url, mas_public_url, mas_client_id, mas_client_secret_enc FROM servers").get(),
        { kind: "synapse", mas_url: null, mas_public_url: null, mas_client_id: null, mas_client_secret_enc: null },
      );
      insert("s2", "new");
      sqlite.prepare("UPDATE servers SET kind = 'mas' WHERE id = 's2'").run();
      assert.throws(() => sqlite.prepare("UPDATE servers SET kind = 'dendrite' WHERE id = 's2'").run(), /CHECK constraint/);
    } finally {
      await db.destroy();
    }
  });
});
