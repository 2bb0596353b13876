import type { Context, Hono } from "hono";
import { isInterestedInUser } from "./appservices.ts";
import { accessTokenFrom, hasAccessToken } from "./auth.ts";
import { Codes, MatrixError, UiaIncomplete, unknownToken, unrecognized } from "./errors.ts";
import { checkUsername, validatePassword } from "./registration-rules.ts";
import {
  clientIp,
  codePointLength,
  isObject,
  type JsonObject,
  queryString,
  readJsonObject,
  requestUri,
  route,
  truthy,
} from "./request.ts";
import { hashPassword, type SimulatorContext } from "./state.ts";
import { registrationCheckers, registrationFlows } from "./uia-checkers.ts";
import { LoginType } from "./uia-session.ts";

const APPSERVICE_TYPE = "m.login.application_service";

/**
 * `POST /_matrix/client/{r0,v3,unstable}/register`: `RegisterRestServlet`, or under MSC3861 / MAS the
 * `RegisterAppServiceOnlyRestServlet` that replaces it (synapse/rest/client/register.py).
 */
export function registerRegistrationRoutes(app: Hono, ctx: SimulatorContext): void {
  route(app, "/_matrix/client/:version{r0|v3|unstable}/register", {
    POST: async (c) => {
      const body = await readJsonObject(c);
      const ip = clientIp(c);
      // Checked on every request, counted only when an account is created (in `createAccount`).
      ctx.limiters.registration.check(ip, false);
      if (ctx.state.settings.delegatedAuth) return c.json(appserviceOnly(ctx, c, body));
      return c.json(await register(ctx, c, body, ip));
    },
  });
}

/** `?kind=`: `guest` goes to guest registration, off by default (`allow_guest_access`); anything but `user` is 400. */
function checkKind(c: Context): void {
  const kind = queryString(c, "kind") ?? "user";
  if (kind === "guest") throw new MatrixError(403, "Guest access is disabled");
  if (kind !== "user") throw unrecognized(400, `Do not understand membership kind: ${kind}`);
}

/** `username`, when present, must be a string of at most 512 characters (checked before anything else looks at it). */
function desiredUsername(body: JsonObject): string | undefined {
  if (!("username" in body)) return undefined;
  if (typeof body.username !== "string" || codePointLength(body.username) > 512) throw new MatrixError(400, "Invalid username");
  return body.username;
}

/**
 * The normal servlet, in Synapse's order: kind, `refresh_token`, username type, appservice fork, no access token,
 * registration enabled, password type and policy (before the username and before UIA), username rules (again on
 * every request of the session), UIA, then the account. A session that already registered a user answers with that
 * user again (idempotent replay) and does not count the token twice.
 */
async function register(ctx: SimulatorContext, c: Context, body: JsonObject, ip: string): Promise<JsonObject> {
  checkKind(c);
  if ("refresh_token" in body && typeof body.refresh_token !== "boolean") {
    throw new MatrixError(400, "`refresh_token` should be true or false.");
  }
  let username = desiredUsername(body);
  if (body.type === APPSERVICE_TYPE) return appserviceRegister(ctx, c, username, body);
  if (hasAccessToken(c)) {
    throw new MatrixError(
      400,
      "An access token should not be provided on requests to /register (except if type is m.login.application_service)",
    );
  }
  if (!ctx.options.registrationEnabled) throw new MatrixError(403, "Registration has been disabled", Codes.FORBIDDEN);
  username = username?.toLowerCase();

  // The password leaves the body before UIA stores it in the session; only a hash is kept.
  const password = body.password;
  delete body.password;
  if (password !== undefined && password !== null) {
    if (typeof password !== "string" || codePointLength(password) > 512) throw new MatrixError(400, "Invalid password");
    validatePassword(ctx.options.passwordPolicy, password);
  }
  if ("initial_device_display_name" in body && (password === undefined || password === null)) {
    delete body.initial_device_display_name;
  }

  const sessionId = isObject(body.auth) && "session" in body.auth ? body.auth.session : undefined;
  const sessionData = truthy(sessionId) ? ctx.sessions.get(sessionId).data : {};
  let registeredUserId = sessionData.registeredUserId;
  let passwordHash = sessionData.passwordHash;
  if (username !== undefined) checkUsername(ctx.state, username, registeredUserId);

  const requiresToken = ctx.options.registrationRequiresToken;
  let outcome: ReturnType<typeof ctx.sessions.check>;
  try {
    const checkers = registrationCheckers(ctx.tokens, requiresToken);
    outcome = ctx.sessions.check(registrationFlows(requiresToken), checkers, { uri: requestUri(c), method: "POST" }, body);
  } catch (error) {
    if (error instanceof UiaIncomplete && !passwordHash && typeof password === "string" && password !== "") {
      ctx.sessions.get(error.sessionId).data.passwordHash = hashPassword(password);
    }
    throw error;
  }
  const { params, session } = outcome;

  let registered = false;
  if (registeredUserId === undefined) {
    if (typeof password === "string" && password !== "") passwordHash = hashPassword(password);
    if (!passwordHash) throw new MatrixError(400, "Missing params: password", Codes.MISSING_PARAM);
    const desired = typeof params.username === "string" ? params.username.toLowerCase() : undefined;
    registeredUserId = createAccount(ctx, desired, passwordHash, ip);
    session.data.registeredUserId = registeredUserId;
    registered = true;
  }
  const details = registrationDetails(ctx, registeredUserId, params);
  const token = session.data.registrationToken;
  if (registered && token) {
    ctx.tokens.use(token);
    // Marks the use as final, so that the session sweep does not release `pending` a second time.
    session.results.set(LoginType.REGISTRATION_TOKEN, true);
  }
  return details;
}

