import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { HttpError } from "../../../lib/http-error.ts";

/** The fields of a multipart form: a text or a file, or a list of them when a name repeats. */
export type MultipartFields = Record<string, string | File | (string | File)[]>;

/**
 * Reads a `multipart/form-data` body for a route that accepts nothing else. Every way a body can be broken is the
 * client's fault and answers 400 with `usage` (what to send): another content type, a missing, empty or wrong
 * boundary, a part whose headers or content never end, a truncated body, a body cut off on the wire. The parser
 * (undici's, behind `parseBody`) reports all of these as one TypeError, which used to reach `onError` as a 500.
 * Size is not checked here: the body limit in http/app.ts answers 413 before the body is read.
 */
export async function readMultipartForm(c: Context, usage: string): Promise<MultipartFields> {
  const mediaType = (c.req.header("content-type") ?? "").split(";")[0]?.trim().toLowerCase();
  if (mediaType !== "multipart/form-data") throw new HttpError(400, usage);
  try {
    return await c.req.parseBody({ all: true });
  } catch (error) {
    if (error instanceof HttpError || error instanceof HTTPException) throw error;
    throw new HttpError(400, `Malformed multipart/form-data body. ${usage}`);
  }
}
