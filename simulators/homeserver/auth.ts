import type { Context } from "hono";
import { isInterestedInUser } from "./appservices.ts";
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

/**
 * `Auth._get_appservice_user` (synapse/api/auth/internal.py): an appservice's `as_token` acts as its sender, or, with
 * `?user_id=`, as a user of its namespace that exists (403 otherwise). Undefined when the token is no `as_token`.
 */
function appserviceUser(
  state: HomeserverState,
  c: Context,
  token: string,
): { token: AccessTokenRecord; user: UserRecord } | undefined {
  const service = state.appserviceByToken(token);
  if (!service) return undefined;
  const asUser = (userId: string): UserRecord =>
    state.findUser(userId) ?? { userId, localpart: userId.slice(1, userId.indexOf(":")), admin: false, createdAt: 0 };
  const masquerade = c.req.queries("user_id")?.[0];
  if (masquerade === undefined || masquerade === service.sender) {
    return { token: { userId: service.sender, appserviceId: service.id }, user: asUser(service.sender) };
  }
  if (!isInterestedInUser(service, masquerade)) {
    throw new MatrixError(403, `Application service cannot masquerade as this user (${masquerade}).`, "M_FORBIDDEN");
  }
  const user = state.findUser(masquerade);
  // synapse/api/auth/base.py names the user in both refusals (checked against Synapse 1.163 in the interop run).
  if (!user) throw new MatrixError(403, `Application service has not registered this user (${masquerade})`, "M_FORBIDDEN");
  return { token: { userId: user.userId, appserviceId: service.id }, user };
}

/**
 * `get_user_by_req`: an appservice token first (see above), then the access token's owner, or 401 `M_UNKNOWN_TOKEN`
 * (with `soft_logout: false`).
 */
export function requireUser(state: HomeserverState, c: Context): { token: AccessTokenRecord; user: UserRecord } {
  const presented = accessTokenFrom(c);
  const asRequester = appserviceUser(state, c, presented);
  if (asRequester) return asRequester;
  const token = state.accessTokens.get(presented);
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
