import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { HttpError } from "../../../lib/http-error.ts";
import type { Logger } from "../../../lib/logger.ts";

/**
 * The hub's one error handler: every failure leaves as `{error: <message>}` (hub spec, Errors). Expected errors
 * keep their status and message; unexpected ones are logged with their stack and answered with a generic 500.
 */
export function hubErrorHandler(log: Logger) {
  return (error: Error, c: Context) => {
    if (error instanceof HttpError) {
      for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
      return c.json({ error: error.message }, error.status);
    }
    if (error instanceof HTTPException) {
      // Hono's own 4xx (malformed JSON body, body limit): keep the status, use our shape.
      const message =
        error.status === 400 && /json/i.test(error.message) ? "Malformed JSON in request body" : error.message || "Bad request";
      return c.json({ error: message }, error.status);
    }
    log.error({ err: error, method: c.req.method, path: c.req.path }, "unhandled error");
    return c.json({ error: "Internal server error" }, 500);
  };
}

export function hubNotFound(c: Context) {
  return c.json({ error: `Not found: ${c.req.method} ${c.req.path}` }, 404);
}
