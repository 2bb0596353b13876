import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";

/** The Matrix error codes the simulator answers with (names as in Synapse's `synapse/api/errors.py` `Codes`). */
export const Codes = {
  UNKNOWN: "M_UNKNOWN",
  UNRECOGNIZED: "M_UNRECOGNIZED",
  NOT_JSON: "M_NOT_JSON",
  BAD_JSON: "M_BAD_JSON",
  MISSING_PARAM: "M_MISSING_PARAM",
  INVALID_PARAM: "M_INVALID_PARAM",
  NOT_FOUND: "M_NOT_FOUND",
  FORBIDDEN: "M_FORBIDDEN",
  UNAUTHORIZED: "M_UNAUTHORIZED",
  MISSING_TOKEN: "M_MISSING_TOKEN",
  UNKNOWN_TOKEN: "M_UNKNOWN_TOKEN",
  LIMIT_EXCEEDED: "M_LIMIT_EXCEEDED",
  USER_IN_USE: "M_USER_IN_USE",
  INVALID_USERNAME: "M_INVALID_USERNAME",
  EXCLUSIVE: "M_EXCLUSIVE",
  APPSERVICE_LOGIN_UNSUPPORTED: "M_APPSERVICE_LOGIN_UNSUPPORTED",
} as const;

/**
 * Synapse's `SynapseError`: an HTTP status, an errcode (default `M_UNKNOWN`, as in Synapse), a message, extra body
 * fields and headers. The server's error handler renders it as `{errcode, error, ...extra}`.
 */
export class MatrixError extends Error {
  override name = "MatrixError";
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
    readonly errcode: string = Codes.UNKNOWN,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  body(): Record<string, unknown> {
    return { errcode: this.errcode, error: this.message, ...this.extra };
  }
}

/**
 * A `LoginError` raised by a UIA stage checker. Synapse never sends its status: `AuthHandler.check_ui_auth` merges
 * `{errcode, error}` into the 401 UIA body so the client can try the stage again.
 */
export class StageError extends Error {
  override name = "StageError";
  constructor(
    message: string,
    readonly errcode: string,
  ) {
    super(message);
  }
}

/** `InteractiveAuthIncompleteError` (synapse/api/errors.py): answered as 401 with the UIA body. */
export class UiaIncomplete extends Error {
  override name = "UiaIncomplete";
  constructor(
    readonly sessionId: string,
    readonly body: Record<string, unknown>,
  ) {
    super("Interactive auth not yet complete");
  }
}

/** `UnrecognizedRequestError`: 404 for an unknown path, 405 for a known path with another method (synapse/http/server.py). */
export const unrecognized = (status: 404 | 405 | 400 = 404, message = "Unrecognized request") =>
  new MatrixError(status, message, Codes.UNRECOGNIZED);

/** `LimitExceededError`: `retry_after_ms` in the body and `Retry-After` in whole seconds, rounded up. */
export function limitExceeded(retryAfterMs: number): MatrixError {
  return new MatrixError(
    429,
    "Too Many Requests",
    Codes.LIMIT_EXCEEDED,
    { retry_after_ms: retryAfterMs },
    {
      "Retry-After": String(Math.ceil(retryAfterMs / 1000)),
    },
  );
}

/** `MissingClientTokenError` (401 M_MISSING_TOKEN) with Synapse's messages. */
export const missingToken = (message = "Missing access token") => new MatrixError(401, message, Codes.MISSING_TOKEN);

/**
 * `InvalidClientTokenError`, with the message the internal auth uses for an unknown token (the class default,
 * "Unrecognised access token", is what appservice registration raises). Synapse adds `soft_logout`.
 */
export const unknownToken = (message = "Invalid access token passed.") =>
  new MatrixError(401, message, Codes.UNKNOWN_TOKEN, { soft_logout: false });

/** The CORS headers Synapse's `set_cors_headers` puts on every response (synapse/http/server.py). */
export const CORS_HEADERS: Record<string, string> = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "GET, HEAD, POST, PUT, DELETE, OPTIONS",
  "Access-Control-Allow-Headers": "X-Requested-With, Content-Type, Authorization, Date",
};

/** The app's `onError`: Matrix errors as Synapse renders them, anything else as Synapse's 500 `M_UNKNOWN`. */
export function matrixErrorHandler(error: Error, c: Context): Response {
  if (error instanceof UiaIncomplete) return c.json(error.body, 401);
  if (error instanceof MatrixError) {
    for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
    return c.json(error.body(), error.status);
  }
  return c.json({ errcode: Codes.UNKNOWN, error: "Internal server error" }, 500);
}
