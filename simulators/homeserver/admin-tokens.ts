import type { Context, Hono } from "hono";
import { requireAdmin } from "./auth.ts";
import { Codes, MatrixError } from "./errors.ts";
import { codePointLength, queryBoolean, readJsonObject, route } from "./request.ts";
import type { SimulatorContext } from "./state.ts";
import { TOKEN_ALPHABET, type TokenRecord } from "./token-store.ts";

const PREFIX = "/_synapse/admin/v1/registration_tokens";
const invalidParam = (message: string) => new MatrixError(400, message, Codes.INVALID_PARAM);
const notFound = (token: string) => new MatrixError(404, `No such registration token: ${token}`, Codes.NOT_FOUND);

/** Python's `type(x) is int`: a JSON number without a fraction (booleans and strings are not). */
const isInt = (value: unknown): value is number => typeof value === "number" && Number.isInteger(value);

/** `uses_allowed`: null or a non-negative integer. */
function checkUsesAllowed(value: unknown): number | null {
  if (value === null || (isInt(value) && value >= 0)) return value;
  throw invalidParam("uses_allowed must be a non-negative integer or null");
}

/** `expiry_time`: null or an integer of milliseconds that is not before now (equal to now is accepted). */
function checkExpiryTime(value: unknown, now: number): number | null {
  if (value !== null && !isInt(value)) throw invalidParam("expiry_time must be an integer or null");
  if (isInt(value) && value < now) throw invalidParam("expiry_time must not be in the past");
  return value;
}

/**
 * The registration-token admin API (synapse/rest/admin/registration_tokens.py; docs/usage/administration/admin_api/
 * registration_tokens.md). Every call needs a server admin's token. The servlets are not registered at all under
 * MSC3861 / MAS (synapse/rest/admin/__init__.py), so the paths then answer 404 `M_UNRECOGNIZED`.
 * Registered in Synapse's order: `/registration_tokens/new` matches before `/registration_tokens/<token>`, so GET,
 * PUT and DELETE of a token literally named `new` are 405.
 */
export function registerAdminTokenRoutes(app: Hono, ctx: SimulatorContext): void {
  const registered = () => !ctx.state.settings.delegatedAuth;

  route(app, PREFIX, { GET: (c) => list(ctx, c) }, registered);
  route(app, `${PREFIX}/new`, { POST: (c) => create(ctx, c) }, registered);
  route(
    app,
    `${PREFIX}/:token`,
    {
      GET: (c) => {
        requireAdmin(ctx.state, c);
        const token = c.req.param("token") ?? "";
        const row = ctx.tokens.get(token);
        if (!row) throw notFound(token);
        return c.json(row);
      },
      PUT: (c) => update(ctx, c),
      DELETE: (c) => {
        requireAdmin(ctx.state, c);
        const token = c.req.param("token") ?? "";
        if (!ctx.tokens.delete(token)) throw notFound(token);
        return c.json({});
      },
    },
    registered,
  );
}

/** `?valid=true|false` filters with the listing's SQL semantics (see `TokenStore.list`). */
function list(ctx: SimulatorContext, c: Context): Response {
  requireAdmin(ctx.state, c);
  const valid = queryBoolean(c, "valid");
  return c.json({ registration_tokens: ctx.tokens.list(valid) });
}

/**
 * `POST /new`, answered 200 (not 201). A given `token` must be a string of 1-64 characters from `[A-Za-z0-9._~-]`
 * and makes `length` irrelevant; otherwise `length` (integer 1-64, default 16) sizes a generated one. A duplicate
 * is 400 `M_INVALID_PARAM`, not 409.
 */
async function create(ctx: SimulatorContext, c: Context): Promise<Response> {
  requireAdmin(ctx.state, c);
  const body = await readJsonObject(c);
  let token: string;
  if ("token" in body) {
    if (typeof body.token !== "string") throw invalidParam("token must be a string");
    token = body.token;
    const length = codePointLength(token);
    if (!(length > 0 && length <= 64)) {
      throw invalidParam("token must not be empty and must not be longer than 64 characters");
    }
    if (![...token].every((char) => TOKEN_ALPHABET.includes(char))) {
      // Synapse's message names a narrower regex than the characters it accepts.
      throw invalidParam("token must consist only of characters matched by the regex [A-Za-z0-9-_]");
    }
  } else {
    const length = "length" in body ? body.length : 16;
    if (!isInt(length)) throw invalidParam("length must be an integer");
    if (!(length > 0 && length <= 64)) throw invalidParam("length must be greater than zero and not greater than 64");
    token = ctx.tokens.generate(length);
  }
  const usesAllowed = checkUsesAllowed("uses_allowed" in body ? body.uses_allowed : null);
  const expiryTime = checkExpiryTime("expiry_time" in body ? body.expiry_time : null, ctx.options.now());
  if (!ctx.tokens.create(token, usesAllowed, expiryTime)) throw invalidParam(`Token already exists: ${token}`);
  const created: TokenRecord = { token, uses_allowed: usesAllowed, pending: 0, completed: 0, expiry_time: expiryTime };
  return c.json(created);
}

/**
 * `PUT /<token>`: only the fields present change (`null` = unlimited / never); `{}` returns the token unchanged. The
 * body is validated before the token is looked up, so a bad body on an unknown token is 400, not 404.
 */
async function update(ctx: SimulatorContext, c: Context): Promise<Response> {
  requireAdmin(ctx.state, c);
  const token = c.req.param("token") ?? "";
  const body = await readJsonObject(c);
  const attributes: Partial<Pick<TokenRecord, "uses_allowed" | "expiry_time">> = {};
  if ("uses_allowed" in body) attributes.uses_allowed = checkUsesAllowed(body.uses_allowed);
  if ("expiry_time" in body) attributes.expiry_time = checkExpiryTime(body.expiry_time, ctx.options.now());
  const row = Object.keys(attributes).length === 0 ? ctx.tokens.get(token) : ctx.tokens.update(token, attributes);
  if (!row) throw notFound(token);
  return c.json(row);
}
