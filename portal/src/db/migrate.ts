import { type Kysely, sql } from "kysely";
import type { Database } from "./schema.ts";

/** One schema step. Migrations see an untyped database: the typed schema describes only the latest version. */
export interface Migration {
  readonly name: string;
  // biome-ignore lint/suspicious/noExplicitAny: a migration works on the schema as it was, not on today's types
  up(db: Kysely<any>): Promise<void>;
}

/**
 * Applies the pending migrations of `migrations` (a static ordered list) in one transaction, recording each in
 * `portal_migrations`. SQLite's DDL is transactional, so a failure leaves the database as it was. A database that
 * knows a migration this build does not (a newer portal wrote it) is refused rather than guessed at.
 * Returns the names applied.
 */
export async function migrate(db: Kysely<Database>, migrations: readonly Migration[]): Promise<string[]> {
  const names = migrations.map((m) => m.name);
  if (new Set(names).size !== names.length || names.some((name, i) => i > 0 && name <= (names[i - 1] ?? ""))) {
    throw new Error("migrations must have unique names in ascending order");
  }
  return db.transaction().execute(async (trx) => {
    await sql`CREATE TABLE IF NOT EXISTS portal_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)`.execute(trx);
    const rows = await sql<{ name: string }>`SELECT name FROM portal_migrations ORDER BY name`.execute(trx);
    const applied = new Set(rows.rows.map((row) => row.name));
    const unknown = [...applied].filter((name) => !names.includes(name));
    if (unknown.length > 0) {
      throw new Error(`the database was migrated by a newer portal (unknown migrations: ${unknown.join(", ")})`);
    }
    const done: string[] = [];
    for (const migration of migrations) {
      if (applied.has(migration.name)) continue;
      await migration.up(trx);
      await sql`INSERT INTO portal_migrations (name, applied_at) VALUES (${migration.name}, ${new Date().toISOString()})`.execute(
        trx,
      );
      done.push(migration.name);
    }
    return done;
  });
}
