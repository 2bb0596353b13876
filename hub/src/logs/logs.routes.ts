import { Hono } from "hono";
import * as v from "valibot";
import { LOG_LEVELS, type LogLevel } from "../../../lib/logger.ts";
import { validate } from "../../../lib/validate.ts";
import type { LogRing } from "./log-ring.ts";
import { streamLogs } from "./log-stream.ts";

const isLevel = (value: string): value is LogLevel => (LOG_LEVELS as readonly string[]).includes(value);

/** `level=warn,error`: a comma-separated list of level names; an unknown name is a 400, empty items are ignored. */
const levelList = v.optional(
  v.pipe(
    v.string(),
    v.transform((value) =>
      value
        .split(",")
        .map((part) => part.trim().toLowerCase())
        .filter(Boolean),
    ),
    v.check(
      (names) => names.every(isLevel),
      (issue) => {
        const unknown = (issue.input as string[]).filter((name) => !isLevel(name));
        return `unknown level ${unknown.map((name) => `"${name.slice(0, 20)}"`).join(", ")}; use ${LOG_LEVELS.join(", ")}`;
      },
    ),
    v.transform((names) => (names.length > 0 ? new Set(names as LogLevel[]) : undefined)),
  ),
);

/** `limit` 1-500, default 100 (hub spec, Limits). */
const limit = v.optional(
  v.pipe(
    v.string(),
    v.regex(/^\d{1,6}$/, "must be an integer"),
    v.transform(Number),
    v.minValue(1, "must be at least 1"),
    v.maxValue(500, "must be at most 500"),
  ),
  "100",
);

const LogsQuery = v.object({
  level: levelList,
  search: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(200, "must be at most 200 characters"))),
  limit,
});
const StreamQuery = v.object({ level: levelList });

export interface LogsRoutesOptions {
  /** Interval of the SSE heartbeat comment; 15 s by default, shorter in tests. */
  heartbeatMs?: number;
}

/** `/api/logs`: the in-memory ring of recent log lines, with filters, per-level counts, clearing and a live stream. */
export function logsRoutes(ring: LogRing, options: LogsRoutesOptions = {}): Hono {
  const app = new Hono();
  const heartbeatMs = options.heartbeatMs ?? 15_000;

  app.get("/", validate("query", LogsQuery), (c) => {
    const { level, search, limit } = c.req.valid("query");
    return c.json(ring.find({ levels: level, search: search || undefined, limit }));
  });

  app.get("/levels", (c) => c.json({ levels: ring.counts(), total: ring.size }));

  app.delete("/", (c) => c.json({ cleared: ring.clear() }));

  app.get("/stream", validate("query", StreamQuery), (c) => {
    // An EventSource that reconnects sends the last id it saw: resume from there instead of losing lines.
    const lastEventId = c.req.header("Last-Event-ID")?.trim() ?? "";
    return streamLogs(c, ring, {
      levels: c.req.valid("query").level,
      heartbeatMs,
      lastEventId: /^\d{1,15}$/.test(lastEventId) ? Number(lastEventId) : undefined,
    });
  });

  return app;
}
