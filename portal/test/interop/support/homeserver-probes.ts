/**
 * The same requests sent to Synapse and to the homeserver simulator, with what each answered kept side by side
 * (docs/INTEROP.md "The portal against Synapse"): the registration-token admin API with its edge cases, the auth
 * errors, the interactive-auth registration with its token accounting (`uses_allowed` 0 and null, pending and
 * completed) and its finer rules, an appservice's token and namespace, profiles, username rules and token validity.
 * Both servers get the same names, so two answers compare equal exactly when a client could not tell the servers
 * apart (error messages included; generated values are reduced to their shape by probe-runner.ts).
 */
import { type Observation, type ProbeTarget, prober } from "./probe-runner.ts";

/** The appservice both servers load ({@link PROBE_APPSERVICE}): its tokens and namespace. */
export const PROBE_AS_TOKEN = "probe-as-token-0123456789abcdef";

/** A registration as the portal writes them (docs/homeserver-simulator.md lists what Synapse checks in it). */
export const PROBE_APPSERVICE = `id: probe-bridge
url: null
as_token: ${PROBE_AS_TOKEN}
hs_token: probe-hs-token-0123456789abcdef
sender_localpart: probebridgebot
rate_limited: false
namespaces:
  users:
    - regex: '@probe_as_.*:syn\\.test'
      exclusive: true
`;

const ADMIN = "/_synapse/admin/v1/registration_tokens";
const REGISTER = "/_matrix/client/v3/register";

