import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { HttpError } from "../../../lib/http-error.ts";
import type { Logger } from "../../../lib/logger.ts";

/**
 * The portal's one error envelope, `{success: false, error, errorCode}`: the shape the spec fixes for
 * `POST /api/register`, used for every endpoint so clients handle one shape (docs/decisions.md).
 */
export function portalErrorBody(error: string, errorCode: string) {
  return { success: false as const, error, errorCode };
}

export function portalErrorHandler(log: Logger) {
  return (error: Error, c: Context) => {
    if (error instanceof HttpError) {
      for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
      return c.json(portalErrorBody(error.message, error.code), error.status);
    }
    if (error instanceof HTTPException) {
      const message =
        error.status === 400 && /json/i.test(error.message) ? "Malformed JSON in request body" : error.message || "Bad request";
      return c.json(portalErrorBody(message, error.status === 413 ? "PAYLOAD_TOO_LARGE" : "BAD_REQUEST"), error.status);
    }
    log.error({ err: error, method: c.req.method, path: c.req.path }, "unhandled error");
    return c.json(portalErrorBody("Internal server error", "INTERNAL_ERROR"), 500);
  };
}

export function portalNotFound(c: Context) {
  return c.json(portalErrorBody(`Not found: ${c.req.method} ${c.req.path}`, "NOT_FOUND"), 404);
}
