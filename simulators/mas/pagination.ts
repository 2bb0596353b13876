import { AdminApiError } from "./errors.ts";
import type { PageRequest, TokenFilter } from "./registration-tokens.ts";
import { parseUlid } from "./ulid.ts";

/** `DEFAULT_PAGE_SIZE` (crates/handlers/src/admin/params.rs). MAS sets no maximum. */
const DEFAULT_PAGE_SIZE = 10;

/** `?count=`: include `meta.count` (`true`, the default), leave it out (`false`), or answer only the count (`only`). */
export type IncludeCount = "true" | "false" | "only";

const invalidPagination = (detail: string) =>
  new AdminApiError(400, "Invalid pagination parameters", `Failed to deserialize query string: ${detail}`);

/**
 * The `Pagination` extractor: `page[first]`/`page[last]` (a non-zero integer; both together is its own 400),
 * `page[after]`/`page[before]` (ULIDs). Every other failure is 400 "Invalid pagination parameters" with serde's
 * reason (its wording here is approximate) as the second error.
 */
export function parsePagination(query: URLSearchParams): PageRequest {
  const count = (name: string) => {
    const value = query.get(name);
    if (value === null) return undefined;
    if (!/^\d+$/.test(value)) throw invalidPagination(`${name}: invalid digit found in string`);
    const parsed = Number(value);
    if (parsed === 0) throw invalidPagination(`${name}: number would be zero for non-zero type`);
    return parsed;
  };
  const cursor = (name: string) => {
    const value = query.get(name);
    if (value === null) return undefined;
    const id = parseUlid(value);
    if (id === undefined) throw invalidPagination(`${name}: invalid ULID`);
    return id;
  };
  const first = count("page[first]");
  const last = count("page[last]");
  const after = cursor("page[after]");
  const before = cursor("page[before]");
  if (first !== undefined && last !== undefined) {
    throw new AdminApiError(400, "Cannot specify both `page[first]` and `page[last]` parameters");
  }
  const page: PageRequest =
    last !== undefined ? { direction: "backward", count: last } : { direction: "forward", count: first ?? DEFAULT_PAGE_SIZE };
  if (after !== undefined) page.after = after;
  if (before !== undefined) page.before = before;
  return page;
}

const FILTERS = ["used", "revoked", "expired", "valid"] as const;

/** `RegistrationTokenFilter` (list.rs): `filter[used|revoked|expired|valid]`, each `true` or `false`. */
export function parseFilter(query: URLSearchParams): TokenFilter {
  const filter: TokenFilter = {};
  for (const name of FILTERS) {
    const value = query.get(`filter[${name}]`);
    if (value === null) continue;
    if (value !== "true" && value !== "false") {
      throw new AdminApiError(
        400,
        "Invalid filter parameters",
        `Failed to deserialize query string: filter[${name}]: provided string was not \`true\` or \`false\``,
      );
    }
    filter[name] = value === "true";
  }
  return filter;
}

/** `?count=` [unconfirmed: the error MAS gives for another value; this answers like a bad filter]. */
export function parseCount(query: URLSearchParams): IncludeCount {
  const value = query.get("count") ?? "true";
  if (value !== "true" && value !== "false" && value !== "only") {
    throw new AdminApiError(
      400,
      "Invalid filter parameters",
      `Failed to deserialize query string: count: unknown variant \`${value}\``,
    );
  }
  return value;
}

/** The filter as list.rs writes it back into links: in a fixed order, `?` then `&`. */
export function filterQuery(filter: TokenFilter): string {
  const parts = FILTERS.filter((name) => filter[name] !== undefined).map((name) => `filter[${name}]=${filter[name]}`);
  return parts.length ? `?${parts.join("&")}` : "";
}

/**
 * `url_with_pagination` (response.rs): the base's query, then `page[before]`, `page[after]`, and `page[first]` or
 * `page[last]`. Brackets stay literal; the path is root-relative.
 */
export function pageLink(base: string, page: PageRequest): string {
  const [path, query = ""] = base.split("?") as [string, string?];
  let text = query;
  if (page.before !== undefined) text += `&page[before]=${page.before}`;
  if (page.after !== undefined) text += `&page[after]=${page.after}`;
  text += page.direction === "forward" ? `&page[first]=${page.count}` : `&page[last]=${page.count}`;
  return `${path}?${text.replace(/^&+/, "")}`;
}
