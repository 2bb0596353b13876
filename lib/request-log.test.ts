import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { Hono } from "hono";
import { createLogger } from "./logger.ts";
import { requestLog } from "./request-log.ts";

/** A logger writing JSON lines into an array. */
function capturingLogger(level: "debug" | "info" = "debug") {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { log: createLogger({ name: "test", level, destination }), lines };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("request log", () => {
  it("logs method, path without query, status and duration: debug when fine, info when refused, error when failed", async () => {
    const { log, lines } = capturingLogger();
    const app = new Hono();
    app.use(requestLog(log));
    app.get("/api/things", (c) => c.json([]));
    app.get("/api/health", (c) => c.json({ ok: true }));
    app.get("/api/broken", (c) => c.json({ error: "x" }, 500));
    app.get("/api/login", (c) => c.json({ error: "Authentication required" }, 401));
    app.get("/api/foreign", (c) => c.json({ error: "Forbidden" }, 403));
    app.get("/api/braked", (c) => c.json({ error: "Too many" }, 429));
    app.get("/api/invalid", (c) => c.json({ error: "bad" }, 400));
    for (const path of ["/api/things?token=abc123", "/api/health", "/api/broken", "/api/login", "/api/foreign"]) {
      await app.request(path);
    }
    await app.request("/api/braked");
    await app.request("/api/invalid");
    await app.request("/api/missing");
    await app.request("/bridges/x");
    await settle();
    const requests = lines.filter((l) => typeof l.path === "string");
    assert.deepEqual(
      requests.map(({ level, msg, path, status }) => ({ level, msg, path, status })),
      [
        { level: "debug", msg: "request", path: "/api/things", status: 200 },
        { level: "debug", msg: "request", path: "/api/health", status: 200 },
        { level: "error", msg: "request failed", path: "/api/broken", status: 500 },
        { level: "info", msg: "request refused", path: "/api/login", status: 401 },
        { level: "info", msg: "request refused", path: "/api/foreign", status: 403 },
        { level: "info", msg: "request refused", path: "/api/braked", status: 429 },
        { level: "debug", msg: "request", path: "/api/invalid", status: 400 },
        { level: "debug", msg: "request", path: "/api/missing", status: 404 },
        { level: "debug", msg: "request", path: "/bridges/x", status: 404 },
      ],
    );
    assert.ok(requests.every((l) => typeof l.ms === "number" && l.method === "GET"));
    assert.ok(!JSON.stringify(lines).includes("abc123"), "the query never reaches the log");
  });

  it("logs a slow request at info, and nothing for fine requests at the default level", async () => {
    const { log, lines } = capturingLogger("info");
    const app = new Hono();
    app.use(requestLog(log, { slowMs: 10 }));
    app.get("/api/slow", async (c) => {
      await sleep(40);
      return c.json([]);
    });
    app.get("/api/fast", (c) => c.json([]));
    await app.request("/api/slow");
    await app.request("/api/fast");
    await settle();
    assert.deepEqual(
      lines.map(({ level, msg, path }) => ({ level, msg, path })),
      [{ level: "info", msg: "slow request", path: "/api/slow" }],
    );
    assert.ok(Number(lines[0]?.ms) > 10);
  });

  it("leaves the redaction of every other line in place", async () => {
    const { log, lines } = capturingLogger();
    const app = new Hono();
    app.use(requestLog(log));
    app.get("/api/things", (c) => c.json([]));
    await app.request("/api/things");
    log.info({ token: "s3cret", nested: { password: "hunter2" } }, "something else");
    await settle();
    assert.ok(lines.some((l) => l.path === "/api/things"));
    const other = lines.find((l) => l.msg === "something else");
    assert.deepEqual(other?.token, "[redacted]");
    assert.deepEqual(other?.nested, { password: "[redacted]" });
  });
});
