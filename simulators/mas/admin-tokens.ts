import type { Context, Hono } from "hono";
import { requireAdmin } from "./admin-auth.ts";
import type { MasContext } from "./context.ts";
import { AdminApiError, PlainTextRejection } from "./errors.ts";
import { filterQuery, pageLink, parseCount, parseFilter, parsePagination } from "./pagination.ts";
import { isValid, type RegistrationTokenRow } from "./registration-tokens.ts";
import { parseUlid } from "./ulid.ts";

const PATH = "/api/admin/v1/user-registration-tokens";
/** `UserRegistrationToken::KIND` in crates/handlers/src/admin/model.rs, underscore included. */
const KIND = "user-registration_token";
const U32_MAX = 4_294_967_295;
/** The `usage_limit` column is an `INTEGER` (i32). */
const I32_MAX = 2_147_483_647;

/** chrono's RFC 3339 output (`SecondsFormat::AutoSi`, `Z`): no fraction on whole seconds. */
export function rfc3339(ms: number | null): string | null {
  if (ms === null) return null;
  return new Date(ms).toISOString().replace(".000Z", "Z");
}

/** The `attributes` of a token; the PR #5971 fields only when the simulator plays that version. */
function attributes(ctx: MasContext, row: RegistrationTokenRow): Record<string, unknown> {
  const invite = ctx.options.inviteLinks;
  return {
    token: row.token,
    valid: isValid(row, ctx.options.now()),
    ...(invite ? { username: null, email: null, passwordless: false } : {}),
    usage_limit: row.usageLimit,
    times_used: row.timesUsed,
    created_at: rfc3339(row.createdAt),
    last_used_at: rfc3339(row.lastUsedAt),
    expires_at: rfc3339(row.expiresAt),
    revoked_at: rfc3339(row.revokedAt),
    ...(invite ? { invite_url: `${ctx.publicBase()}register?token=${encodeURIComponent(row.token)}` } : {}),
  };
}

function resource(ctx: MasContext, row: RegistrationTokenRow, cursor = false): Record<string, unknown> {
  return {
    type: KIND,
    id: row.id,
    attributes: attributes(ctx, row),
    links: { self: `${PATH}/${row.id}` },
    ...(cursor ? { meta: { page: { cursor: row.id } } } : {}),
  };
}

/** `SingleResponse::new(resource, self)`: the top-level `self` is the URL that was called (revoke/unrevoke included). */
const single = (ctx: MasContext, row: RegistrationTokenRow, self = `${PATH}/${row.id}`) => ({
  data: resource(ctx, row),
  links: { self },
});

/** `UlidPathParam`: 400 "Invalid ULID in path" with axum's path rejection below it. */
function pathId(c: Context): string {
  const raw = c.req.param("id") ?? "";
  const id = parseUlid(raw);
  if (id === undefined) {
    throw new AdminApiError(400, "Invalid ULID in path", `Cannot parse \`${raw}\` to a \`Ulid\``);
  }
  return id;
}

