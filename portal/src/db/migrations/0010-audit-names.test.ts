import assert from "node:assert/strict";
import { describe, it } from "node:test";
import BetterSqlite3 from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";
import { migrate } from "../migrate.ts";
import type { Database } from "../schema.ts";
import { MIGRATIONS } from "./index.ts";

describe("migration 0010: last known names of audited subjects", () => {
  it("remembers the names older entries recorded, for subjects deleted before the table existed", async () => {
    const sqlite = new BetterSqlite3(":memory:");
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
    try {
      await migrate(
        db,
        MIGRATIONS.slice(
          0,
          MIGRATIONS.findIndex((m) => m.name === "0010-audit-names"),
        ),
      );
      const insert = sqlite.prepare(
        "INSERT INTO audit_log (server_id, action, actor, target, detail, ip, created_at) VALUES (?, ?, 'a@x', ?, ?, '::1', ?)",
      );
      insert.run("s1", "server.created", "s1", JSON.stringify({ name: "First name", slug: "one" }), "2026-01-01T00:00:00Z");
      insert.run("s1", "server.updated", "s1", JSON.stringify({ fields: ["name"] }), "2026-01-02T00:00:00Z");
      insert.run("s1", "server.deleted", "s1", JSON.stringify({ name: "Last name", slug: "one" }), "2026-01-03T00:00:00Z");
      insert.run(null, "branding.created", "p1", JSON.stringify({ name: "Old look" }), "2026-01-04T00:00:00Z");
      insert.run(null, "branding.created", "p2", "not json", "2026-01-05T00:00:00Z");
      await migrate(db, MIGRATIONS);
      assert.deepEqual(sqlite.prepare("SELECT subject, name FROM audit_names ORDER BY subject").all(), [
        { subject: "branding:p1", name: "Old look" },
        { subject: "server:s1", name: "Last name" },
      ]);
    } finally {
      await db.destroy();
    }
  });
});
