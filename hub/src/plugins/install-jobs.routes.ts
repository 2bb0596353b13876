/**
 * `/api/plugins/installs`: installs as jobs with progress and cancel, an addition to the spec's synchronous
 * `POST install` and `POST upload` (which keep their contract; docs/plugins.md "Install progress, cancel and
 * failures"). Progress streams as Server-Sent Events, as `/api/logs/stream` does: one-way, per job, resumable with
 * `Last-Event-ID`, and it passes the ingress proxy like any GET.
 */
import type { Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { streamSSE } from "hono/streaming";
import * as v from "valibot";
import { conflict, HttpError, notFound } from "../../../lib/http-error.ts";
import { validate } from "../../../lib/validate.ts";
import { InstallJobConflict, type InstallJobMessage, type InstallJobView } from "./install-jobs.ts";
import { parsePackageSpec } from "./installer.ts";
import { PluginPackageError } from "./manifest.ts";
import type { PluginService } from "./plugin-service.ts";

const PackageSchema = v.object({ packageName: v.pipe(v.string(), v.trim(), v.nonEmpty("packageName must not be empty")) });
/** Keeps ingress proxies from closing a stream while npm is quiet (a large download). */
const HEARTBEAT_MS = 15_000;
/** How an upload job names its archive: the client's `?file=` (its file name), cut to something printable. */
const fileNameOf = (c: Context) =>
  (c.req.query("file") ?? "upload.tgz")
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is left out
    .replace(/[\u0000-\u001f\u007f]/g, "")
    .slice(0, 200) || "upload.tgz";

/** The list leaves out each job's lines and details: `GET installs/:id` has them. */
const summary = (job: InstallJobView) => ({
  ...job,
  events: job.events.slice(-1),
  error: job.error ? { ...job.error, details: null } : null,
});

/** Reads an upload body the way `POST upload` does (same limit, type and emptiness checks). */
export function uploadBody(plugins: PluginService) {
  return bodyLimit({
    maxSize: plugins.uploadLimitBytes,
    onError: () => {
      throw new HttpError(413, `The archive is larger than ${plugins.uploadLimitBytes} bytes`);
    },
  });
}
export async function readArchive(c: Context): Promise<Uint8Array> {
  const type = c.req.header("content-type")?.split(";")[0]?.trim().toLowerCase();
  if (type !== "application/octet-stream") {
    throw new HttpError(415, "Send the .tgz as the raw request body with Content-Type: application/octet-stream");
  }
  const archive = new Uint8Array(await c.req.arrayBuffer());
  if (archive.length === 0) throw new HttpError(400, "The request body is empty");
  return archive;
}

export function installJobRoutes(app: Hono, plugins: PluginService): void {
  const { catalog, installs } = plugins;

  app.post("/installs", validate("json", PackageSchema), (c) => {
    const spec = c.req.valid("json").packageName;
    try {
      parsePackageSpec(spec);
    } catch (error) {
      if (error instanceof PluginPackageError) throw new HttpError(400, error.message);
      throw error;
    }
    const { id } = installs.start({ type: "registry", spec }, (watch) => catalog.install(spec, watch));
    return c.json(installs.get(id), 202);
  });
  app.post("/installs/upload", uploadBody(plugins), async (c) => {
    const archive = await readArchive(c);
    const source = { type: "upload" as const, file: fileNameOf(c), bytes: archive.length };
    const { id } = installs.start(source, (watch) => catalog.upload(archive, watch));
    return c.json(installs.get(id), 202);
  });
  app.get("/installs", (c) => c.json({ installs: installs.list().map(summary) }));
  app.get("/installs/:id", (c) => {
    const job = installs.get(c.req.param("id"));
    if (!job) throw notFound(`No installation ${c.req.param("id")} (the hub keeps the last ones until it restarts)`);
    return c.json(job);
  });
  app.delete("/installs/:id", async (c) => {
    try {
      const job = await installs.cancel(c.req.param("id"));
      if (!job) throw notFound(`No installation ${c.req.param("id")}`);
      return c.json(job);
    } catch (error) {
      if (error instanceof InstallJobConflict) throw conflict(error.message);
      throw error;
    }
  });
  app.get("/installs/:id/events", (c) => {
    const id = c.req.param("id");
    if (!installs.get(id)) throw notFound(`No installation ${id}`);
    const after = Number.parseInt(c.req.header("last-event-id") ?? c.req.query("after") ?? "0", 10);
    c.header("X-Accel-Buffering", "no");
    const response = streamSSE(c, async (stream) => {
      let chain: Promise<unknown> = Promise.resolve();
      const enqueue = (write: () => Promise<unknown>) => {
        chain = chain.then(write).catch(() => undefined);
      };
      await new Promise<void>((resolve) => {
        let unfollow: (() => void) | undefined;
        const heartbeat = setInterval(() => enqueue(() => stream.write(": ping\n\n")), HEARTBEAT_MS);
        const finish = () => {
          clearInterval(heartbeat);
          unfollow?.();
          resolve();
        };
        stream.onAbort(finish);
        c.req.raw.signal.addEventListener("abort", finish, { once: true });
        enqueue(() => stream.write(": connected\n\n"));
        const send = (message: InstallJobMessage) => {
          if (message.type === "progress") {
            const { event } = message;
            enqueue(() => stream.writeSSE({ id: String(event.seq), event: "progress", data: JSON.stringify(event) }));
          } else {
            enqueue(() => stream.writeSSE({ event: "end", data: JSON.stringify(message.job) }));
            enqueue(async () => finish());
          }
        };
        unfollow = installs.follow(id, Number.isFinite(after) ? after : 0, send);
      });
      await chain;
    });
    // An ended stream's socket is not worth reusing (see log-stream.ts).
    response.headers.set("Connection", "close");
    return response;
  });
}
