import type { Context } from "hono";
import { badRequest } from "../../../lib/http-error.ts";

export interface MultipartLimits {
  /** Parts accepted; the platform parser's time grows faster than the number of parts (1 M tiny parts: 20 s). */
  maxParts: number;
  /** Bytes of one part's header block. */
  maxHeaderBytes: number;
}

/** RFC 2046: 1-70 characters of `bchars`, not ending in a space; quoted or not. */
const BOUNDARY =
  /;\s*boundary=(?:"([0-9A-Za-z'()+_,\-./:=? ]{0,69}[0-9A-Za-z'()+_,\-./:=?])"|([0-9A-Za-z'()+_\-./:=?]{1,70}))\s*(?:;|$)/i;

function boundaryOf(contentType: string): string | undefined {
  if (contentType.split(";")[0]?.trim().toLowerCase() !== "multipart/form-data") return undefined;
  const match = BOUNDARY.exec(contentType);
  return match?.[1] ?? match?.[2];
}

/**
 * Walks the part delimiters once (Buffer.indexOf, linear) and refuses more parts or longer part headers than allowed,
 * or a body whose closing delimiter never comes, before the platform parser spends time on it.
 */
function checkFraming(body: Buffer, boundary: string, limits: MultipartLimits): void {
  const delimiter = Buffer.from(`--${boundary}`);
  const next = Buffer.from(`\r\n--${boundary}`);
  let at = body.indexOf(delimiter);
  let parts = 0;
  while (at >= 0) {
    const after = at + delimiter.length;
    if (body.subarray(after, after + 2).toString("latin1") === "--") return;
    if (++parts > limits.maxParts) throw badRequest(`Malformed multipart/form-data: more than ${limits.maxParts} parts`);
    const headers = body.subarray(after, after + 2 + limits.maxHeaderBytes + 4);
    const headersEnd = headers.indexOf("\r\n\r\n");
    if (headersEnd < 0) throw badRequest("Malformed multipart/form-data: a part's headers are too long or never end");
    at = body.indexOf(next, after + headersEnd);
    if (at >= 0) at += 2;
  }
  throw badRequest("Malformed multipart/form-data: the closing boundary is missing");
}

/**
 * Reads a `multipart/form-data` body (its size is bounded by the route's body limit) into FormData, refusing with
 * 400 whatever is not well-formed multipart within `limits`: no or a bad boundary, too many parts, endless part
 * headers, a missing closing boundary, anything the platform parser rejects.
 */
export async function readMultipartForm(c: Context, limits: MultipartLimits): Promise<FormData> {
  const type = c.req.header("content-type") ?? "";
  const boundary = boundaryOf(type);
  if (boundary === undefined) throw badRequest("Expected multipart/form-data with a boundary");
  let bytes: ArrayBuffer;
  try {
    bytes = await c.req.arrayBuffer();
  } catch {
    throw badRequest("The request body could not be read");
  }
  checkFraming(Buffer.from(bytes), boundary, limits);
  try {
    return await new Response(bytes, { headers: { "content-type": type } }).formData();
  } catch {
    throw badRequest("Malformed multipart/form-data body");
  }
}
