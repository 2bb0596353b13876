import type { Context } from "hono";
import { streamSSE } from "hono/streaming";
import type { LogLevel } from "../../../lib/logger.ts";
import type { LogEntry, LogRing } from "./log-ring.ts";

export interface LogStreamOptions {
  /** Only entries of these levels; all when absent. */
  levels?: ReadonlySet<LogLevel> | undefined;
  /** Interval of the `: ping` comment that keeps proxies (HA ingress, nginx) from closing an idle stream. */
  heartbeatMs: number;
  /** The client's `Last-Event-ID`: entries still in the ring after it are sent first. */
  lastEventId?: number | undefined;
}

/**
 * Entries waiting to be written to one client. A client that reads slower than the hub logs would otherwise make
 * this queue grow without bound; beyond it entries are dropped and the client is told how many in a comment.
 */
export const MAX_PENDING_ENTRIES = 1000;

/**
 * Streams new log entries as Server-Sent Events: one `data:` message per entry (JSON, default event name, the
 * entry id as `id:`), heartbeat comments, and the ring subscription removed as soon as the client goes away or the
 * ring closes its subscriptions at shutdown.
 */
export function streamLogs(c: Context, ring: LogRing, options: LogStreamOptions): Response {
  // Tells nginx-style proxies (HA ingress is one) not to buffer the stream.
  c.header("X-Accel-Buffering", "no");
  const response = streamSSE(c, async (stream) => {
    let chain: Promise<unknown> = Promise.resolve();
    let pending = 0;
    let dropped = 0;
    const enqueue = (write: () => Promise<unknown>) => {
      pending++;
      chain = chain.then(write).finally(() => pending--);
    };
    const send = (entry: LogEntry) => {
      if (options.levels && !options.levels.has(entry.level)) return;
      if (pending >= MAX_PENDING_ENTRIES) {
        dropped++;
        return;
      }
      enqueue(async () => {
        if (dropped > 0) {
          const count = dropped;
          dropped = 0;
          await stream.write(`: dropped ${count} entries\n\n`);
        }
        await stream.writeSSE({ id: String(entry.id), data: JSON.stringify(entry) });
      });
    };

    let aborted = false;
    await new Promise<void>((resolve) => {
      let unsubscribe = () => {};
      const heartbeat = setInterval(() => enqueue(() => stream.write(": ping\n\n")), options.heartbeatMs);
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        clearInterval(heartbeat);
        unsubscribe();
        resolve();
      };
      const onAbort = () => {
        aborted = true;
        finish();
      };
      stream.onAbort(onAbort);
      c.req.raw.signal.addEventListener("abort", onAbort, { once: true });
      // A first comment gets the response head and a first chunk through any buffering at once.
      enqueue(() => stream.write(": connected\n\n"));
      const backlog = options.lastEventId === undefined ? [] : ring.since(options.lastEventId);
      unsubscribe = ring.subscribe({ onEntry: send, onClose: finish });
      for (const entry of backlog) send(entry);
      if (stream.aborted || c.req.raw.signal.aborted) onAbort();
    });
    // Closed by the server (not the client): let what is queued go out before the stream ends.
    if (!aborted) await chain;
  });
  // streamSSE asks for keep-alive; a socket left idle after a stream that the server ended at shutdown would hold
  // `server.close()` until its forced close. An SSE connection is not worth reusing: close it with the stream.
  response.headers.set("Connection", "close");
  return response;
}