/** Runs every probe against one server, in order (later probes use tokens and accounts made by earlier ones). */
export async function runProbes(target: ProbeTarget, now: () => number): Promise<Observation[]> {
  const observations: Observation[] = [];
  const send = prober(target, observations);
  const future = now() + 3_600_000;
  const shape = (body: Record<string, unknown>) => ({
    ...body,
    token: typeof body.token === "string" ? `<${body.token.length} chars>` : body.token,
  });

  // Access to the admin API.
  await send("admin: no token", "GET", ADMIN, { token: null });
  await send("admin: unknown token", "GET", ADMIN, { token: "not-a-token" });
  await send("admin: user who is not an admin", "GET", ADMIN, { token: target.userToken });
  await send("admin: unknown path", "GET", "/_synapse/admin/v1/no_such_thing");

  // Creating tokens.
  await send("create: {} (generated, 16)", "POST", `${ADMIN}/new`, { body: {}, keep: shape });
  await send("create: length 64", "POST", `${ADMIN}/new`, { body: { length: 64 }, keep: shape });
  for (const [label, body] of [
    ["length 0", { length: 0 }],
    ["length 65", { length: 65 }],
    ["length 8.5", { length: 8.5 }],
    ["length '8'", { length: "8" }],
    ["token null", { token: null }],
    ["token ''", { token: "" }],
    ["token of 65", { token: "a".repeat(65) }],
    ["token with a space", { token: "has space" }],
    ["token with +", { token: "a+b" }],
    ["uses_allowed -1", { token: "probe-neg", uses_allowed: -1 }],
    ["uses_allowed true", { token: "probe-bool", uses_allowed: true }],
    ["uses_allowed 1.5", { token: "probe-frac", uses_allowed: 1.5 }],
    ["expiry_time in the past", { token: "probe-past", expiry_time: now() - 60_000 }],
    ["expiry_time a string", { token: "probe-str", expiry_time: "soon" }],
  ] as const) {
    await send(`create: ${label}`, "POST", `${ADMIN}/new`, { body });
  }
  await send("create: body not JSON", "POST", `${ADMIN}/new`, { raw: "not json" });
  await send("create: body a JSON array", "POST", `${ADMIN}/new`, { raw: "[]" });
  await send("create: full alphabet", "POST", `${ADMIN}/new`, { body: { token: "Az09._~-", uses_allowed: 2 } });
  await send("create: duplicate", "POST", `${ADMIN}/new`, { body: { token: "Az09._~-" } });
  await send("create: uses_allowed 0", "POST", `${ADMIN}/new`, { body: { token: "probe-zero", uses_allowed: 0 } });
  await send("create: uses_allowed null", "POST", `${ADMIN}/new`, { body: { token: "probe-null", uses_allowed: null } });
  await send("create: one use, expiring", "POST", `${ADMIN}/new`, {
    body: { token: "probe-one", uses_allowed: 1, expiry_time: future },
    keep: (body) => ({ ...body, expiry_time: body.expiry_time === future }),
  });

  // Reading, updating, deleting.
  await send("get: unknown", "GET", `${ADMIN}/probe-unknown`);
  await send("get: named new", "GET", `${ADMIN}/new`);
  await send("put: {} on unknown", "PUT", `${ADMIN}/probe-unknown`, { body: {} });
  await send("put: bad body on unknown", "PUT", `${ADMIN}/probe-unknown`, { body: { uses_allowed: -1 } });
  await send("put: uses_allowed 5", "PUT", `${ADMIN}/probe-null`, { body: { uses_allowed: 5 } });
  await send("put: {}", "PUT", `${ADMIN}/probe-null`, { body: {} });
  await send("put: expiry in the past", "PUT", `${ADMIN}/probe-null`, { body: { expiry_time: now() - 60_000 } });
  await send("put: back to null", "PUT", `${ADMIN}/probe-null`, { body: { uses_allowed: null, expiry_time: null } });
  await send("delete: unknown", "DELETE", `${ADMIN}/probe-unknown`);
  await send("list: ?valid=maybe", "GET", `${ADMIN}?valid=maybe`);

  // Token validity (public) and the registration flow.
  const validity = (token: string) => `/_matrix/client/v1/register/m.login.registration_token/validity?token=${token}`;
  await send("validity: uses_allowed 0", "GET", validity("probe-zero"), { token: null });
  await send("validity: unknown", "GET", validity("probe-unknown"), { token: null });
  await send("validity: no token", "GET", "/_matrix/client/v1/register/m.login.registration_token/validity", { token: null });
  await send("register: no body", "POST", REGISTER, { token: null, raw: "" });
  const opened = await send("register: open a session", "POST", REGISTER, {
    token: null,
    body: { username: "probe_zero", password: "probe-password-1" },
  });
  const session = String(opened.body.session);
  const stage = (token: unknown) => ({ auth: { type: "m.login.registration_token", token, session } });
  await send("register: stage with an unknown token", "POST", REGISTER, { token: null, body: stage("probe-unknown") });
  await send("register: stage with a number", "POST", REGISTER, { token: null, body: stage(5) });
  await send("register: token stage (uses_allowed 0)", "POST", REGISTER, { token: null, body: stage("probe-zero") });
  await send("token after the stage: pending 1", "GET", `${ADMIN}/probe-zero`);
  await send("register: stage with another token", "POST", REGISTER, { token: null, body: stage("probe-null") });
  await send("register: dummy stage completes", "POST", REGISTER, {
    token: null,
    body: { auth: { type: "m.login.dummy", session } },
    keep: (body) => ({ ...body, user_id: body.user_id }),
  });
  await send("token after sign-up: completed 1", "GET", `${ADMIN}/probe-zero`);
  await send("list: ?valid=false (uses_allowed 0 is there)", "GET", `${ADMIN}?valid=false`, {
    keep: (body) => ({
      tokens: ((body.registration_tokens ?? []) as { token: string }[])
        .map((row) => row.token)
        .filter((t) => t.startsWith("probe")),
    }),
  });
  await send("list: ?valid=true", "GET", `${ADMIN}?valid=true`, {
    keep: (body) => ({
      tokens: ((body.registration_tokens ?? []) as { token: string }[])
        .map((row) => row.token)
        .filter((t) => t.startsWith("probe"))
        .sort(),
    }),
  });

  // The finer rules of the interactive-auth registration.
  await send("create: a token for the flow rules", "POST", `${ADMIN}/new`, { body: { token: "probe-flow", uses_allowed: 20 } });
  const open = async (name: string, body: Record<string, unknown>, path = REGISTER) => {
    const reply = await send(name, "POST", path, { token: null, body });
    return String(reply.body.session);
  };
  const tokenStage = (session: string, token = "probe-flow") => ({
    auth: { type: "m.login.registration_token", token, session },
  });
  const dummy = (session: string) => ({ auth: { type: "m.login.dummy", session } });
  await send("register: ?kind=guest", "POST", `${REGISTER}?kind=guest`, { token: null, body: {} });
  await send("register: ?kind=other", "POST", `${REGISTER}?kind=other`, { token: null, body: {} });
  await send("register: username not a string", "POST", REGISTER, { token: null, body: { username: 5, password: "x" } });
  await send("register: password over 512", "POST", REGISTER, {
    token: null,
    body: { username: "probe_long", password: "x".repeat(513) },
  });
  await send("register: unknown session", "POST", REGISTER, { token: null, body: dummy("probe-no-such-session") });
  const moved = await open("register: session for the same-URI rule", { username: "probe_uri", password: "probe-password-1" });
  await send("register: same session on r0", "POST", "/_matrix/client/r0/register", { token: null, body: tokenStage(moved) });
  const reversed = await open("register: session for dummy first", {
    username: "probe_order",
    password: "probe-password-1",
    inhibit_login: true,
  });
  await send("register: dummy first", "POST", REGISTER, { token: null, body: dummy(reversed) });
  await send("register: then the token (inhibit_login)", "POST", REGISTER, { token: null, body: tokenStage(reversed) });
  await send("register: replay of the completing request", "POST", REGISTER, { token: null, body: tokenStage(reversed) });
  await send("register: another name in the completed session", "POST", REGISTER, {
    token: null,
    body: { username: "probe_other", password: "probe-password-1", ...tokenStage(reversed) },
  });
  const noPassword = await open("register: session without a password", { username: "probe_nopass" });
  await send("register: token stage without a password", "POST", REGISTER, { token: null, body: tokenStage(noPassword) });
  await send("register: complete without a password", "POST", REGISTER, { token: null, body: dummy(noPassword) });
  const first = await open("register: session A for a contested name", {
    username: "probe_race",
    password: "probe-password-1",
    inhibit_login: true,
  });
  await send("register: A passes the token stage", "POST", REGISTER, { token: null, body: tokenStage(first) });
  const second = await open("register: session B for the same name", {
    username: "probe_race",
    password: "probe-password-1",
    inhibit_login: true,
  });
  await send("register: B passes the token stage", "POST", REGISTER, { token: null, body: tokenStage(second) });
  await send("register: B completes", "POST", REGISTER, { token: null, body: dummy(second) });
  await send("register: A completes on a taken name", "POST", REGISTER, { token: null, body: dummy(first) });
  await send("token: A's use is still pending", "GET", `${ADMIN}/probe-flow`);
  await send("register: A retries with another name", "POST", REGISTER, {
    token: null,
    body: { username: "probe_race2", password: "probe-password-1", inhibit_login: true, ...dummy(first) },
  });
  await send("create: a token deleted mid-flow", "POST", `${ADMIN}/new`, { body: { token: "probe-deleted", uses_allowed: 1 } });
  const orphan = await open("register: session for a deleted token", {
    username: "probe_orphan",
    password: "probe-password-1",
    inhibit_login: true,
  });
  await send("register: stage with the token", "POST", REGISTER, { token: null, body: tokenStage(orphan, "probe-deleted") });
  await send("delete: the token mid-flow", "DELETE", `${ADMIN}/probe-deleted`);
  await send("register: complete after the token was deleted", "POST", REGISTER, { token: null, body: dummy(orphan) });
  await send(
    "username_available: the user of the deleted token",
    "GET",
    "/_synapse/admin/v1/username_available?username=probe_orphan",
  );
  await send("register: replay after the token was deleted", "POST", REGISTER, { token: null, body: dummy(orphan) });
  const numeric = await open("register: session without a username", { password: "probe-password-1", inhibit_login: true });
  await send("register: token stage, no username", "POST", REGISTER, { token: null, body: tokenStage(numeric) });
  await send("register: a numeric user id", "POST", REGISTER, { token: null, body: dummy(numeric) });
  await send("register/available (public)", "GET", "/_matrix/client/v3/register/available?username=probe_public", {
    token: null,
  });

  // Username rules (admin check: no rate limit).
  const available = (username: string) => `/_synapse/admin/v1/username_available?username=${encodeURIComponent(username)}`;
  for (const username of ["probe_free", "probe_zero", "PROBE_ZERO", "Upper", "_under", "12345", "with space", ""]) {
    await send(`username_available: '${username}'`, "GET", available(username));
  }
  await send("username_available: no username", "GET", "/_synapse/admin/v1/username_available");
  await send("username_available: not ascii", "GET", available("é"));
  // An appservice: its as_token, its exclusive namespace, registration through it.
  const asToken = PROBE_AS_TOKEN;
  const asRegister = (username: string, extra: Record<string, unknown> = {}) => ({
    type: "m.login.application_service",
    username,
    ...extra,
  });
  await send("as: whoami", "GET", "/_matrix/client/v3/account/whoami", { token: asToken });
  await send("as: whoami as an unregistered user", "GET", "/_matrix/client/v3/account/whoami?user_id=@probe_as_1:syn.test", {
    token: asToken,
  });
  await send(
    "as: whoami as a user outside its namespace",
    "GET",
    "/_matrix/client/v3/account/whoami?user_id=@probe_zero:syn.test",
    {
      token: asToken,
    },
  );
  await send("as: register in the namespace", "POST", REGISTER, {
    token: asToken,
    body: asRegister("probe_as_1", { inhibit_login: true }),
  });
  await send("as: register again", "POST", REGISTER, { token: asToken, body: asRegister("probe_as_1", { inhibit_login: true }) });
  await send("as: register with login", "POST", REGISTER, { token: asToken, body: asRegister("probe_as_2") });
  await send("as: register outside the namespace", "POST", REGISTER, {
    token: asToken,
    body: asRegister("probe_outside", { inhibit_login: true }),
  });
  await send("as: register with an unknown token", "POST", REGISTER, {
    token: "probe-unknown-as-token",
    body: asRegister("probe_as_3", { inhibit_login: true }),
  });
  await send("as: register without a token", "POST", REGISTER, { token: null, body: asRegister("probe_as_3") });
  await send("as: a token on a normal registration", "POST", REGISTER, { token: asToken, body: { username: "probe_as_4" } });
  await send("as: whoami as a registered user", "GET", "/_matrix/client/v3/account/whoami?user_id=@probe_as_1:syn.test", {
    token: asToken,
  });
  await send("register: a name in the exclusive namespace", "POST", REGISTER, {
    token: null,
    body: { username: "probe_as_5", password: "probe-password-1" },
  });
  await send("username_available: in the exclusive namespace", "GET", available("probe_as_5"));

  // Profiles: the admin sets a user's, a user only their own.
  const profile = (user: string, field = "") => `/_matrix/client/v3/profile/${encodeURIComponent(user)}${field}`;
  await send("profile: admin sets another user's displayname", "PUT", profile("@probe_zero:syn.test", "/displayname"), {
    body: { displayname: "Probe Zero" },
  });
  await send("profile: read it", "GET", profile("@probe_zero:syn.test"));
  await send("profile: admin clears an avatar with ''", "PUT", profile("@probe_zero:syn.test", "/avatar_url"), {
    body: { avatar_url: "" },
  });
  await send("profile: a user sets another user's", "PUT", profile("@probe_zero:syn.test", "/displayname"), {
    token: target.userToken,
    body: { displayname: "Not Mine" },
  });
  await send("profile: displayname null", "PUT", profile("@probe_zero:syn.test", "/displayname"), {
    body: { displayname: null },
  });
  await send("profile: no such user", "GET", profile("@probe_nobody:syn.test"));
  await send("profile: a field of no such user", "GET", profile("@probe_nobody:syn.test", "/displayname"));
  await send("profile: of a user made by an appservice", "GET", profile("@probe_as_1:syn.test"));
  await send("profile: of a user made by sign-up", "GET", profile("@probe_zero:syn.test", "/displayname"));
  await send("profile: avatar never set", "GET", profile("@probe_as_1:syn.test", "/avatar_url"));
  await send("profile: not a user id", "GET", profile("not-a-user-id"));
  await send("whoami: admin", "GET", "/_matrix/client/v3/account/whoami", {
    keep: (body) => ({ ...body, user_id: typeof body.user_id === "string" && body.user_id.startsWith("@admin:") }),
  });
  await send("versions: has v1.12", "GET", "/_matrix/client/versions", {
    token: null,
    keep: (body) => ({ v1_12: (body.versions as string[] | undefined)?.includes("v1.12") }),
  });
  await send("auth_metadata (no MAS)", "GET", "/_matrix/client/v1/auth_metadata", { token: null });
  return observations;
}
