import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { CompiledQuery, type Kysely, sql } from "kysely";
import { onPostgres, openTestDatabase } from "../../test/support/test-database.ts";
import { migrate } from "../db/migrate.ts";
import { MIGRATIONS } from "../db/migrations/index.ts";
import type { Database } from "../db/schema.ts";
import { type AuditFilter, AuditRepository, type AuditRow, MAX_MERGED_ACTIONS } from "./audit.repository.ts";

const BEFORE_COUNTS = MIGRATIONS.slice(
  0,
  MIGRATIONS.findIndex((m) => m.name === "0009-audit-counts"),
);

/** Actions with the traps of segment-prefix matching: `tokenizer`, `token-x`, `_` (a LIKE wildcard), the bare prefix. */
const ACTIONS = [
  "token.created",
  "token.updated",
  "token.disabled",
  "token",
  "tokenizer.run",
  "token-x.y",
  "server.updated",
  "bot.room.assigned",
  "bot.room_assigned",
  "bot.roomxassigned",
  "branding.published",
];
const ACTORS = ["a@portal.test", "b@portal.test", "c@portal.test"];
const SERVERS = [null, "s1", "s2", "s3"];

interface TestDb {
  db: Kysely<Database>;
  repository: AuditRepository;
  /** Every statement run through Kysely since the last `queries.splice(0)`. */
  queries: CompiledQuery[];
}

/** The suite runs on SQLite, and on PostgreSQL under `npm run test:postgres` (test/support/test-database.ts). */
async function openTestDb(migrations = MIGRATIONS): Promise<TestDb> {
  const queries: CompiledQuery[] = [];
  const db = await openTestDatabase({ migrations, onQuery: (query) => queries.push(query) });
  return { db, repository: new AuditRepository(db), queries };
}

/** A bound parameter in compiled SQL: `?` on SQLite, `$1` on PostgreSQL. */
const PARAM = String.raw`(\?|\$\d+)`;

/** Hand edits and checks, in SQL both databases read. */
const exec = (db: Kysely<Database>, text: string) => sql.raw(text).execute(db);
const countAll = async (db: Kysely<Database>) =>
  Number((await sql<{ n: number }>`SELECT count(*) AS n FROM audit_log`.execute(db)).rows[0]?.n);

/** `count` entries cycling through the actions, actors and servers at different strides (all combinations occur). */
async function insertRows(db: Kysely<Database>, count: number, actions = ACTIONS): Promise<void> {
  const start = await countAll(db);
  const rows: Omit<AuditRow, "id">[] = [];
  for (let i = start; i < start + count; i++) {
    rows.push({
      server_id: SERVERS[i % 4] ?? null,
      action: actions[i % actions.length] as string,
      actor: ACTORS[i % 3] as string,
      target: `t${i}`,
      detail: null,
      ip: "192.0.2.1",
      created_at: new Date(i * 1000).toISOString(),
    });
  }
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < rows.length; i += 200)
      await trx
        .insertInto("audit_log")
        .values(rows.slice(i, i + 200))
        .execute();
  });
}

/** What a page must be: every row, newest first, filtered and sliced in JavaScript. */
async function expectedPage(db: Kysely<Database>, filter: AuditFilter & { limit: number; offset: number }) {
  const all = (await db.selectFrom("audit_log").selectAll().orderBy("id", "desc").execute()).filter(
    (row) =>
      (filter.serverId === undefined || row.server_id === filter.serverId) &&
      (filter.actor === undefined || row.actor === filter.actor) &&
      (filter.action === undefined || row.action === filter.action || row.action.startsWith(`${filter.action}.`)),
  );
  return { rows: all.slice(filter.offset, filter.offset + filter.limit), total: all.length };
}

const countsTable = async (db: Kysely<Database>) =>
  (await sql`SELECT scope, server_id, entries FROM audit_log_counts WHERE entries <> 0 ORDER BY scope, server_id`.execute(db))
    .rows;
