import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { HttpError } from "../../../lib/http-error.ts";

/** JSON bodies: the largest real one (a filter preview with 400 rules of 500 characters) is about 250 KB. */
export const MAX_JSON_BODY_BYTES = 1024 * 1024;
/**
 * Bridge imports carry an export file: about 215 bytes per entity mapping as exported (pretty-printed), so 16 MiB
 * holds some 75 000 mappings, fifteen times the per-bridge maximum and more than any Home Assistant has entities.
 */
export const MAX_IMPORT_BODY_BYTES = 16 * 1024 * 1024;

/** Routes whose body is not JSON: they check its type and size themselves (backup.routes.ts, plugins.routes.ts). */
const UPLOAD_ROUTES = /^\/api\/(?:backup\/restore(?:\/preview)?|plugins\/(?:installs\/)?upload)\/?$/;
const IMPORT_ROUTES = /^\/api\/bridges\/import(?:\/preview)?\/?$/;
/** The media types Hono's JSON validator reads (anything else would be validated as `{}`). */
const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json$/i;
const BODYLESS_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

const limit = (maxSize: number) =>
  bodyLimit({
    maxSize,
    onError: () => {
      throw new HttpError(413, `Request body larger than ${maxSize} bytes`);
    },
  });

function carriesBody(c: Context): boolean {
  const length = c.req.header("content-length");
  return c.req.header("transfer-encoding") !== undefined || (length !== undefined && length !== "0");
}

/**
 * Request bodies of the API (issue 16 items 2 and 4; docs/http-edge.md), before any route reads one:
 * - every route but the uploads takes JSON: another `Content-Type` (the `text/plain` of a cross-site form, or a
 *   body without any type, which the validator would silently read as `{}`) is 415;
 * - JSON bodies stop at 1 MiB, bridge imports at 16 MiB: 413 from `Content-Length` without reading a byte, or while
 *   streaming one without it.
 */
export function jsonBodies(): MiddlewareHandler {
  const json = limit(MAX_JSON_BODY_BYTES);
  const imports = limit(MAX_IMPORT_BODY_BYTES);
  return async (c, next) => {
    if (BODYLESS_METHODS.has(c.req.method) || UPLOAD_ROUTES.test(c.req.path)) return next();
    const type = c.req.header("content-type");
    const mediaType = type?.split(";")[0]?.trim() ?? "";
    if (type !== undefined ? !JSON_MEDIA_TYPE.test(mediaType) : carriesBody(c)) {
      throw new HttpError(415, "This endpoint takes JSON: send the body with Content-Type: application/json");
    }
    return (IMPORT_ROUTES.test(c.req.path) ? imports : json)(c, next);
  };
}