/** `Json<T>` (axum): the content type, then syntax (400), then the shape (422), answered in plain text. */
async function jsonBody(c: Context): Promise<Record<string, unknown>> {
  const type = c.req.header("content-type") ?? "";
  if (!/^application\/(?:[\w.+-]*\+)?json\s*(?:;|$)/i.test(type)) {
    throw new PlainTextRejection(415, "Expected request with `Content-Type: application/json`");
  }
  const text = await c.req.text();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new PlainTextRejection(400, `Failed to parse the request body as JSON: ${(error as Error).message}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new PlainTextRejection(422, "Failed to deserialize the JSON body into the target type: invalid type: expected a map");
  }
  return value as Record<string, unknown>;
}

const shapeError = (field: string, detail: string) =>
  new PlainTextRejection(422, `Failed to deserialize the JSON body into the target type: ${field}: ${detail}`);

/** An optional `u32`: absent or null → undefined/null; anything else must be a whole number 0-4294967295. */
function usageLimit(body: Record<string, unknown>): number | null | undefined {
  if (!("usage_limit" in body)) return undefined;
  const value = body.usage_limit;
  if (value === null) return null;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > U32_MAX) {
    throw shapeError("usage_limit", `invalid value: ${JSON.stringify(value)}, expected u32`);
  }
  return value;
}

/** An optional `DateTime<Utc>`: an RFC 3339 string with an offset. */
function expiresAt(body: Record<string, unknown>): number | null | undefined {
  if (!("expires_at" in body)) return undefined;
  const value = body.expires_at;
  if (value === null) return null;
  const rfc = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})$/;
  if (typeof value !== "string" || !rfc.test(value) || Number.isNaN(Date.parse(value))) {
    throw shapeError("expires_at", "input contains invalid characters");
  }
  return Date.parse(value);
}

/** A limit above the i32 column [unconfirmed]: the insert or update fails in Postgres, a 500 without detail. */
function assertColumnFits(limit: number | null | undefined): void {
  if (typeof limit === "number" && limit > I32_MAX) {
    throw new AdminApiError(500, "Internal server error");
  }
}

function lookup(ctx: MasContext, id: string): RegistrationTokenRow {
  const row = ctx.registrationTokens.lookup(id);
  if (!row) throw new AdminApiError(404, `Registration token with ID ${id} not found`);
  return row;
}

/** The six registration-token endpoints (crates/handlers/src/admin/v1/user_registration_tokens/). */
export function registerAdminTokenRoutes(app: Hono, ctx: MasContext): void {
  app.get(PATH, (c) => {
    requireAdmin(ctx, c);
    const query = new URL(c.req.url).searchParams;
    const page = parsePagination(query);
    const filter = parseFilter(query);
    const count = parseCount(query);
    const base = `${PATH}${filterQuery(filter)}`;
    const found = ctx.registrationTokens.list(filter, page);
    const links: Record<string, string> = {
      self: pageLink(base, page),
      first: pageLink(base, { direction: "forward", count: page.count }),
      last: pageLink(base, { direction: "backward", count: page.count }),
    };
    const lastRow = found.rows.at(-1);
    const firstRow = found.rows[0];
    if (found.hasNextPage && lastRow) {
      const { before: _before, ...rest } = page;
      links.next = pageLink(base, { ...rest, after: lastRow.id });
    }
    if (found.hasPreviousPage && firstRow) {
      const { after: _after, ...rest } = page;
      links.prev = pageLink(base, { ...rest, before: firstRow.id });
    }
    return c.json({
      ...(count === "false" ? {} : { meta: { count: ctx.registrationTokens.count(filter) } }),
      ...(count === "only" ? {} : { data: found.rows.map((row) => resource(ctx, row, true)) }),
      links,
    });
  });

  app.post(PATH, async (c) => {
    requireAdmin(ctx, c);
    const body = await jsonBody(c);
    const token = body.token;
    if (token !== undefined && token !== null && typeof token !== "string") {
      throw shapeError("token", `invalid type: ${typeof token}, expected a string`);
    }
    const limit = usageLimit(body);
    const expiry = expiresAt(body);
    if (typeof token === "string" && ctx.registrationTokens.findByToken(token)) {
      throw new AdminApiError(409, "A registration token with the same token already exists");
    }
    assertColumnFits(limit);
    const row = ctx.registrationTokens.add(typeof token === "string" ? token : undefined, {
      usageLimit: limit ?? null,
      expiresAt: expiry ?? null,
    });
    if (!row) throw new AdminApiError(409, "A registration token with the same token already exists");
    return c.json(single(ctx, row), 201);
  });

  app.get(`${PATH}/:id`, (c) => {
    requireAdmin(ctx, c);
    return c.json(single(ctx, lookup(ctx, pathId(c))));
  });

  app.put(`${PATH}/:id`, async (c) => {
    requireAdmin(ctx, c);
    const id = pathId(c);
    const body = await jsonBody(c);
    const limit = usageLimit(body);
    const expiry = expiresAt(body);
    const row = lookup(ctx, id);
    assertColumnFits(limit);
    // A field present (null included) is set; an absent one stays (update.rs `deserialize_some`).
    if (expiry !== undefined) row.expiresAt = expiry;
    if (limit !== undefined) row.usageLimit = limit;
    return c.json(single(ctx, row));
  });

  app.post(`${PATH}/:id/revoke`, (c) => {
    requireAdmin(ctx, c);
    const id = pathId(c);
    const row = lookup(ctx, id);
    if (row.revokedAt !== null) throw new AdminApiError(400, `Registration token with ID ${id} is already revoked`);
    row.revokedAt = ctx.options.now();
    return c.json(single(ctx, row, `${PATH}/${id}/revoke`));
  });

  app.post(`${PATH}/:id/unrevoke`, (c) => {
    requireAdmin(ctx, c);
    const id = pathId(c);
    const row = lookup(ctx, id);
    if (row.revokedAt === null) throw new AdminApiError(400, `Registration token with ID ${id} is not revoked`);
    // Only `revoked_at` is cleared; uses and limits stay as they were.
    row.revokedAt = null;
    return c.json(single(ctx, row, `${PATH}/${id}/unrevoke`));
  });
}
