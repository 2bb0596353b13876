import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context, Hono } from "hono";
import { Codes, MatrixError, unrecognized } from "./errors.ts";

/** A parsed JSON object body. */
export type JsonObject = Record<string, unknown>;

type Method = "GET" | "POST" | "PUT" | "DELETE";
type Handler = (c: Context) => Response | Promise<Response>;

/**
 * Registers one path the way Synapse's `JsonResource` routes: the first pattern that matches the path wins, then the
 * method is looked up (HEAD counts as GET) and a missing method is 405 `M_UNRECOGNIZED` (synapse/http/server.py
 * `_get_handler_for_request`). `registered` mirrors servlets that Synapse only registers in some configurations
 * (e.g. not under MSC3861): while false the path answers like an unknown one.
 */
export function route(
  app: Hono,
  path: string,
  handlers: Partial<Record<Method, Handler>>,
  registered: () => boolean = () => true,
): void {
  app.all(path, (c) => {
    if (!registered()) throw unrecognized(404);
    const method = c.req.method === "HEAD" ? "GET" : c.req.method;
    const handler = handlers[method as Method];
    if (!handler) throw unrecognized(405);
    return handler(c);
  });
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * `parse_json_object_from_request` (synapse/http/servlet.py): a body that is not JSON (an empty body included) is
 * 400 `M_NOT_JSON` "Content not JSON."; JSON that is not an object is 400 `M_BAD_JSON`.
 */
export async function readJsonObject(c: Context): Promise<JsonObject> {
  const text = await c.req.text();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new MatrixError(400, "Content not JSON.", Codes.NOT_JSON);
  }
  if (!isObject(value)) throw new MatrixError(400, "Content must be a JSON object.", Codes.BAD_JSON);
  return value;
}

/**
 * `parse_string` (synapse/http/servlet.py): the first value of a query parameter, ASCII only (Synapse's default
 * encoding, anything else is 400 `M_UNKNOWN`), 400 `M_MISSING_PARAM` when required and absent.
 */
export function queryString(c: Context, name: string, required: true): string;
export function queryString(c: Context, name: string, required?: false): string | undefined;
export function queryString(c: Context, name: string, required = false): string | undefined {
  const value = c.req.queries(name)?.[0];
  if (value === undefined) {
    // Python's %r of the name: Synapse 1.163 answers "Missing string query parameter 'token'" (checked in the interop run).
    if (required) throw new MatrixError(400, `Missing string query parameter '${name}'`, Codes.MISSING_PARAM);
    return undefined;
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the ASCII range is the point
  if (!/^[\x00-\x7f]*$/.test(value)) throw new MatrixError(400, `Query parameter '${name}' must be ascii`);
  return value;
}

/** `parse_boolean`: only the literal strings `true` and `false`, else 400 `M_INVALID_PARAM`. */
export function queryBoolean(c: Context, name: string): boolean | undefined {
  const value = c.req.queries(name)?.[0];
  if (value === undefined) return undefined;
  if (value === "true") return true;
  if (value === "false") return false;
  throw new MatrixError(400, `Boolean query parameter '${name}' must be one of ['true', 'false']`, Codes.INVALID_PARAM);
}

/** The request URI as Synapse compares it across a UIA session: path *and* query string (`request.uri`). */
export function requestUri(c: Context): string {
  const url = new URL(c.req.url);
  return `${url.pathname}${url.search}`;
}

/** The client's IP, the key of Synapse's per-IP rate limiters (no `X-Forwarded-For`: `x_forwarded` is off by default). */
export function clientIp(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? "unknown";
  } catch {
    return "unknown";
  }
}

/** Python truthiness, for the places Synapse tests a client value with `if value:` (e.g. `inhibit_login`). */
export function truthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  if (isObject(value)) return Object.keys(value).length > 0;
  return Boolean(value);
}

/** Length in code points, as Python's `len()` counts a `str`. */
export const codePointLength = (text: string): number => [...text].length;
