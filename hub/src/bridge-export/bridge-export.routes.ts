import { Hono } from "hono";
import * as v from "valibot";
import { validate } from "../../../lib/validate.ts";
import type { BridgeTransfer } from "./bridge-transfer.ts";
import { exportFileName } from "./export-format.ts";
import { ImportOptionsSchema } from "./import-plan.ts";

/** `data` is checked by the import itself, so that its problems are reported per bridge. */
const ImportBodySchema = v.object({
  data: v.custom<Record<string, unknown>>(
    (value) => typeof value === "object" && value !== null && !Array.isArray(value),
    "data must be an export object",
  ),
  options: v.optional(ImportOptionsSchema, {}),
});

/**
 * `/api/bridges`: export (JSON download) and import of bridge configurations with their entity mappings.
 * Mount: `app.route("/api/bridges", bridgeExportRoutes(transfer))`.
 */
export function bridgeExportRoutes(transfer: BridgeTransfer): Hono {
  const app = new Hono();

  const download = (body: unknown) =>
    new Response(`${JSON.stringify(body, null, 2)}\n`, {
      headers: {
        "Content-Type": "application/json; charset=utf-8",
        "Content-Disposition": `attachment; filename="${exportFileName()}"`,
        "Cache-Control": "no-store",
      },
    });

  app.get("/export", () => download(transfer.export()));
  app.get("/export/:bridgeId", (c) => download(transfer.export(c.req.param("bridgeId"))));

  app.post("/import/preview", validate("json", ImportBodySchema), (c) => {
    const { data, options } = c.req.valid("json");
    return c.json(transfer.preview(data, options));
  });

  app.post("/import", validate("json", ImportBodySchema), async (c) => {
    const { data, options } = c.req.valid("json");
    return c.json(await transfer.import(data, options));
  });

  return app;
}
