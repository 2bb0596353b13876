import assert from "node:assert/strict";
import { chmodSync, existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import BetterSqlite3 from "better-sqlite3";
import { sql } from "kysely";
import { memoryLogger, tempDir } from "../../../lib/testing/fixtures.ts";
import { DATABASE_FILE, openDatabase, withStatementCache } from "./database.ts";

const modeOf = (file: string) => (statSync(file).mode & 0o777).toString(8);
const filesOf = (path: string) => [path, `${path}-wal`, `${path}-shm`];

describe("database file modes", () => {
  let dir: { path: string; remove(): Promise<void> };
  let umask: number;
  before(async () => {
    dir = await tempDir("portal-db-mode");
    // The usual umask: without the portal's own care, SQLite would create 0644 files under it.
    umask = process.umask(0o022);
  });
  after(async () => {
    process.umask(umask);
    await dir.remove();
  });

  it("creates the database, its WAL and its shared-memory file owner-only (0600)", async () => {
    const path = join(dir.path, "fresh", DATABASE_FILE);
    const db = openDatabase(path);
    try {
      await sql`create table t (n integer)`.execute(db);
      await sql`insert into t (n) values (1)`.execute(db);
      for (const file of filesOf(path)) {
        assert.ok(existsSync(file), `${file} exists while the database is open`);
        assert.equal(modeOf(file), "600", file);
      }
    } finally {
      await db.destroy();
    }
  });

  it("narrows files an older portal left 0644 (database, WAL and shared memory) at start", async () => {
    const path = join(dir.path, "old", DATABASE_FILE);
    await openDatabase(path).destroy();
    chmodSync(path, 0o644);
    // An older portal's connection, still open (or crashed): its -wal and -shm are on disk, 0644 like the database.
    const older = new BetterSqlite3(path);
    older.pragma("journal_mode = WAL");
    older.exec("create table t (n integer); insert into t (n) values (1)");
    for (const file of filesOf(path)) assert.equal(modeOf(file), "644", `${file} before`);

    const { log, lines } = memoryLogger();
    const db = openDatabase(path, log);
    try {
      for (const file of filesOf(path)) assert.equal(modeOf(file), "600", `${file} after the start`);
      const rows = await sql<{ n: number }>`select n from t`.execute(db);
      assert.deepEqual(rows.rows, [{ n: 1 }], "the data is untouched");
      assert.equal(lines().filter((line) => line.includes('"level":"warn"')).length, 0);
    } finally {
      await db.destroy();
      older.close();
    }
  });
});

describe("statement cache", () => {
  it("prepares each SQL text once, keeps the most recently used, and gives the same results", () => {
    const sqlite = new BetterSqlite3(":memory:");
    let prepared = 0;
    const prepare = sqlite.prepare.bind(sqlite);
    sqlite.prepare = ((sql: string) => {
      prepared++;
      return prepare(sql);
    }) as typeof sqlite.prepare;
    const db = withStatementCache(sqlite, 2);
    db.prepare("create table t (n integer)").run([]);
    const insert = "insert into t (n) values (?)";
    for (let i = 0; i < 5; i++) db.prepare(insert).run([i]);
    assert.deepEqual(db.prepare("select sum(n) as s from t").all([]), [{ s: 10 }]);
    assert.equal(prepared, 3, "create, insert and select prepared once each (create then left the cache of 2)");
    db.prepare(insert).run([5]); // still cached
    assert.equal(prepared, 3);
    db.prepare("select count(*) as c from t").all([]); // evicts the least recently used: the sum
    db.prepare(insert).run([6]); // still cached
    assert.equal(prepared, 4);
    assert.deepEqual(db.prepare("select sum(n) as s from t").all([]), [{ s: 21 }]);
    assert.equal(prepared, 5, "the sum was prepared again");
    db.close();
  });
});
