import type { Context } from "hono";
import { MatrixError, missingToken, unknownToken } from "./errors.ts";
import type { AccessTokenRecord, HomeserverState, UserRecord } from "./state.ts";

/** `Auth.has_access_token`: an Authorization header or an `access_token` query parameter, whatever its content. */
export function hasAccessToken(c: Context): boolean {
  return c.req.header("authorization") !== undefined || c.req.queries("access_token") !== undefined;
}

/**
 * `Auth.get_access_token_from_request` (synapse/api/auth/base.py): `Authorization: Bearer <token>` or the
 * `access_token` query parameter, never both. Anything malformed is 401 `M_MISSING_TOKEN`.
 */
export function accessTokenFrom(c: Context): string {
  const header = c.req.header("authorization");
  const query = c.req.queries("access_token");
  if (header !== undefined) {
    if (query !== undefined) throw missingToken("Mixing Authorization headers and access_token query parameters.");
    const parts = header.split(" ");
    if (parts[0] === "Bearer" && parts.length === 2 && parts[1] !== undefined) return parts[1];
    throw missingToken("Invalid Authorization header.");
  }
  const value = query?.[0];
  if (value === undefined) throw missingToken();
  return value;
}

/** `get_user_by_req`: the token's owner, or 401 `M_UNKNOWN_TOKEN` (with `soft_logout: false`). */
export function requireUser(state: HomeserverState, c: Context): { token: AccessTokenRecord; user: UserRecord } {
  const token = state.accessTokens.get(accessTokenFrom(c));
  const user = token && state.findUser(token.userId);
  if (!token || !user) throw unknownToken();
  return { token, user };
}

/** `assert_requester_is_admin` (synapse/rest/admin/_base.py): 403 `M_FORBIDDEN` for a valid non-admin token. */
export function requireAdmin(state: HomeserverState, c: Context): UserRecord {
  const { user } = requireUser(state, c);
  if (!user.admin) throw new MatrixError(403, "You are not a server admin", "M_FORBIDDEN");
  return user;
}
