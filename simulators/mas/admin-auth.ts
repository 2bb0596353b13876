import type { Context } from "hono";
import { tokenKind } from "./access-tokens.ts";
import type { MasContext } from "./context.ts";
import { AdminApiError } from "./errors.ts";

/**
 * The admin API's `CallContext` extractor (crates/handlers/src/admin/call_context.rs), in its order: the
 * `Authorization: Bearer` header (missing or malformed: **400**), the token's type (`mat_`/`mpt_` only), the token
 * (unknown, revoked session, expired: **401**), then the `urn:mas:admin` scope (401). Runs before any parameter
 * of the route is looked at.
 */
export function requireAdmin(ctx: MasContext, c: Context): void {
  const header = c.req.header("authorization");
  if (header === undefined) throw new AdminApiError(400, "Missing authorization header");
  const match = /^Bearer +(\S+)$/i.exec(header);
  if (!match?.[1]) throw new AdminApiError(400, "Invalid authorization header");
  const token = match[1];
  const kind = tokenKind(token);
  if (kind === "malformed" || kind === "other") throw new AdminApiError(401, "Invalid type of access token");
  const record = kind === "access" ? ctx.accessTokens.find(token) : undefined;
  if (!record) throw new AdminApiError(401, "Unknown access token");
  if (record.revoked) throw new AdminApiError(401, "Access token revoked");
  // `AccessToken::is_valid`: `now < expires_at`.
  if (ctx.options.now() >= record.expiresAt) throw new AdminApiError(401, "Access token expired");
  if (!record.scope.includes("urn:mas:admin")) throw new AdminApiError(401, "Missing urn:mas:admin scope");
}
