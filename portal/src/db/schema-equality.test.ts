import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type Kysely, sql } from "kysely";
import { onPostgres, openTestDatabase } from "../../test/support/test-database.ts";
import { openDatabase } from "./database.ts";
import { migrate } from "./migrate.ts";
import { MIGRATIONS } from "./migrations/index.ts";
import type { Database } from "./schema.ts";

/**
 * The migrations give the same schema on SQLite and PostgreSQL: tables, columns (type, NOT NULL, default, primary
 * key), unique and partial indexes, foreign keys with their ON DELETE, CHECK constraints and triggers. SQLite's
 * implicit `rowid` counts as a column (PostgreSQL has it explicitly, dialect.ts withRowid). Runs where the suite
 * runs on PostgreSQL (`npm run test:postgres`); on a SQLite-only run it is skipped, saying so.
 */
interface Column {
  type: string;
  notNull: boolean;
  default: string | null;
  primaryKey: boolean;
}
interface Table {
  columns: Record<string, Column>;
  indexes: string[];
  foreignKeys: string[];
  checks: string[];
}
interface Schema {
  tables: Record<string, Table>;
  triggers: string[];
}

const rows = async <T>(db: Kysely<Database>, query: ReturnType<typeof sql<T>>) => (await query.execute(db)).rows;
const cleanDefault = (value: string | null) => (value === null ? null : value.replace(/::(text|bigint|integer)$/, ""));

/** `column: value, value` of a CHECK expression (`kind IN ('a', 'b')` and `(kind = ANY (ARRAY['a'::text, …]))` alike). */
function describeCheck(expression: string): string {
  const column = /([a-z_]+)\s*(=|in\b)/i.exec(expression.replace(/^CHECK\s*/i, ""))?.[1];
  const values = [...expression.matchAll(/'([^']*)'/g)].map((m) => m[1]).sort();
  return `${column}: ${values.join(", ")}`;
}

