/**
 * The portal managing a real Synapse through its HTTP API (docs/INTEROP.md "The portal against Synapse"): a pinned
 * Synapse on loopback with a generated configuration and an admin made through the shared-secret registration.
 * Diagnostics, the registration-token API merged with labels and notes, statistics, public sign-up (the account then
 * logs in on Synapse), refused tokens, a race on a one-use token, a bot that logs in and joins a room, and every
 * appservice registration the portal generates loaded by Synapse. Faults: synapse-faults.interop.ts.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { parse } from "yaml";
import type { PortalClient } from "../support/portal-client.ts";
import { nextIp, type TestPortal } from "../support/portal-harness.ts";
import { PASSWORD, type PortalOnSynapse, SERVER_NAME, startPortalOnSynapse } from "./support/portal-on-synapse.ts";
import type { Synapse } from "./support/synapse.ts";

describe("the portal manages a real Synapse", () => {
  let world: PortalOnSynapse;
  let synapse: Synapse;
  let portal: TestPortal;
  let admin: PortalClient;
  let serverId: string;
  before(async () => {
    world = await startPortalOnSynapse("synapse-portal");
    ({ synapse, portal, admin, serverId } = world);
  });
  after(() => world?.stop());

  const tokens = (path = "") => world.tokens(path);
  const onSynapse = (token: string) => world.onSynapse(token);
  const signUp = (username: string, token: string) => world.signUp(username, token);
  const timed = <T>(name: string, work: () => Promise<T>) => world.timed(name, work);

  it("diagnoses Synapse as healthy: versions, admin API, token API, registration flows", async () => {
    const reply = await admin.patch(`/api/admin/servers/${serverId}`, { action: "diagnostics" });
    assert.equal(reply.status, 200, reply.text);
    const diagnostics = reply.body.diagnostics;
    assert.deepEqual(diagnostics.errors, []);
    for (const key of [
      "homeserverReachable",
      "adminApiReachable",
      "tokenEndpointsAvailable",
      "registrationFlowAvailable",
      "registrationEnabled",
      "tokenRegistrationSupported",
    ]) {
      assert.equal(diagnostics[key], true, key);
    }
    assert.equal(diagnostics.msc3861Detected, false);
    assert.equal(diagnostics.serverName, SERVER_NAME);
    const server = (await admin.get(`/api/admin/servers/${serverId}`)).body.server;
    assert.equal(server.lastDiagOk, true);

    // A token of a user who is not a server admin, then one that was logged out: named as Synapse refuses them.
    const plain = await synapse.registerUser("not-an-admin", "not-an-admin-password");
    const rotate = (adminToken: string) => admin.patch(`/api/admin/servers/${serverId}`, { action: "rotate_token", adminToken });
    assert.equal((await rotate(plain.access_token)).status, 200);
    const notAdmin = (await admin.patch(`/api/admin/servers/${serverId}`, { action: "diagnostics" })).body.diagnostics;
    assert.deepEqual([notAdmin.homeserverReachable, notAdmin.adminApiReachable], [true, false]);
    assert.ok(
      notAdmin.errors.some((error: string) => error.includes("M_FORBIDDEN")),
      JSON.stringify(notAdmin.errors),
    );
    assert.equal((await synapse.call("POST", "/_matrix/client/v3/logout", {}, plain.access_token)).status, 200);
    const loggedOut = (await admin.patch(`/api/admin/servers/${serverId}`, { action: "diagnostics" })).body.diagnostics;
    assert.ok(
      loggedOut.errors.some((error: string) => error.includes("M_UNKNOWN_TOKEN")),
      JSON.stringify(loggedOut.errors),
    );
    assert.equal((await admin.get(tokens())).status, 502, "the token list says the homeserver refused");
    assert.equal((await rotate(synapse.adminToken)).status, 200);
    assert.equal((await admin.get(tokens())).status, 200);
  });

  it("creates, lists, reads, updates, disables and deletes registration tokens on Synapse, with labels and notes", async () => {
    const expiry = Date.now() + 86_400_000;
    const given = await admin.post(tokens(), {
      token: "Given-token_1.~",
      uses_allowed: 3,
      expiry_time: expiry,
      label: "Family",
      note: "for the cousins",
    });
    assert.equal(given.status, 201, given.text);
    assert.deepEqual(
      [given.body.token.token, given.body.token.uses_allowed, given.body.token.expiry_time, given.body.token.label],
      ["Given-token_1.~", 3, expiry, "Family"],
    );
    assert.deepEqual(await onSynapse("Given-token_1.~"), {
      token: "Given-token_1.~",
      uses_allowed: 3,
      pending: 0,
      completed: 0,
      expiry_time: expiry,
    });

    const generated = await admin.post(tokens(), { length: 40, uses_allowed: null, expiry_time: null });
    assert.equal(generated.status, 201, generated.text);
    assert.match(generated.body.token.token, /^[A-Za-z0-9._~-]{40}$/);
    const defaulted = await admin.post(tokens(), {});
    assert.equal(defaulted.status, 201, defaulted.text);
    assert.match(defaulted.body.token.token, /^[A-Za-z0-9._~-]{16}$/);
    assert.equal(defaulted.body.token.uses_allowed, null);

    // Synapse treats uses_allowed 0 as unlimited at sign-up: the portal refuses to create one (PATCH disables) and
    // reads one made with another tool as disabled.
    const zero = await admin.post(tokens(), { token: "zero-uses", uses_allowed: 0 });
    assert.equal(zero.status, 400, zero.text);
    assert.equal((await synapse.admin("GET", "/_synapse/admin/v1/registration_tokens/zero-uses")).status, 404);
    const made = await synapse.admin("POST", "/_synapse/admin/v1/registration_tokens/new", {
      token: "zero-uses",
      uses_allowed: 0,
    });
    assert.equal(made.status, 200, made.text);
    const seen = (await admin.get(tokens("/zero-uses"))).body.token;
    assert.deepEqual([seen.uses_allowed, seen.disabled, seen.valid], [0, true, false], "uses_allowed 0 is off in the portal");

    const past = await admin.post(tokens(), { token: "in-the-past", expiry_time: Date.now() - 60_000 });
    assert.equal(past.status, 400);
    assert.equal((await synapse.admin("GET", "/_synapse/admin/v1/registration_tokens/in-the-past")).status, 404);
    const duplicate = await admin.post(tokens(), { token: "Given-token_1.~" });
    assert.equal(duplicate.status, 400, duplicate.text);
    assert.match(duplicate.text, /already exists/);

    const listed = (await admin.get(tokens())).body.tokens as { token: string; label: string | null }[];
    const names = listed.map((row) => row.token);
    for (const name of ["Given-token_1.~", generated.body.token.token, defaulted.body.token.token, "zero-uses"]) {
      assert.ok(names.includes(name), name);
    }
    assert.equal(listed.find((row) => row.token === "Given-token_1.~")?.label, "Family");

    const one = await admin.get(tokens("/Given-token_1.~"));
    assert.deepEqual([one.status, one.body.token.note], [200, "for the cousins"]);
    assert.equal((await admin.get(tokens("/no-such-token"))).status, 404);

    const updated = await admin.put(tokens("/Given-token_1.~"), { uses_allowed: 10, expiry_time: null, note: "more" });
    assert.equal(updated.status, 200, updated.text);
    assert.deepEqual(
      [updated.body.token.uses_allowed, updated.body.token.expiry_time, updated.body.token.note],
      [10, null, "more"],
    );
    assert.deepEqual(
      [(await onSynapse("Given-token_1.~")).uses_allowed, (await onSynapse("Given-token_1.~")).expiry_time],
      [10, null],
    );

    const disabled = await admin.patch(tokens("/Given-token_1.~"));
    assert.equal(disabled.status, 200, disabled.text);
    assert.equal((await onSynapse("Given-token_1.~")).uses_allowed, 0);
    assert.equal(disabled.body.token.disabled, true);

    assert.equal((await admin.delete(tokens(`/${generated.body.token.token}`))).status, 200);
    assert.equal(
      (await synapse.admin("GET", `/_synapse/admin/v1/registration_tokens/${generated.body.token.token}`)).status,
      404,
    );
    assert.equal((await admin.delete(tokens(`/${generated.body.token.token}`))).status, 404);
  });

  it("counts tokens in the statistics as Synapse holds them", async () => {
    const expiring = await synapse.admin("POST", "/_synapse/admin/v1/registration_tokens/new", {
      token: "expires-soon",
      expiry_time: Date.now() + 1_000,
    });
    assert.equal(expiring.status, 200, expiring.text);
    await synapse.admin("POST", "/_synapse/admin/v1/registration_tokens/new", { token: "used-up", uses_allowed: 1 });
    assert.equal((await signUp("uses-it-up", "used-up")).status, 200);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const all = (await synapse.admin("GET", "/_synapse/admin/v1/registration_tokens")).body.registration_tokens as unknown[];
    const stats = (await admin.get(`/api/admin/stats?serverId=${serverId}`)).body;
    assert.equal(stats.totalTokens, all.length);
    assert.equal(stats.expiredTokens, 1, "expires-soon");
    assert.equal(stats.exhaustedTokens, 1, "used-up");
    assert.equal(stats.disabledTokens, 2, "zero-uses and the disabled Given-token_1.~");
    assert.equal(stats.validTokens, all.length - 4);
    assert.ok(stats.recentRegistrations >= 1);
  });

  it("signs people up on Synapse with a token: the account exists and logs in", async () => {
    await admin.post(tokens(), { token: "welcome-2", uses_allowed: 2 });
    const free = await portal
      .client({ ip: nextIp() })
      .get(`/api/register/username-available?username=alice&serverId=${serverId}`);
    assert.deepEqual(free.body, { available: true, username: "alice" });
    const validate = (token: string) => portal.client({ ip: nextIp() }).post("/api/register/validate-token", { token, serverId });
    assert.deepEqual((await validate("welcome-2")).body.valid, true);
    assert.deepEqual((await validate("used-up")).body, { valid: false, state: "exhausted", expiresAt: null });
    assert.deepEqual(
      (await validate("zero-uses")).body,
      { valid: false, state: "disabled", expiresAt: null },
      "Synapse itself would say true",
    );
    assert.deepEqual((await onSynapse("welcome-2")).pending, 0, "validation uses nothing");
    const reply = await timed("sign-up through the portal", () =>
      portal.client({ ip: nextIp() }).post("/api/register", {
        username: "Alice",
        password: PASSWORD,
        confirmPassword: PASSWORD,
        token: "welcome-2",
        displayName: "Alice Example",
        serverId,
      }),
    );
    assert.deepEqual(reply.body, { success: true, userId: "@alice:syn.test" });
    assert.equal(reply.status, 200);
    const profile = await synapse.call("GET", "/_matrix/client/v3/profile/@alice:syn.test", undefined, synapse.adminToken);
    assert.equal(profile.body.displayname, "Alice Example", "the portal set the display name with the admin token");
    assert.ok(await synapse.login("alice", PASSWORD), "the new account logs in on Synapse");
    assert.deepEqual(
      [(await onSynapse("welcome-2")).pending, (await onSynapse("welcome-2")).completed],
      [0, 1],
      "the use is completed, nothing left pending",
    );
    const taken = await portal
      .client({ ip: nextIp() })
      .get(`/api/register/username-available?username=alice&serverId=${serverId}`);
    assert.equal(taken.body.errorCode, "M_USER_IN_USE");
    const again = await signUp("alice", "welcome-2");
    assert.deepEqual([again.status, again.body.errorCode], [400, "M_USER_IN_USE"]);
    const invalid = await signUp("_alice", "welcome-2");
    assert.equal(invalid.body.success, false);
  });

  it("refuses used-up, disabled and expired tokens with the right message", async () => {
    const usedUp = await signUp("bob", "used-up");
    assert.deepEqual([usedUp.status, usedUp.body.error], [403, "This registration token has no uses left."]);
    const disabled = await signUp("bob", "Given-token_1.~");
    assert.deepEqual([disabled.status, disabled.body.error], [403, "This registration token has been disabled."]);
    const expired = await signUp("bob", "expires-soon");
    assert.deepEqual([expired.status, expired.body.error], [403, "This registration token has expired."]);
    const unknown = await signUp("bob", "never-made");
    assert.equal(unknown.status, 403);
    const zero = await signUp("bob", "zero-uses");
    assert.deepEqual([zero.status, zero.body.error], [403, "This registration token has been disabled."]);
    assert.equal((await synapse.loginReply("bob", PASSWORD)).status, 403, "no account was made");
  });

  it("creates exactly one account in Synapse from 10 concurrent sign-ups on a one-use token", async () => {
    await admin.post(tokens(), { token: "just-once", uses_allowed: 1 });
    const replies = await timed("10 concurrent sign-ups", () =>
      Promise.all(Array.from({ length: 10 }, (_, i) => signUp(`racer${i}`, "just-once"))),
    );
    const won = replies.filter((reply) => reply.status === 200);
    assert.equal(won.length, 1, JSON.stringify(replies.map((r) => r.body)));
    for (const reply of replies.filter((r) => r.status !== 200)) assert.equal(reply.status, 403, reply.text);
    const users = await synapse.admin("GET", "/_synapse/admin/v2/users?name=racer&limit=50");
    assert.equal(users.body.total, 1, users.text);
    assert.deepEqual([(await onSynapse("just-once")).pending, (await onSynapse("just-once")).completed], [0, 1]);
  });

  it("lets a bot it manages log in, take its token and join a room", async () => {
    const created = await admin.post(`/api/admin/bots?serverId=${serverId}`, {
      templateId: "welcome",
      displayName: "Greeter",
      avatarUrl: "mxc://syn.test/greeter-avatar",
    });
    assert.equal(created.status, 201, created.text);
    const bot = created.body.bot as { id: string; localpart: string; matrixUserId: string };
    await synapse.registerUser(bot.localpart, "bot-password-1");
    const botToken = await synapse.login(bot.localpart, "bot-password-1");
    const setToken = (accessToken: string) => admin.patch(`/api/admin/bots/${bot.id}`, { action: "set_token", accessToken });

    const someoneElse = await setToken(await synapse.login("alice", PASSWORD));
    assert.equal(someoneElse.status, 400, someoneElse.text);
    assert.match(someoneElse.body.error, /belongs to @alice:syn\.test/);
    const stale = (await synapse.registerUser(`${bot.localpart}-old`, "bot-password-1")).access_token;
    await synapse.call("POST", "/_matrix/client/v3/logout", {}, stale);
    const refused = await setToken(stale);
    assert.deepEqual([refused.status, refused.body.errorCode], [400, "M_UNKNOWN_TOKEN"], refused.text);

    const set = await setToken(botToken);
    assert.equal(set.status, 200, set.text);
    assert.deepEqual(set.body.tokenCheck, { verified: true, userId: bot.matrixUserId });
    assert.deepEqual(set.body.profileSync, { displayname: "ok", avatar_url: "ok" });
    const profileUrl = `/_matrix/client/v3/profile/${encodeURIComponent(bot.matrixUserId)}`;
    const profile = await synapse.call("GET", profileUrl, undefined, botToken);
    assert.deepEqual([profile.body.displayname, profile.body.avatar_url], ["Greeter", "mxc://syn.test/greeter-avatar"]);
    const cleared = await admin.put(`/api/admin/bots/${bot.id}`, { displayName: "Greeter Bot", avatarUrl: null });
    assert.equal(cleared.status, 200, cleared.text);
    assert.deepEqual(cleared.body.profileSync, { displayname: "ok", avatar_url: "ok" }, cleared.text);
    const afterClear = await synapse.call("GET", profileUrl, undefined, botToken);
    assert.equal(afterClear.body.displayname, "Greeter Bot");
    assert.ok(!afterClear.body.avatar_url, `the avatar is removed on Synapse: ${afterClear.text}`);

    const room = await synapse.call("POST", "/_matrix/client/v3/createRoom", { preset: "public_chat" }, synapse.adminToken);
    assert.equal(room.status, 200, room.text);
    const roomId = String(room.body.room_id);
    assert.equal((await admin.post(`/api/admin/bots/${bot.id}/rooms`, { roomId })).status, 201);
    const joined = await synapse.call("POST", `/_matrix/client/v3/join/${encodeURIComponent(roomId)}`, {}, botToken);
    assert.equal(joined.status, 200, joined.text);
    const members = await synapse.call(
      "GET",
      `/_matrix/client/v3/rooms/${encodeURIComponent(roomId)}/joined_members`,
      undefined,
      botToken,
    );
    assert.ok(bot.matrixUserId in (members.body.joined as Record<string, unknown>));
    assert.equal((await admin.patch(`/api/admin/bots/${bot.id}`, { action: "activate" })).status, 200);
    const health = (await admin.get(`/api/admin/integrations/diagnostics?serverId=${serverId}`)).body.diagnostics;
    assert.equal(health.botHealth[bot.id].tokenValid, true, JSON.stringify(health.botHealth));
  });

  it("generates an appservice registration that Synapse loads and answers for", async () => {
    type Installed = { id: string; catalogId: string; files: { name: string; path: string; purpose: string }[] };
    const install = async (catalogId: string) => {
      const reply = await admin.post(`/api/admin/integrations?serverId=${serverId}`, { catalogId });
      assert.equal(reply.status, 201, `${catalogId}: ${reply.text}`);
      return reply.body.integration as Installed;
    };
    const healthOf = async (integration: Installed) =>
      (await admin.patch(`/api/admin/integrations/${integration.id}`, { action: "health_check" })).body.health;
    const integration = await install("mautrix-whatsapp");
    // The double-puppet registration (url null, a non-exclusive namespace over every user) is loaded too.
    const doublePuppet = await admin.put(`/api/admin/integrations/${integration.id}`, { config: { doublePuppet: true } });
    assert.equal(doublePuppet.status, 200, doublePuppet.text);
    integration.files = doublePuppet.body.integration.files;
    const file = integration.files.find((candidate) => candidate.name === "registration.yaml");
    assert.ok(file);
    const registration = parse(readFileSync(file.path, "utf8"));
    assert.equal((await healthOf(integration)).appservice.registered, false);

    // Every other catalog entry that generates an appservice registration, loaded at once.
    const catalog = (await admin.get("/api/admin/integrations?view=catalog")).body.catalog as { id: string }[];
    const others: Installed[] = [];
    for (const entry of catalog.filter((candidate) => candidate.id !== "mautrix-whatsapp")) {
      const installed = await install(entry.id);
      if (installed.files.some((candidate) => candidate.purpose === "registration")) others.push(installed);
    }
    const registrations = [integration, ...others].flatMap((installed) =>
      installed.files.filter((candidate) => candidate.purpose === "registration").map((candidate) => candidate.path),
    );
    assert.ok(registrations.length >= 4, registrations.join(" "));
    for (const path of registrations) synapse.addAppservice(path);
    await synapse.stop();
    await timed("synapse restart with the appservices", () => synapse.restart());

    for (const installed of [integration, ...others]) {
      const health = await healthOf(installed);
      assert.equal(health.appservice?.registered, true, `${installed.catalogId}: ${JSON.stringify(health)}`);
    }
    const whatsapp = await healthOf(integration);
    assert.equal(whatsapp.doublePuppet?.registered, true, JSON.stringify(whatsapp));
    console.log(
      `appservice registrations loaded by Synapse: ${others.map((o) => o.catalogId).join(", ")}, mautrix-whatsapp (+ double puppet)`,
    );
    const asUser = await synapse.call(
      "POST",
      "/_matrix/client/v3/register",
      { type: "m.login.application_service", username: "whatsapp_4915550001", inhibit_login: true },
      registration.as_token,
    );
    assert.equal(asUser.status, 200, asUser.text);
    assert.equal(asUser.body.user_id, "@whatsapp_4915550001:syn.test");
    const outside = await synapse.call(
      "POST",
      "/_matrix/client/v3/register",
      { type: "m.login.application_service", username: "not-in-namespace", inhibit_login: true },
      registration.as_token,
    );
    assert.equal(outside.body.errcode, "M_EXCLUSIVE", outside.text);
    // The namespace is exclusive: the portal's public sign-up is refused for it.
    await admin.post(tokens(), { token: "for-namespace", uses_allowed: 5 });
    const reserved = await signUp("whatsapp_someone", "for-namespace");
    assert.deepEqual([reserved.status, reserved.body.errorCode], [400, "M_EXCLUSIVE"]);
    const check = await portal
      .client({ ip: nextIp() })
      .get(`/api/register/username-available?username=whatsappbot&serverId=${serverId}`);
    assert.equal(check.body.errorCode, "M_EXCLUSIVE");
  });
});