/**
 * `RegistrationHandler.register_user`: counts the registration against `rc_registration`, re-checks the name, and
 * stores the account. Without a username Synapse picks the next free numeric localpart.
 */
function createAccount(ctx: SimulatorContext, localpart: string | undefined, passwordHash: string, ip: string): string {
  ctx.limiters.registration.check(ip, true);
  if (localpart !== undefined) {
    checkUsername(ctx.state, localpart);
    return ctx.state.addUser(localpart, { passwordHash }).userId;
  }
  const generated = ctx.state.nextGeneratedLocalpart();
  if (ctx.state.isExclusive(ctx.state.userId(generated))) {
    throw new MatrixError(400, "This user ID is reserved by an application service.", Codes.EXCLUSIVE);
  }
  return ctx.state.addUser(generated, { passwordHash }).userId;
}

/** `_create_registration_details`: a device and access token unless `inhibit_login` is truthy. */
function registrationDetails(ctx: SimulatorContext, userId: string, params: JsonObject): JsonObject {
  const result: JsonObject = { user_id: userId, home_server: ctx.state.serverName };
  if (truthy(params.inhibit_login)) return result;
  const deviceId = typeof params.device_id === "string" && params.device_id !== "" ? params.device_id : undefined;
  const issued = ctx.state.issueAccessToken(userId, deviceId);
  return { ...result, access_token: issued.accessToken, device_id: issued.deviceId };
}

/**
 * `_do_appservice_registration` / `RegistrationHandler.appservice_register`: the `as_token` must belong to a loaded
 * appservice (401 `M_UNKNOWN_TOKEN` otherwise), the user must be in its `users` namespace (400 `M_EXCLUSIVE`), not in
 * another appservice's exclusive namespace (400 `M_EXCLUSIVE`) and not taken (400 `M_USER_IN_USE`). No UIA, no rate
 * limit, no username rules; the name is not lower-cased. Login details follow `inhibit_login` as for users.
 */
function appserviceRegister(ctx: SimulatorContext, c: Context, username: string | undefined, body: JsonObject): JsonObject {
  if (!hasAccessToken(c)) {
    throw new MatrixError(400, "Appservice token must be provided when using a type of m.login.application_service");
  }
  const token = accessTokenFrom(c);
  if (username === undefined) throw new MatrixError(400, "Desired Username is missing or not a string");
  const service = ctx.state.appserviceByToken(token);
  if (!service) throw unknownToken("Unrecognised access token");
  const userId = ctx.state.userId(username);
  if (!isInterestedInUser(service, userId)) {
    throw new MatrixError(400, "Invalid user localpart for this application service.", Codes.EXCLUSIVE);
  }
  if (ctx.state.isExclusive(userId, service)) {
    throw new MatrixError(400, "This user ID is reserved by an application service.", Codes.EXCLUSIVE);
  }
  if (ctx.state.findUser(userId)) throw new MatrixError(400, "User ID already taken.", Codes.USER_IN_USE);
  ctx.state.addUser(username);
  return registrationDetails(ctx, userId, body);
}

/** `RegisterAppServiceOnlyRestServlet`: what `/register` becomes when MAS handles accounts. */
function appserviceOnly(ctx: SimulatorContext, c: Context, body: JsonObject): JsonObject {
  if (body.type !== APPSERVICE_TYPE) {
    throw new MatrixError(
      403,
      "Registration has been disabled. Only m.login.application_service registrations are allowed.",
      Codes.FORBIDDEN,
    );
  }
  if (!truthy(body.inhibit_login)) {
    throw new MatrixError(
      400,
      "This server uses OAuth2, so the inhibit_login parameter must be set to true for appservice registrations.",
      Codes.APPSERVICE_LOGIN_UNSUPPORTED,
    );
  }
  checkKind(c);
  const username = body.username;
  if (typeof username !== "string" || codePointLength(username) > 512) throw new MatrixError(400, "Invalid username");
  return appserviceRegister(ctx, c, username, body);
}
