import assert from "node:assert/strict";
import { describe, it } from "node:test";
import BetterSqlite3 from "better-sqlite3";
import { withStatementCache } from "./database.ts";

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