const countedByHand = async (db: Kysely<Database>) => [
  { scope: "all", server_id: "", entries: await countAll(db) },
  ...(
    await sql`SELECT 'server' AS scope, server_id, count(*) AS entries FROM audit_log WHERE server_id IS NOT NULL
      GROUP BY server_id ORDER BY server_id`.execute(db)
  ).rows,
];

describe("audit log counters (migration 0009)", () => {
  it("counts the entries already there, then every insert, deletion and server change", async () => {
    const { db, repository } = await openTestDb(BEFORE_COUNTS);
    try {
      await insertRows(db, 103);
      await migrate(db, MIGRATIONS);
      assert.deepEqual(await countsTable(db), await countedByHand(db));
      assert.equal(((await countsTable(db))[0] as { entries: number }).entries, 103);

      await repository.insert({
        server_id: "new-server",
        action: "server.created",
        actor: "a@portal.test",
        target: "x",
        detail: null,
        ip: "192.0.2.9",
        created_at: new Date().toISOString(),
      });
      await insertRows(db, 20);
      // The log is append-only for the portal; these are the hand edits the triggers must survive.
      await exec(db, "DELETE FROM audit_log WHERE id IN (5, 6, 7)");
      await exec(db, "UPDATE audit_log SET server_id = 's9' WHERE id = 10");
      await exec(db, "UPDATE audit_log SET server_id = NULL WHERE id = 11");
      await exec(db, "UPDATE audit_log SET action = 'bot.updated' WHERE id = 12");
      assert.deepEqual(await countsTable(db), await countedByHand(db));
      assert.deepEqual(
        await repository.page({ limit: 1, offset: 0, serverId: "new-server" }),
        await expectedPage(db, { limit: 1, offset: 0, serverId: "new-server" }),
      );
    } finally {
      await db.destroy();
    }
  });
});

