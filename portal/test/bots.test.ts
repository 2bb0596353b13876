import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { HomeserverSimulator } from "../../simulators/homeserver/index.ts";
import type { PortalClient } from "./support/portal-client.ts";
import {
  addServer,
  startPortalWithHomeserver,
  startSimulator,
  stopPortalWithHomeserver,
  type TestPortal,
} from "./support/portal-harness.ts";

const FEATURE_KEYS = [
  "command_handling",
  "keyword_triggers",
  "webhook_notifications",
  "scheduled_messages",
  "moderation_actions",
  "room_auto_join",
  "room_responses",
  "thread_replies",
  "message_relay",
  "admin_commands",
];

describe("bots", () => {
  let portal: TestPortal;
  let hs: HomeserverSimulator;
  let admin: PortalClient;
  let serverId: string;
  before(async () => {
    ({ portal, hs, admin, serverId } = await startPortalWithHomeserver({ homeserver: { serverName: "bots.test" } }));
  });
  after(() => stopPortalWithHomeserver(portal, hs));

  const bots = (query = `?serverId=${serverId}`) => `/api/admin/bots${query}`;
  async function create(body: Record<string, unknown>) {
    const reply = await admin.post(bots(), body);
    assert.equal(reply.status, 201, reply.text);
    return reply.body.bot as Record<string, unknown> & { id: string; localpart: string; matrixUserId: string };
  }
  async function auditFor(botId: string): Promise<{ action: string; detail: Record<string, unknown> | null }[]> {
    const reply = await admin.get(`/api/admin/audit?serverId=${serverId}&limit=200`);
    return (reply.body.logs as { action: string; target: string; detail: Record<string, unknown> | null }[])
      .filter((entry) => entry.target === botId)
      .reverse();
  }

  it("lists a template catalog of useful bots", async () => {
    const reply = await admin.get("/api/admin/bots?view=templates");
    assert.equal(reply.status, 200);
    const templates = reply.body.templates as Record<string, unknown>[];
    assert.ok(templates.length >= 6);
    for (const id of ["welcome", "moderation", "notifier", "reminder", "faq", "admin-helper"]) {
      assert.ok(
        templates.some((t) => t.id === id),
        id,
      );
    }
    for (const template of templates) {
      for (const field of ["id", "name", "description", "icon", "defaultFeatures", "capabilities", "threadAware"]) {
        assert.ok(field in template, `${template.id}.${field}`);
      }
      assert.equal(typeof template.threadAware, "boolean");
      for (const key of template.defaultFeatures as string[]) assert.ok(FEATURE_KEYS.includes(key), key);
    }
    assert.equal((await admin.get("/api/admin/bots")).status, 400, "serverId or view is required");
    assert.equal((await admin.get("/api/admin/bots?view=other")).status, 400);
  });

  it("checks a bot's config against its template's settings, naming every field that does not fit", async () => {
    const templates = (await admin.get("/api/admin/bots?view=templates")).body.templates as {
      id: string;
      settings: { key: string; type: string; default: unknown }[] | null;
      defaultConfig: Record<string, unknown>;
    }[];
    const faqTemplate = templates.find((template) => template.id === "faq");
    assert.deepEqual(
      faqTemplate?.settings?.map((setting) => [setting.key, setting.type]),
      [
        ["entries", "entryList"],
        ["replyInThread", "boolean"],
        ["cooldownSeconds", "integer"],
      ],
    );
    for (const template of templates) {
      if (template.settings === null) continue;
      const defaults = Object.fromEntries(template.settings.map((setting) => [setting.key, setting.default]));
      assert.deepEqual(template.defaultConfig, defaults, `${template.id}: the defaults are the settings' defaults`);
    }
    assert.equal(templates.find((template) => template.id === "custom")?.settings, null, "the custom bot is free-form");

    const refused = await admin.post(bots(), {
      templateId: "faq",
      displayName: "Strict FAQ",
      config: {
        entries: [
          { keywords: ["ok"], answer: "" },
          { keywords: "not a list", answer: "x", extra: 1 },
        ],
        cooldownSeconds: 99999,
        replyInThread: "yes",
        colour: "red",
      },
    });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.errorCode, "BAD_REQUEST");
    assert.equal(
      refused.body.error,
      "Invalid config: colour is not a setting of this template; entries.0.answer is required; entries.1.extra is not a setting of this template; entries.1.keywords must be a list; replyInThread must be true or false; cooldownSeconds must be between 0 and 3600",
    );
    const notifier = await admin.post(bots(), {
      templateId: "notifier",
      displayName: "Feeds",
      config: { feeds: ["https://example.org/feed.xml", "ftp://nope"], messageFormat: "pdf" },
    });
    assert.equal(notifier.status, 400);
    assert.match(
      notifier.body.error,
      /feeds\.1 must be an http:\/\/ or https:\/\/ address; messageFormat must be one of markdown, plain, html/,
    );
    const moderation = await admin.post(bots(), {
      templateId: "moderation",
      displayName: "Mod",
      config: { managementRoomId: "#alias:bots.test" },
    });
    assert.equal(moderation.status, 400);
    assert.match(moderation.body.error, /managementRoomId must be a room ID such as !abc123:example\.org/);
    const names = ((await admin.get(bots())).body.bots as { displayName: string }[]).map((bot) => bot.displayName);
    assert.deepEqual(names, [], "nothing was created");

    const custom = await admin.post(bots(), {
      templateId: "custom",
      displayName: "Own",
      config: { anything: [1, { deep: true }] },
    });
    assert.equal(custom.status, 201, custom.text);
    assert.deepEqual(custom.body.bot.config, { anything: [1, { deep: true }] });
    const wrongUpdate = await admin.put(`/api/admin/bots/${custom.body.bot.id}`, { config: { more: "x" } });
    assert.equal(wrongUpdate.status, 200, "a free-form config takes any object, on update too");
    await admin.delete(`/api/admin/bots/${custom.body.bot.id}`);
  });

  it("creates bots from templates with a Matrix user ID, validates input and keeps localparts unique", async () => {
    const welcome = await create({ templateId: "welcome", displayName: "Welcome Bot", avatarUrl: "mxc://bots.test/avatar1" });
    assert.deepEqual([welcome.localpart, welcome.matrixUserId], ["welcome-bot", "@welcome-bot:bots.test"]);
    assert.deepEqual([welcome.status, welcome.enabled, welcome.hasAccessToken], ["inactive", false, false]);
    assert.equal((welcome.config as { commandPrefix: string }).commandPrefix, "!", "template defaults");
    const twin = await create({ templateId: "welcome", displayName: "Welcome bot" });
    assert.equal(twin.localpart, "welcome-bot-2");
    const faq = await create({
      templateId: "faq",
      displayName: "Ärger-FAQ",
      localpart: "faq.bot",
      config: { cooldownSeconds: 5 },
    });
    assert.equal(faq.matrixUserId, "@faq.bot:bots.test");
    assert.deepEqual(faq.config, { entries: [], replyInThread: true, cooldownSeconds: 5 });
    assert.equal((await admin.post(bots(), { templateId: "faq", displayName: "x", localpart: "faq.bot" })).status, 409);

    const bad: Record<string, unknown>[] = [
      { templateId: "nope", displayName: "x" },
      { templateId: "faq" },
      { templateId: "faq", displayName: "x".repeat(201) },
      { templateId: "faq", displayName: "x", localpart: "Upper" },
      { templateId: "faq", displayName: "x", localpart: "_reserved" },
      { templateId: "faq", displayName: "x", localpart: "12345" },
      { templateId: "faq", displayName: "x", localpart: "a".repeat(65) },
      { templateId: "faq", displayName: "x", avatarUrl: "https://example.org/a.png" },
      { templateId: "faq", displayName: "x", config: [1, 2] },
      { templateId: "faq", displayName: "x", surprise: true },
    ];
    for (const body of bad) assert.equal((await admin.post(bots(), body)).status, 400, JSON.stringify(body));
    assert.equal((await admin.post("/api/admin/bots", { templateId: "faq", displayName: "x" })).status, 400, "serverId required");
    assert.equal((await admin.post(bots("?serverId=unknown"), { templateId: "faq", displayName: "x" })).status, 404);

    const list = (await admin.get(bots())).body.bots as { id: string }[];
    assert.deepEqual(
      list.map((bot) => bot.id),
      [welcome.id, twin.id, faq.id],
    );
    const detail = (await admin.get(`/api/admin/bots/${welcome.id}`)).body.bot;
    assert.equal(detail.template.id, "welcome");
    assert.deepEqual(detail.rooms, []);
    assert.deepEqual(detail.features.map((f: { featureKey: string }) => f.featureKey).sort(), [...FEATURE_KEYS].sort());
    const on = detail.features.filter((f: { enabled: boolean }) => f.enabled).map((f: { featureKey: string }) => f.featureKey);
    assert.deepEqual(on.sort(), ["command_handling", "room_auto_join", "room_responses"]);
    assert.equal((await admin.get(`/api/admin/bots/${welcome.id}?serverId=other`)).status, 404);
    assert.equal((await admin.get("/api/admin/bots/00000000-0000-0000-0000-000000000000")).status, 404);

    const updated = await admin.put(`/api/admin/bots/${faq.id}`, {
      displayName: "FAQ",
      config: { entries: [{ keywords: ["a"], answer: "b" }] },
    });
    assert.equal(updated.status, 200, updated.text);
    assert.equal(updated.body.bot.displayName, "FAQ");
    assert.deepEqual(
      updated.body.bot.config,
      { entries: [{ keywords: ["a"], answer: "b" }], replyInThread: true, cooldownSeconds: 60 },
      "the config given, the settings left out at their defaults",
    );
    assert.equal((await admin.put(`/api/admin/bots/${faq.id}`, { localpart: "other" })).status, 400);
    assert.equal((await admin.put(`/api/admin/bots/${faq.id}`, {})).status, 400);
    assert.deepEqual(
      (await auditFor(faq.id)).map((entry) => entry.action),
      ["bot.created", "bot.updated"],
    );
  });

  it("assigns rooms (IDs starting with !) and toggles features globally and per room", async () => {
    const bot = await create({ templateId: "moderation", displayName: "Mod" });
    const rooms = `/api/admin/bots/${bot.id}/rooms`;
    const assigned = await admin.post(rooms, {
      roomId: "!abcdef:bots.test",
      roomAlias: "#lobby:bots.test",
      config: { strict: true },
    });
    assert.equal(assigned.status, 201, assigned.text);
    assert.deepEqual(
      [assigned.body.room.roomId, assigned.body.room.roomAlias, assigned.body.room.config],
      ["!abcdef:bots.test", "#lobby:bots.test", { strict: true }],
    );
    assert.equal((await admin.post(rooms, { roomId: "!v12roomidwithoutserver" })).status, 201, "room v12 IDs have no server");
    for (const roomId of ["#lobby:bots.test", "abcdef:bots.test", "", "! spaced"]) {
      const refused = await admin.post(rooms, { roomId });
      assert.equal(refused.status, 400, roomId);
    }
    assert.equal((await admin.post(rooms, { roomId: "!abcdef:bots.test" })).status, 409, "already assigned");
    assert.equal((await admin.get(rooms)).body.rooms.length, 2);

    const features = `/api/admin/bots/${bot.id}/features`;
    const global = await admin.put(features, { featureKey: "thread_replies", enabled: true });
    assert.equal(global.status, 200, global.text);
    assert.deepEqual(
      [global.body.feature.scope, global.body.feature.scopeId, global.body.feature.enabled],
      ["global", null, true],
    );
    const roomScoped = await admin.put(features, {
      featureKey: "keyword_triggers",
      enabled: false,
      scope: "room",
      scopeId: "!abcdef:bots.test",
      config: { keywords: ["spam"] },
    });
    assert.equal(roomScoped.status, 200, roomScoped.text);
    assert.equal(roomScoped.body.feature.scopeId, "!abcdef:bots.test");
    const again = await admin.put(features, {
      featureKey: "keyword_triggers",
      enabled: true,
      scope: "room",
      scopeId: "!abcdef:bots.test",
    });
    assert.equal(again.body.feature.id, roomScoped.body.feature.id, "the same toggle is updated");
    for (const body of [
      { featureKey: "teleport", enabled: true },
      { featureKey: "thread_replies" },
      { featureKey: "thread_replies", enabled: true, scope: "room" },
      { featureKey: "thread_replies", enabled: true, scope: "global", scopeId: "!abcdef:bots.test" },
      { featureKey: "thread_replies", enabled: true, scope: "space" },
      { featureKey: "thread_replies", enabled: true, scope: "room", scopeId: "!notassigned:bots.test" },
    ]) {
      assert.equal((await admin.put(features, body)).status, 400, JSON.stringify(body));
    }
    const list = (await admin.get(features)).body.features as { scope: string }[];
    assert.equal(list.filter((f) => f.scope === "global").length, 10);
    assert.equal(list.filter((f) => f.scope === "room").length, 1);

    const assignment = assigned.body.room.id;
    assert.deepEqual((await admin.delete(`${rooms}/${assignment}`)).body, { deleted: true });
    assert.equal((await admin.delete(`${rooms}/${assignment}`)).status, 404);
    assert.equal(
      ((await admin.get(features)).body.features as { scope: string }[]).filter((f) => f.scope === "room").length,
      0,
      "the room's toggles went with the assignment",
    );
    const actions = (await auditFor(bot.id)).map((entry) => entry.action);
    assert.deepEqual(actions, [
      "bot.created",
      "bot.room.assigned",
      "bot.room.assigned",
      "bot.feature.updated",
      "bot.feature.updated",
      "bot.feature.updated",
      "bot.room.unassigned",
    ]);
  });

  it("activates and deactivates, and deletes only a deactivated bot", async () => {
    const bot = await create({ templateId: "reminder", displayName: "Reminder" });
    const patch = (body: unknown) => admin.patch(`/api/admin/bots/${bot.id}`, body);
    const active = await patch({ action: "activate" });
    assert.deepEqual([active.body.bot.status, active.body.bot.enabled], ["active", true]);
    const refused = await admin.delete(`/api/admin/bots/${bot.id}`);
    assert.deepEqual([refused.status, refused.body.errorCode], [409, "CONFLICT"]);
    const inactive = await patch({ action: "deactivate" });
    assert.deepEqual([inactive.body.bot.status, inactive.body.bot.enabled], ["inactive", false]);
    assert.equal((await patch({ action: "explode" })).status, 400);
    assert.equal((await patch({ action: "set_token" })).status, 400, "accessToken required");
    assert.deepEqual((await admin.delete(`/api/admin/bots/${bot.id}`)).body, { deleted: true });
    assert.equal((await admin.get(`/api/admin/bots/${bot.id}`)).status, 404);
    assert.deepEqual(
      (await auditFor(bot.id)).map((entry) => entry.action),
      ["bot.created", "bot.activated", "bot.deactivated", "bot.deleted"],
    );
  });

  it("checks a new token with whoami, stores it sealed, pushes the profile, and audits nothing", async () => {
    const bot = await create({
      templateId: "notifier",
      displayName: "Feed Bot",
      localpart: "feeds",
      avatarUrl: "mxc://bots.test/feedavatar",
    });
    const setToken = (accessToken: string) => admin.patch(`/api/admin/bots/${bot.id}`, { action: "set_token", accessToken });

    const unknown = await setToken("syt_unknown_token_000");
    assert.deepEqual([unknown.status, unknown.body.errorCode], [400, "M_UNKNOWN_TOKEN"]);
    const other = hs.createUser("someone-else");
    const wrongUser = await setToken(other.accessToken);
    assert.equal(wrongUser.status, 400);
    assert.match(wrongUser.body.error, /@someone-else:bots\.test/);
    assert.equal((await admin.get(`/api/admin/bots/${bot.id}`)).body.bot.hasAccessToken, false, "refused tokens are not stored");

    const account = hs.createUser("feeds");
    const accepted = await setToken(account.accessToken);
    assert.equal(accepted.status, 200, accepted.text);
    assert.deepEqual(accepted.body.tokenCheck, { verified: true, userId: "@feeds:bots.test" });
    assert.deepEqual(accepted.body.profileSync, { displayname: "ok", avatar_url: "ok" });
    assert.equal(accepted.body.bot.hasAccessToken, true);
    assert.ok(accepted.body.bot.tokenVerifiedAt);
    assert.ok(accepted.body.bot.profileSyncedAt);
    assert.equal(accepted.text.includes(account.accessToken), false);
    const profile = hs.users().find((user) => user.userId === "@feeds:bots.test");
    assert.deepEqual([profile?.displayName, profile?.avatarUrl], ["Feed Bot", "mxc://bots.test/feedavatar"]);

    const renamed = await admin.put(`/api/admin/bots/${bot.id}`, { displayName: "News Bot", avatarUrl: null });
    assert.deepEqual(renamed.body.profileSync, { displayname: "ok", avatar_url: "ok" });
    const after = hs.users().find((user) => user.userId === "@feeds:bots.test");
    assert.deepEqual([after?.displayName, after?.avatarUrl], ["News Bot", undefined]);

    const actions = (await auditFor(bot.id)).map((entry) => entry.action);
    assert.deepEqual(actions, ["bot.created", "bot.updated"], "set_token writes no audit record");
    assert.equal(JSON.stringify(await auditFor(bot.id)).includes(account.accessToken), false);
  });

  it("stores a token unverified when the homeserver cannot be asked", async () => {
    const gone = await startSimulator({ serverName: "gone.test" });
    const goneServer = await addServer(admin, gone);
    await gone.close();
    const reply = await admin.post(`/api/admin/bots?serverId=${goneServer.id}`, { templateId: "custom", displayName: "Lonely" });
    const set = await admin.patch(`/api/admin/bots/${reply.body.bot.id}`, {
      action: "set_token",
      accessToken: "syt_offline_token_123",
    });
    assert.equal(set.status, 200, set.text);
    assert.equal(set.body.tokenCheck.verified, false);
    assert.match(set.body.tokenCheck.reason, /could not be asked/);
    assert.deepEqual(set.body.profileSync, { skipped: "the homeserver is unreachable" });
    assert.deepEqual([set.body.bot.hasAccessToken, set.body.bot.tokenVerifiedAt], [true, null]);
  });
});
