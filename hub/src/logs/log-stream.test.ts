import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Hono } from "hono";
import { type RunningHttpServer, startHttpServer } from "../../../lib/http-server.ts";
import { memoryLogger } from "../../../lib/testing/fixtures.ts";
import { until } from "../../../lib/testing/polling.ts";
import { hubErrorHandler } from "../http/errors.ts";
import { createHubLogger } from "./hub-logger.ts";
import { LogRing } from "./log-ring.ts";
import { logsRoutes } from "./logs.routes.ts";

/** Reads an SSE response until `done(text)` holds, or fails after `timeoutMs`. */
async function readUntil(response: Response, done: (text: string) => boolean, timeoutMs = 1000): Promise<string> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  const deadline = Date.now() + timeoutMs;
  try {
    while (!done(text)) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out; got ${JSON.stringify(text)}`);
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`timed out; got ${JSON.stringify(text)}`)), left);
      });
      const chunk = await Promise.race([reader.read(), timeout]).finally(() => clearTimeout(timer));
      if (chunk.done) break;
      text += decoder.decode(chunk.value, { stream: true });
    }
  } finally {
    reader.releaseLock();
  }
  return text;
}

const dataMessages = (text: string) =>
  text
    .split("\n\n")
    .flatMap((block) => block.split("\n").filter((line) => line.startsWith("data: ")))
    .map((line) => JSON.parse(line.slice(6)) as { id: number; msg: string; level: string });

describe("GET /api/logs/stream (SSE over a real server)", () => {
  const ring = new LogRing();
  const log = createHubLogger({ level: "debug", ring, stdout: { write() {} } });
  let server: RunningHttpServer;
  let base: string;

  before(async () => {
    const app = new Hono();
    app.onError(hubErrorHandler(memoryLogger().log));
    app.route("/api/logs", logsRoutes(ring, { heartbeatMs: 100 }));
    server = await startHttpServer({ app, host: "127.0.0.1", port: 0, log: memoryLogger().log });
    base = `http://127.0.0.1:${server.port}/api/logs/stream`;
  });

  after(async () => {
    ring.close();
    await server.close();
  });

  it("streams a new entry within 1 s, with SSE headers and no Content-Length", async () => {
    const controller = new AbortController();
    const response = await fetch(base, { signal: controller.signal });
    assert.equal(response.status, 200);
    assert.match(response.headers.get("content-type") ?? "", /^text\/event-stream/);
    assert.equal(response.headers.get("cache-control"), "no-cache");
    assert.equal(response.headers.get("x-accel-buffering"), "no");
    assert.equal(response.headers.get("content-length"), null);
    await until("one stream subscriber", () => ring.subscriberCount === 1, 1000);
    const started = Date.now();
    log.child({ component: "test" }).info({ token: "hidden-token" }, "hello stream");
    const text = await readUntil(response, (t) => t.includes("hello stream"));
    assert.ok(Date.now() - started < 1000);
    const [entry] = dataMessages(text);
    assert.equal(entry?.msg, "hello stream");
    assert.match(text, new RegExp(`\\nid: ${entry?.id}\\n`));
    assert.doesNotMatch(text, /hidden-token|event:/);
    controller.abort();
  });

  it("sends heartbeat comments", async () => {
    const controller = new AbortController();
    const response = await fetch(base, { signal: controller.signal });
    const text = await readUntil(response, (t) => (t.match(/^: ping$/gm) ?? []).length >= 2);
    assert.ok((text.match(/^: ping$/gm) ?? []).length >= 2);
    controller.abort();
  });

  it("filters by level and releases the subscription when the client aborts", async () => {
    await until("no stream subscriber", () => ring.subscriberCount === 0, 1000);
    const controller = new AbortController();
    const response = await fetch(`${base}?level=error`, { signal: controller.signal });
    await until("one stream subscriber", () => ring.subscriberCount === 1, 1000);
    log.info("not wanted");
    log.error("wanted");
    const text = await readUntil(response, (t) => t.includes("wanted"));
    assert.deepEqual(
      dataMessages(text).map((e) => e.msg),
      ["wanted"],
    );
    controller.abort();
    await until("no stream subscriber", () => ring.subscriberCount === 0, 1000);
  });

  it("replays entries after Last-Event-ID, and refuses an unknown level", async () => {
    log.warn("first");
    const firstId = [...ring.newestFirst()][0]!.id;
    log.warn("second");
    const controller = new AbortController();
    const response = await fetch(base, { signal: controller.signal, headers: { "Last-Event-ID": String(firstId) } });
    const text = await readUntil(response, (t) => t.includes("second"));
    assert.deepEqual(
      dataMessages(text).map((e) => e.msg),
      ["second"],
    );
    controller.abort();
    const bad = await fetch(`${base}?level=loud`);
    assert.equal(bad.status, 400);
    assert.deepEqual(Object.keys((await bad.json()) as object), ["error"]);
  });

  it("ends open streams when the ring closes its subscriptions", async () => {
    await until("no stream subscriber", () => ring.subscriberCount === 0, 1000);
    const response = await fetch(base);
    await until("one stream subscriber", () => ring.subscriberCount === 1, 1000);
    const closing = readUntil(response, () => false, 1000).catch((error: Error) => error);
    ring.close();
    const result = await closing;
    assert.equal(typeof result, "string", "the stream should end, not time out");
    assert.equal(ring.subscriberCount, 0);
  });
});