/** The CHECK expressions in a CREATE TABLE statement, as SQLite stores it (parentheses balanced by hand). */
function checksIn(createSql: string): string[] {
  const found: string[] = [];
  for (const match of createSql.matchAll(/\bcheck\s*\(/gi)) {
    let depth = 0;
    let end = match.index + match[0].length - 1;
    for (; end < createSql.length; end++) {
      if (createSql[end] === "(") depth++;
      if (createSql[end] === ")" && --depth === 0) break;
    }
    found.push(createSql.slice(match.index, end + 1));
  }
  return found;
}

async function sqliteSchema(db: Kysely<Database>): Promise<Schema> {
  const tables: Record<string, Table> = {};
  const list = await rows(
    db,
    sql<{ name: string; sql: string }>`SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`,
  );
  for (const { name, sql: createSql } of list) {
    const info = await rows(
      db,
      sql<{ name: string; type: string; notnull: number; dflt_value: string | null; pk: number }>`
        SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_info(${name})`,
    );
    const columns: Record<string, Column> = {};
    for (const c of info) {
      columns[c.name] = {
        type: c.type.toLowerCase(),
        notNull: c.notnull === 1 || c.pk > 0,
        default: c.dflt_value,
        primaryKey: c.pk > 0,
      };
    }
    const integerKey =
      info.filter((c) => c.pk > 0).length === 1 && info.some((c) => c.pk > 0 && c.type.toLowerCase() === "integer");
    if (!/WITHOUT ROWID/i.test(createSql) && !integerKey) {
      columns.rowid = { type: "integer", notNull: true, default: null, primaryKey: false };
    }
    const indexes: string[] = [];
    for (const index of await rows(
      db,
      sql<{ name: string; unique: number; origin: string; partial: number }>`
        SELECT name, "unique", origin, partial FROM pragma_index_list(${name})`,
    )) {
      if (index.origin === "pk") continue;
      const cols = await rows(db, sql<{ name: string }>`SELECT name FROM pragma_index_info(${index.name}) ORDER BY seqno`);
      indexes.push(
        `${index.origin === "c" ? index.name : "(constraint)"} ${index.unique ? "unique " : ""}(${cols.map((c) => c.name).join(", ")})${index.partial ? " partial" : ""}`,
      );
    }
    const foreignKeys = (
      await rows(
        db,
        sql<{ table: string; from: string; to: string; on_delete: string }>`
          SELECT "table", "from", "to", on_delete FROM pragma_foreign_key_list(${name})`,
      )
    ).map((fk) => `${fk.from} -> ${fk.table}.${fk.to} on delete ${fk.on_delete.toLowerCase()}`);
    tables[name] = {
      columns,
      indexes: indexes.sort(),
      foreignKeys: foreignKeys.sort(),
      checks: checksIn(createSql).map(describeCheck).sort(),
    };
  }
  const triggers = await rows(db, sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name`);
  return { tables, triggers: triggers.map((t) => t.name) };
}

const ON_DELETE: Record<string, string> = { a: "no action", c: "cascade", n: "set null", r: "restrict", d: "set default" };

async function postgresSchema(db: Kysely<Database>): Promise<{ schema: Schema; collations: string[] }> {
  const tables: Record<string, Table> = {};
  const columnRows = await rows(
    db,
    sql<{
      table_name: string;
      column_name: string;
      data_type: string;
      is_nullable: string;
      column_default: string | null;
      collation_name: string | null;
    }>`
      SELECT table_name, column_name, data_type, is_nullable, column_default, collation_name
      FROM information_schema.columns WHERE table_schema = current_schema()`,
  );
  const keys = await rows(
    db,
    sql<{ table_name: string; column_name: string }>`
      SELECT k.table_name, k.column_name FROM information_schema.table_constraints c
      JOIN information_schema.key_column_usage k ON k.constraint_name = c.constraint_name AND k.table_schema = c.table_schema
      WHERE c.table_schema = current_schema() AND c.constraint_type = 'PRIMARY KEY'`,
  );
  const table = (name: string) => {
    tables[name] ??= { columns: {}, indexes: [], foreignKeys: [], checks: [] };
    return tables[name];
  };
  for (const c of columnRows) {
    table(c.table_name).columns[c.column_name] = {
      type: c.data_type,
      notNull: c.is_nullable === "NO",
      default: cleanDefault(c.column_default),
      primaryKey: keys.some((k) => k.table_name === c.table_name && k.column_name === c.column_name),
    };
  }
  const indexes = await rows(
    db,
    sql<{ table_name: string; name: string; unique: boolean; partial: boolean; columns: string; constraint: boolean }>`
      SELECT t.relname AS table_name, i.relname AS name, x.indisunique AS unique, x.indpred IS NOT NULL AS partial,
        (SELECT string_agg(a.attname, ', ' ORDER BY k.n) FROM unnest(x.indkey) WITH ORDINALITY AS k(attnum, n)
          JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum) AS columns,
        EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid) AS constraint
      FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
      WHERE t.relnamespace = current_schema()::regnamespace AND NOT x.indisprimary`,
  );
  for (const index of indexes) {
    table(index.table_name).indexes.push(
      `${index.constraint ? "(constraint)" : index.name} ${index.unique ? "unique " : ""}(${index.columns})${index.partial ? " partial" : ""}`,
    );
  }
  const constraints = await rows(
    db,
    sql<{ table_name: string; type: string; definition: string; from: string; target: string; to: string; on_delete: string }>`
      SELECT t.relname AS table_name, c.contype AS type, pg_get_constraintdef(c.oid) AS definition,
        (SELECT attname FROM pg_attribute WHERE attrelid = c.conrelid AND attnum = c.conkey[1]) AS "from",
        f.relname AS target,
        (SELECT attname FROM pg_attribute WHERE attrelid = c.confrelid AND attnum = c.confkey[1]) AS "to",
        c.confdeltype AS on_delete
      FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid LEFT JOIN pg_class f ON f.oid = c.confrelid
      WHERE c.connamespace = current_schema()::regnamespace AND c.contype IN ('c', 'f')`,
  );
  for (const c of constraints) {
    if (c.type === "c") table(c.table_name).checks.push(describeCheck(c.definition));
    else table(c.table_name).foreignKeys.push(`${c.from} -> ${c.target}.${c.to} on delete ${ON_DELETE[c.on_delete]}`);
  }
  for (const t of Object.values(tables)) {
    t.indexes.sort();
    t.foreignKeys.sort();
    t.checks.sort();
  }
  const triggers = await rows(
    db,
    sql<{ name: string }>`SELECT DISTINCT trigger_name AS name FROM information_schema.triggers
      WHERE trigger_schema = current_schema() ORDER BY 1`,
  );
  const collations = columnRows
    .filter((c) => c.data_type === "text")
    .map((c) => `${c.table_name}.${c.column_name} ${c.collation_name}`);
  return { schema: { tables, triggers: triggers.map((t) => t.name) }, collations };
}

describe("one schema on SQLite and PostgreSQL", () => {
  it("the migrations make the same tables, columns, indexes, constraints and triggers on both", {
    skip: !onPostgres && "needs PostgreSQL: npm run test:postgres",
  }, async () => {
    const sqlite = openDatabase(":memory:");
    const postgres = await openTestDatabase();
    try {
      await migrate(sqlite, MIGRATIONS);
      const expected = await sqliteSchema(sqlite);
      const { schema, collations } = await postgresSchema(postgres);
      assert.deepEqual(schema, expected);
      assert.ok(Object.keys(expected.tables).length >= 17, "every table compared");
      for (const column of collations) assert.match(column, / C$/, "text compares byte by byte, as in SQLite");
    } finally {
      await sqlite.destroy();
      await postgres.destroy();
    }
  });
});
