import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { describe, it } from "node:test";
import { Hono } from "hono";
import { createLogger } from "./logger.ts";
import { requestLog } from "./request-log.ts";

/** A logger writing JSON lines into an array. */
function capturingLogger() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { log: createLogger({ name: "test", level: "debug", destination }), lines };
}

describe("request log", () => {
  it("logs method, path without query, status and duration; health at debug; 5xx as errors", async () => {
    const { log, lines } = capturingLogger();
    const app = new Hono();
    app.use(requestLog(log));
    app.get("/api/things", (c) => c.json([]));
    app.get("/api/health", (c) => c.json({ ok: true }));
    app.get("/api/broken", (c) => c.json({ error: "x" }, 500));
    await app.request("/api/things?token=abc123");
    await app.request("/api/health");
    await app.request("/api/broken");
    await new Promise((resolve) => setImmediate(resolve));
    const requests = lines.filter((l) => typeof l.path === "string");
    assert.deepEqual(
      requests.map(({ level, method, path, status }) => ({ level, method, path, status })),
      [
        { level: "info", method: "GET", path: "/api/things", status: 200 },
        { level: "debug", method: "GET", path: "/api/health", status: 200 },
        { level: "error", method: "GET", path: "/api/broken", status: 500 },
      ],
    );
    assert.ok(requests.every((l) => typeof l.ms === "number"));
    assert.ok(!JSON.stringify(lines).includes("abc123"), "the query never reaches the log");
  });

  it("leaves the redaction of every other line in place", async () => {
    const { log, lines } = capturingLogger();
    const app = new Hono();
    app.use(requestLog(log));
    app.get("/api/things", (c) => c.json([]));
    await app.request("/api/things");
    log.info({ token: "s3cret", nested: { password: "hunter2" } }, "something else");
    await new Promise((resolve) => setImmediate(resolve));
    assert.ok(lines.some((l) => l.path === "/api/things"));
    const other = lines.find((l) => l.msg === "something else");
    assert.deepEqual(other?.token, "[redacted]");
    assert.deepEqual(other?.nested, { password: "[redacted]" });
  });
});
