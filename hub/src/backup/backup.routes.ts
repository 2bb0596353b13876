import { Readable } from "node:stream";
import type { Context, MiddlewareHandler } from "hono";
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import * as v from "valibot";
import { badRequest, HttpError } from "../../../lib/http-error.ts";
import type { Logger } from "../../../lib/logger.ts";
import { parseOr400 } from "../../../lib/validate.ts";
import { readMultipartForm } from "../http/multipart-form.ts";
import type { BackupService, RestoreOptions } from "./backup-service.ts";

export interface BackupRoutesOptions {
  service: BackupService;
  /** Restarts the hub (main.ts: the `restartable` helper); called after the 202 has been sent. */
  requestRestart: () => unknown;
  log: Logger;
  /** Delay between answering `/restart` and restarting, so that the answer leaves first. */
  restartDelayMs?: number;
}

const RestoreOptionsSchema = v.strictObject({
  includeIdentity: v.optional(v.boolean()),
  includeLockPins: v.optional(v.boolean()),
  allowLocalPlugins: v.optional(v.boolean()),
});
const MULTIPART_OVERHEAD = 1024 * 1024;
/** `file` and `options`, with room for a client's extra fields. */
const UPLOAD_FORM_LIMITS = { maxParts: 8, maxHeaderBytes: 8 * 1024 };

/**
 * `/api/backup`: download (ZIP), restore preview, restore (multipart `file` and `options`), restart.
 * Mount: `app.route("/api/backup", backupRoutes({...}))`.
 */
export function backupRoutes(options: BackupRoutesOptions): Hono {
  const { service, log } = options;
  const app = new Hono();
  const upload = bodyLimit({
    maxSize: service.limits.maxArchiveBytes + MULTIPART_OVERHEAD,
    onError: (c) => c.json({ error: `Invalid backup: the upload is larger than ${service.limits.maxArchiveBytes} bytes` }, 400),
  });

  app.get("/download", async (c) => {
    const includeIdentity = booleanQuery(c.req.query("includeIdentity"), "includeIdentity");
    const includeLockPins = booleanQuery(c.req.query("includeLockPins"), "includeLockPins");
    const { fileName, stream } = await service.download({ includeIdentity, includeLockPins });
    return new Response(Readable.toWeb(stream) as ReadableStream, {
      headers: {
        "Content-Type": "application/zip",
        "Content-Disposition": `attachment; filename="${fileName}"`,
        "Cache-Control": "no-store",
      },
    });
  });

  app.post("/restore/preview", upload, async (c) => {
    const { zip, restoreOptions } = await readUpload(c, service.limits.maxArchiveBytes);
    return c.json(await service.preview(zip, restoreOptions));
  });

  app.post("/restore", upload, async (c) => {
    const { zip, restoreOptions } = await readUpload(c, service.limits.maxArchiveBytes);
    return c.json(await service.restore(zip, restoreOptions));
  });

  app.post("/restart", (c) => {
    setTimeout(() => {
      Promise.resolve()
        .then(options.requestRestart)
        .catch((error: unknown) => log.error({ err: error }, "restart failed"));
    }, options.restartDelayMs ?? 200).unref();
    return c.json({ restarting: true }, 202);
  });

  return app;
}

/**
 * Refuses changes (anything but GET/HEAD/OPTIONS outside `/api/backup/`) after a restore until the restart: the
 * running services still hold the old state in memory and would write it over the restored files.
 */
export function restartPendingGuard(service: BackupService): MiddlewareHandler {
  return async (c, next) => {
    const reading = c.req.method === "GET" || c.req.method === "HEAD" || c.req.method === "OPTIONS";
    if (service.restartPending && !reading && !c.req.path.startsWith("/api/backup/")) {
      throw new HttpError(503, "A backup was restored: restart the hub (POST /api/backup/restart) before changing anything");
    }
    await next();
  };
}

async function readUpload(c: Context, maxBytes: number): Promise<{ zip: Buffer; restoreOptions: RestoreOptions }> {
  // Bounded before parsing: a 50 MB body of a million tiny parts froze the hub for minutes (docs/http-edge.md).
  const form = await readMultipartForm(c, UPLOAD_FORM_LIMITS);
  const body = { file: form.get("file"), options: form.get("options") ?? undefined };
  const file = body.file;
  if (!(file instanceof File) || form.getAll("file").length > 1) {
    throw badRequest("Expected multipart/form-data with a field file (the backup ZIP)");
  }
  if (file.size > maxBytes) throw badRequest(`Invalid backup: the archive is larger than ${maxBytes} bytes`);
  let restoreOptions: unknown = {};
  if (typeof body.options === "string" && body.options.trim() !== "") {
    try {
      restoreOptions = JSON.parse(body.options);
    } catch {
      throw badRequest('options must be JSON, e.g. {"includeIdentity": true}');
    }
  } else if (body.options !== undefined && typeof body.options !== "string")
    throw badRequest("options must be a JSON text field");
  return {
    zip: Buffer.from(await file.arrayBuffer()),
    restoreOptions: parseOr400(RestoreOptionsSchema, restoreOptions, "options"),
  };
}

function booleanQuery(value: string | undefined, name: string): boolean {
  if (value === undefined || value === "" || value === "false") return false;
  if (value === "true") return true;
  throw badRequest(`${name} must be true or false`);
}
