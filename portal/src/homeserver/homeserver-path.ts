import { HttpError } from "../../../lib/http-error.ts";

declare const built: unique symbol;

/** A homeserver API path made by {@link homeserverPath}: every interpolated value is exactly one encoded segment. */
export type HomeserverPath = string & { readonly [built]: true };

/** A path the portal refuses to call: it would not reach the endpoint it names. Always a 400, never a call. */
export const unsafePath = (what: string) => new HttpError(400, `${what} cannot be used in a homeserver URL`, "BAD_REQUEST");

/**
 * One path segment, percent-encoded. `.` and `..` are refused: URL parsing resolves them, also written `%2e`, so
 * `registration_tokens/..` would become `/_synapse/admin/v1/` (issue 16 item 6). An empty segment would name the
 * collection instead of an item.
 */
export function pathSegment(value: string): string {
  if (value === "" || value === "." || value === "..") throw unsafePath(`"${value}"`);
  return encodeURIComponent(value);
}

/**
 * Builds a homeserver API path from a template: the literal parts are the API's own, each `${value}` becomes one
 * segment (see {@link pathSegment}). `homeserverPath\`/_synapse/admin/v1/registration_tokens/${token}\``.
 * HomeserverClient checks again that the URL it calls has exactly this path.
 */
export function homeserverPath(literals: TemplateStringsArray, ...values: string[]): HomeserverPath {
  let path = literals[0] ?? "";
  values.forEach((value, index) => {
    path += pathSegment(value) + (literals[index + 1] ?? "");
  });
  return path as HomeserverPath;
}

/**
 * The URL of `path` under `base` (a managed server's internal URL, which may carry a path prefix). The resolved
 * path must be the base's path followed by `path` character for character: anything URL parsing would rewrite
 * (dot segments, `%2e%2e`, a backslash, `?` or `#` in a literal) is refused before the call, so a call can never
 * land on another endpoint than the one it names.
 */
export function homeserverUrl(base: string, path: string): URL {
  const url = new URL(base);
  const prefix = url.pathname.replace(/\/+$/, "");
  const intended = `${prefix}${path}`;
  if (!path.startsWith("/")) throw unsafePath(`The path ${JSON.stringify(path)}`);
  url.pathname = intended;
  url.search = "";
  url.hash = "";
  if (url.pathname !== intended) throw unsafePath(`The path ${JSON.stringify(path)}`);
  return url;
}
