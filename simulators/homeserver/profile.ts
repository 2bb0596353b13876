import type { Context, Hono } from "hono";
import { requireUser } from "./auth.ts";
import { Codes, MatrixError } from "./errors.ts";
import { readJsonObject, route } from "./request.ts";
import type { SimulatorContext, UserRecord } from "./state.ts";

/** `MAX_DISPLAYNAME_LEN` and `MAX_AVATAR_URL_LEN` (synapse/handlers/profile.py). */
const MAX_DISPLAYNAME_LEN = 256;
const MAX_AVATAR_URL_LEN = 1000;

type Field = "displayname" | "avatar_url";

/** `UserID.is_valid`: `@localpart:domain`, the sigil and a colon after a non-empty localpart. */
const isValidUserId = (userId: string) => /^@[^:]+:.+$/.test(userId);

const profileNotFound = () => new MatrixError(404, "Profile was not found", Codes.NOT_FOUND);
/** `get_profileinfo` reads the row without `allow_none`: the whole profile of an unknown local user is a store error. */
const noProfileRow = () => new MatrixError(404, "No row found (profiles)");

function read(user: UserRecord, field: Field): string | null {
  return (field === "displayname" ? user.displayName : user.avatarUrl) ?? null;
}

/**
 * The profile servlets (synapse/rest/client/profile.py, synapse/handlers/profile.py) for the two standard fields:
 * `GET /profile/{userId}`, `GET|PUT|DELETE /profile/{userId}/{displayname|avatar_url}` on r0, v3 and unstable.
 * Reads need no token (`require_auth_for_profile_requests` is off by default). A write needs the user's own token, or
 * a server admin's (who may change any local user); the value must be a string (`null` refused), a display name at
 * most 256 characters (stored trimmed; `""` clears it), an avatar URL at most 1000 characters (`""` clears it).
 * An unset field reads as `{}`; the whole profile of an unknown local user is 404 `M_UNKNOWN` "No row found
 * (profiles)", one field of it 404 `M_NOT_FOUND` (both checked against Synapse 1.163 in the interop run).
 */
export function registerProfileRoutes(app: Hono, ctx: SimulatorContext): void {
  const local = (userId: string) => userId.endsWith(`:${ctx.state.serverName}`);

  /** `check_profile_query_allowed` plus the local lookup; remote profiles would need federation. */
  const lookup = (userId: string, unknown = profileNotFound): UserRecord => {
    if (!isValidUserId(userId)) throw new MatrixError(400, "Invalid user id", Codes.INVALID_PARAM);
    if (!local(userId)) throw new MatrixError(502, "Failed to fetch profile");
    const user = ctx.state.findUser(userId);
    if (!user) throw unknown();
    return user;
  };

  route(app, "/_matrix/client/:version{r0|v3|unstable}/profile/:userId", {
    GET: (c) => {
      const user = lookup(c.req.param("userId") ?? "", noProfileRow);
      if (user.displayName === undefined && user.avatarUrl === undefined) throw profileNotFound();
      return c.json({
        ...(user.displayName === undefined ? {} : { displayname: user.displayName }),
        ...(user.avatarUrl === undefined ? {} : { avatar_url: user.avatarUrl }),
      });
    },
  });

  const write = async (c: Context, field: Field, remove: boolean) => {
    const userId = c.req.param("userId") ?? "";
    if (!isValidUserId(userId)) throw new MatrixError(400, "Invalid user id", Codes.INVALID_PARAM);
    const requester = requireUser(ctx.state, c);
    const byAdmin = requester.user.admin && requester.token.appserviceId === undefined;
    let value: unknown = "";
    if (!remove) {
      const body = await readJsonObject(c);
      if (!(field in body)) throw new MatrixError(400, `Missing key '${field}'`, Codes.MISSING_PARAM);
      value = body[field];
    }
    // set_displayname / set_avatar_url (synapse/handlers/profile.py) check in this order; null is "not a string".
    if (!local(userId)) throw new MatrixError(400, "User is not hosted on this homeserver");
    if (!byAdmin && userId !== requester.user.userId) {
      throw new MatrixError(400, `Cannot set another user's ${field}`, Codes.FORBIDDEN);
    }
    if (typeof value !== "string") throw new MatrixError(400, `'${field}' must be a string`, Codes.INVALID_PARAM);
    const target = ctx.state.findUser(userId);
    if (!target) throw profileNotFound();
    if (field === "displayname") {
      if (value.length > MAX_DISPLAYNAME_LEN) throw new MatrixError(400, `Displayname is too long (max ${MAX_DISPLAYNAME_LEN})`);
      if (value === "") delete target.displayName;
      else target.displayName = value.trim();
    } else {
      if (value.length > MAX_AVATAR_URL_LEN) throw new MatrixError(400, `Avatar URL is too long (max ${MAX_AVATAR_URL_LEN})`);
      if (value === "") delete target.avatarUrl;
      else target.avatarUrl = value;
    }
    return c.json({});
  };

  route(app, "/_matrix/client/:version{r0|v3|unstable}/profile/:userId/:field{displayname|avatar_url}", {
    GET: (c) => {
      const field = c.req.param("field") as Field;
      const value = read(lookup(c.req.param("userId") ?? ""), field);
      return c.json(value === null ? {} : { [field]: value });
    },
    PUT: (c) => write(c, c.req.param("field") as Field, false),
    DELETE: (c) => write(c, c.req.param("field") as Field, true),
  });
}
