import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { describe, it } from "node:test";
import { Hono } from "hono";
import { REDACTED_KEYS } from "../../../lib/logger.ts";
import { memoryLogger } from "../../../lib/testing/fixtures.ts";
import { hubErrorHandler } from "../http/errors.ts";
import { createHubLogger } from "./hub-logger.ts";
import { type LogEntry, LogRing } from "./log-ring.ts";
import { logsRoutes } from "./logs.routes.ts";

/** A hub logger writing into a ring and into an in-memory "stdout". */
function setup(capacity?: number) {
  const ring = new LogRing(capacity);
  const stdoutLines: string[] = [];
  const stdout = new Writable({
    write(chunk, _encoding, done) {
      stdoutLines.push(...String(chunk).split("\n").filter(Boolean));
      done();
    },
  });
  const log = createHubLogger({ level: "trace", ring, stdout });
  const app = new Hono();
  app.onError(hubErrorHandler(memoryLogger().log));
  app.route("/api/logs", logsRoutes(ring));
  return { ring, log, app, stdoutLines };
}

type Listing = { logs: LogEntry[]; total: number };

describe("log ring", () => {
  it("keeps only the newest `capacity` entries and keeps the counts right", () => {
    const ring = new LogRing(3);
    for (let i = 1; i <= 5; i++) ring.append({ time: new Date().toISOString(), level: i % 2 ? "info" : "warn", msg: `m${i}` });
    assert.equal(ring.size, 3);
    assert.deepEqual(
      [...ring.newestFirst()].map((e) => e.msg),
      ["m5", "m4", "m3"],
    );
    assert.deepEqual(
      [...ring.newestFirst()].map((e) => e.id),
      [5, 4, 3],
    );
    assert.equal(ring.counts().info, 2);
    assert.equal(ring.counts().warn, 1);
    assert.deepEqual(
      ring.since(3).map((e) => e.id),
      [4, 5],
    );
  });

  it("defaults to 2000 entries and stays bounded", () => {
    const { ring, log } = setup();
    assert.equal(ring.capacity, 2000);
    for (let i = 0; i < 2100; i++) log.debug({ i }, "line");
    assert.equal(ring.size, 2000);
    assert.equal([...ring.newestFirst()][0]?.i, 2099);
  });

  it("stores the entry shape: id, ISO time, level label, msg, component and context", () => {
    const { ring, log } = setup();
    log.child({ component: "bridges" }).warn({ bridgeId: "b1" }, "bridge failed");
    const [entry] = [...ring.newestFirst()];
    assert.ok(entry);
    assert.equal(entry.level, "warn");
    assert.equal(entry.msg, "bridge failed");
    assert.equal(entry.component, "bridges");
    assert.equal(entry.bridgeId, "b1");
    assert.ok(!Number.isNaN(Date.parse(entry.time)));
    assert.equal(entry.name, undefined);
  });

  it("never stores or prints secrets", () => {
    const { ring, log, stdoutLines } = setup();
    log.info({ token: "s3cr3t", password: "x-pass-word", nested: { authorization: "Basic abc123==" } }, "connecting");
    const secrets = Object.fromEntries(REDACTED_KEYS.map((key) => [key, `value-of-${key}`]));
    log.warn(secrets, "all keys");
    log
      .child({ component: "ha" })
      .info({ request: { headers: { cookie: "session=abc" } }, data: { pin: "98765-pin" } }, "nested");
    const stored = JSON.stringify([...ring.newestFirst()]);
    const printed = stdoutLines.join("\n");
    assert.equal(stdoutLines.length, 3);
    for (const text of [stored, printed]) {
      for (const secret of ["s3cr3t", "x-pass-word", "abc123", "session=abc", "98765-pin", ...Object.values(secrets)]) {
        assert.ok(!text.includes(secret), `${secret} leaked`);
      }
      assert.match(text, /\[redacted\]/);
    }
  });
});

describe("GET /api/logs", () => {
  function filled() {
    const context = setup();
    context.log.info("hub started");
    context.log.child({ component: "home-assistant" }).warn("connection lost");
    context.log.error("Bridge Kitchen failed");
    context.log.debug("polling");
    return context;
  }

  it("lists newest first with a total, filters by level and search", async () => {
    const { app } = filled();
    const all = (await (await app.request("/api/logs")).json()) as Listing;
    assert.equal(all.total, 4);
    assert.deepEqual(
      all.logs.map((e) => e.msg),
      ["polling", "Bridge Kitchen failed", "connection lost", "hub started"],
    );
    const some = (await (await app.request("/api/logs?level=warn,ERROR")).json()) as Listing;
    assert.deepEqual(
      some.logs.map((e) => e.level),
      ["error", "warn"],
    );
    const byMessage = (await (await app.request("/api/logs?search=kitchen")).json()) as Listing;
    assert.deepEqual(
      byMessage.logs.map((e) => e.msg),
      ["Bridge Kitchen failed"],
    );
    const byComponent = (await (await app.request("/api/logs?search=HOME-ASS")).json()) as Listing;
    assert.deepEqual(
      byComponent.logs.map((e) => e.msg),
      ["connection lost"],
    );
    const limited = (await (await app.request("/api/logs?limit=1")).json()) as Listing;
    assert.equal(limited.logs.length, 1);
    assert.equal(limited.total, 4);
  });

  it("refuses a bad limit or an unknown level with exactly {error}", async () => {
    const { app } = filled();
    for (const query of ["limit=0", "limit=501", "limit=abc", "limit=1.5", "limit=-1", "level=info,verbose"]) {
      const response = await app.request(`/api/logs?${query}`);
      assert.equal(response.status, 400, query);
      const body = (await response.json()) as Record<string, unknown>;
      assert.deepEqual(Object.keys(body), ["error"], query);
      assert.equal(typeof body.error, "string");
    }
    const response = await app.request("/api/logs?level=verbose");
    assert.match(((await response.json()) as { error: string }).error, /unknown level "verbose"/);
    assert.equal((await app.request("/api/logs?limit=500")).status, 200);
  });

  it("counts per level and clears", async () => {
    const { app, log } = filled();
    const levels = (await (await app.request("/api/logs/levels")).json()) as { levels: Record<string, number>; total: number };
    assert.deepEqual(levels, { levels: { trace: 0, debug: 1, info: 1, warn: 1, error: 1, fatal: 0 }, total: 4 });
    const cleared = await app.request("/api/logs", { method: "DELETE" });
    assert.deepEqual(await cleared.json(), { cleared: 4 });
    assert.deepEqual(await (await app.request("/api/logs")).json(), { logs: [], total: 0 });
    log.info("after clear");
    const [entry] = ((await (await app.request("/api/logs")).json()) as Listing).logs;
    assert.equal(entry?.id, 5);
  });
});