describe("audit log pages", () => {
  let t: TestDb;
  beforeEach(async () => {
    t = await openTestDb();
  });
  afterEach(() => t.db.destroy());

  const offsets = (total: number) => [0, 1, 49, 50, 51, 123, total - 50, total - 1, total, total + 10];

  /** Pages of the whole log at many depths equal the reference; returns whether the id seek or OFFSET was used. */
  async function checkWholeLog(): Promise<Set<string>> {
    const total = await countAll(t.db);
    const paths = new Set<string>();
    for (const limit of [1, 50, 200]) {
      for (const offset of offsets(total).filter((o) => o >= 0)) {
        t.queries.splice(0);
        const page = await t.repository.page({ limit, offset });
        const rowsQuery = t.queries.at(-1)?.sql ?? "";
        assert.deepEqual(page, await expectedPage(t.db, { limit, offset }), `limit ${limit} offset ${offset}`);
        paths.add(
          new RegExp(`"id" <= ${PARAM}`).test(rowsQuery) && !/offset/.test(rowsQuery)
            ? "seek"
            : /offset/.test(rowsQuery)
              ? "offset"
              : "?",
        );
      }
    }
    return paths;
  }

  it("pages a dense log by id and a log with gaps by OFFSET, with the same entries as scanning", async () => {
    await insertRows(t.db, 600);
    assert.deepEqual([...(await checkWholeLog())], ["seek"]);

    // Removing the newest or the oldest entry keeps the ids dense.
    await exec(t.db, "DELETE FROM audit_log WHERE id IN (1, 600)");
    assert.deepEqual([...(await checkWholeLog())], ["seek"]);

    // A gap in the middle: entry k from the newest no longer has id max − k.
    await exec(t.db, "DELETE FROM audit_log WHERE id = 300");
    assert.deepEqual([...(await checkWholeLog())], ["offset"]);

    // A gap above: an entry written with an id far ahead (by hand).
    await exec(
      t.db,
      "INSERT INTO audit_log SELECT 5000, server_id, action, actor, target, detail, ip, created_at FROM audit_log WHERE id = 2",
    );
    await exec(
      t.db,
      "INSERT INTO audit_log SELECT 300, server_id, action, actor, target, detail, ip, created_at FROM audit_log WHERE id = 2",
    );
    assert.deepEqual([...(await checkWholeLog())], ["offset"]);
    await exec(t.db, "DELETE FROM audit_log WHERE id = 5000");
    assert.deepEqual([...(await checkWholeLog())], ["seek"], "dense again once the gap is closed");
  });

  it("answers every filter like a scan, and counts the whole log and one server without counting rows", async () => {
    await insertRows(t.db, 700);
    const filters: AuditFilter[] = [
      {},
      { serverId: "s2" },
      { serverId: "unknown" },
      { actor: "b@portal.test" },
      { action: "token" },
      { action: "token.created" },
      { action: "tokenizer" },
      { action: "bot.room" },
      { action: "bot.room_assigned" },
      { action: "bot" },
      { action: "nothing" },
      { action: "token", actor: "a@portal.test" },
      { action: "token", serverId: "s1" },
      { action: "bot", actor: "c@portal.test", serverId: "s3" },
      { actor: "a@portal.test", serverId: "s2" },
    ];
    for (const filter of filters) {
      const { total } = await expectedPage(t.db, { ...filter, limit: 1, offset: 0 });
      for (const offset of offsets(total).filter((o) => o >= 0)) {
        for (const limit of [1, 50]) {
          t.queries.splice(0);
          const page = await t.repository.page({ ...filter, limit, offset });
          assert.deepEqual(
            page,
            await expectedPage(t.db, { ...filter, limit, offset }),
            JSON.stringify({ filter, limit, offset }),
          );
          if (filter.action === undefined && filter.actor === undefined) {
            assert.ok(!t.queries.some((query) => /count\(\*\)/.test(query.sql)), "the total comes from the counters");
          }
        }
      }
    }
  });

  // SQLite's query plans (PostgreSQL's planner picks by statistics, so its plans prove little on a small table).
  it("walks indexes newest first for each filter: no table scan, no sort of the matches", { skip: onPostgres }, async () => {
    await insertRows(t.db, 300);
    for (const filter of [
      { action: "token" },
      { action: "token.created" },
      { action: "bot" },
      { actor: "a@portal.test" },
      { serverId: "s1" },
      {},
      { offset: 100 },
    ]) {
      t.queries.splice(0);
      await t.repository.page({ limit: 50, offset: 0, ...filter });
      for (const query of t.queries.splice(0)) {
        if (/count\(\*\)/.test(query.sql)) continue;
        const plan = (
          await t.db.executeQuery<{ detail: string }>(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${query.sql}`, [...query.parameters]))
        ).rows
          .map((step) => step.detail)
          .join(" | ");
        assert.doesNotMatch(plan, /SCAN audit_log(?! USING)|TEMP B-TREE/, `${JSON.stringify(filter)}: ${query.sql} → ${plan}`);
      }
    }
  });

  it("matches a prefix with too many distinct actions to merge by one index range", async () => {
    const many = Array.from({ length: MAX_MERGED_ACTIONS + 5 }, (_, i) => `bulk.a${i}`);
    await insertRows(t.db, 400, [...many, "bulkier.x", "bulk"]);
    for (const offset of [0, 7, 60, 399]) {
      t.queries.splice(0);
      const page = await t.repository.page({ action: "bulk", limit: 50, offset });
      assert.deepEqual(page, await expectedPage(t.db, { action: "bulk", limit: 50, offset }));
      assert.ok(
        t.queries.some((query) => new RegExp(`"action" >= ${PARAM}`).test(query.sql) && !/union/.test(query.sql)),
        "one range instead of a merge",
      );
    }
    const few = await t.repository.page({ action: "bulk.a1", limit: 50, offset: 0 });
    assert.deepEqual(few, await expectedPage(t.db, { action: "bulk.a1", limit: 50, offset: 0 }));
  });
});
