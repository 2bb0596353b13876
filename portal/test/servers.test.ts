import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { HomeserverSimulator } from "../../simulators/homeserver/index.ts";
import type { PortalClient } from "./support/portal-client.ts";
import {
  ADMIN_EMAIL,
  addServer,
  startPortalWithHomeserver,
  stopPortalWithHomeserver,
  type TestPortal,
} from "./support/portal-harness.ts";

const SERVER_FIELDS = [
  "brandingProfileId",
  "createdAt",
  "enabled",
  "hasAdminToken",
  "id",
  "internalUrl",
  "isDefault",
  "kind",
  "lastDiagAt",
  "lastDiagOk",
  "managedMode",
  "masClientId",
  "masPublicUrl",
  "masUrl",
  "name",
  "notes",
  "publicDomain",
  "publicUrl",
  "registrationMode",
  "routePrefix",
  "serverName",
  "slug",
  "status",
  "updatedAt",
];

describe("managed servers", () => {
  let portal: TestPortal;
  let hs: HomeserverSimulator;
  let admin: PortalClient;
  before(async () => {
    ({ portal, hs, admin } = await startPortalWithHomeserver({ homeserver: { serverName: "servers.test" }, server: false }));
  });
  after(() => stopPortalWithHomeserver(portal, hs));

  /** The audit actions recorded for one server, oldest first. */
  async function auditActions(serverId: string): Promise<string[]> {
    const reply = await admin.get(`/api/admin/audit?serverId=${serverId}&limit=200`);
    return (reply.body.logs as { action: string }[]).map((entry) => entry.action).reverse();
  }

  it("creates a disabled draft, checked on save, with the token stripped; the first server becomes the default", async () => {
    const created = await admin.post("/api/admin/servers", {
      name: "Main",
      slug: "main",
      serverName: hs.serverName,
      internalUrl: `${hs.url}/`,
      publicUrl: "https://matrix.servers.test",
      adminToken: hs.adminToken,
      notes: "primary",
      publicDomain: "Join.Servers.Test",
      routePrefix: "/join",
    });
    assert.equal(created.status, 201, created.text);
    const server = created.body.server;
    assert.deepEqual(Object.keys(server).sort(), SERVER_FIELDS);
    assert.equal(server.status, "draft");
    assert.equal(server.enabled, false);
    assert.equal(server.isDefault, true);
    assert.equal(server.internalUrl, hs.url, "trailing slash removed");
    assert.equal(server.publicDomain, "join.servers.test");
    assert.equal(created.body.diagnostics.homeserverReachable, true, "the check's result comes with the server");
    assert.equal(server.lastDiagAt, created.body.diagnostics.checkedAt, "and is stored as its last diagnostics");
    assert.equal(server.lastDiagOk, true);
    assert.equal(created.text.includes(hs.adminToken), false);
    const entry = (await admin.get(`/api/admin/audit?serverId=${server.id}`)).body.logs[0];
    assert.equal(entry.action, "server.created");
    assert.deepEqual(entry.detail, { name: "Main", slug: "main", isDefault: true, checked: true, ok: true });
    assert.equal(entry.actor, ADMIN_EMAIL);
    assert.equal(entry.target, server.id);
    assert.match(entry.ip, /^10\.77\./);

    const fetched = await admin.get(`/api/admin/servers/${server.id}`);
    assert.deepEqual(fetched.body.server, server);
  });

  it("validates every field with 400 in the error shape and refuses duplicates with 409", async () => {
    const base = {
      name: "V",
      slug: "valid-slug",
      serverName: "v.test",
      internalUrl: "http://127.0.0.1:1",
      publicUrl: "https://v.test",
      adminToken: "t",
    };
    const bad: Record<string, unknown>[] = [
      { name: "n".repeat(201) },
      { slug: "s".repeat(101) },
      { slug: "Not_Valid" },
      { serverName: "s".repeat(501) },
      { internalUrl: "not a url" },
      { publicUrl: "ftp://x.test" },
      { adminToken: "t".repeat(10001) },
      { notes: "n".repeat(5001) },
      { publicDomain: "d".repeat(501) },
      { routePrefix: `/${"r".repeat(100)}` },
      { name: undefined },
      { status: "active" },
    ];
    for (const change of bad) {
      const reply = await admin.post("/api/admin/servers", { ...base, ...change });
      assert.equal(reply.status, 400, JSON.stringify(change).slice(0, 50));
      assert.equal(reply.body.success, false);
      assert.equal(reply.body.errorCode, "BAD_REQUEST");
      assert.equal(typeof reply.body.error, "string");
    }
    // Nothing listens at port 1: these servers are stored unchecked.
    const limits = await admin.post("/api/admin/servers?saveAnyway=true", {
      ...base,
      name: "n".repeat(200),
      slug: "s".repeat(100),
      adminToken: "t".repeat(10000),
      notes: "n".repeat(5000),
      routePrefix: `/${"r".repeat(99)}`,
    });
    assert.equal(limits.status, 201, limits.text);
    const duplicate = await admin.post("/api/admin/servers", { ...base, slug: "main" });
    assert.equal(duplicate.status, 409);
    assert.deepEqual(duplicate.body, { success: false, error: "Another server already uses this slug", errorCode: "CONFLICT" });
    const domain = await admin.post("/api/admin/servers", { ...base, slug: "other-domain", publicDomain: "join.servers.test" });
    assert.equal(domain.status, 409);
    const huge = await admin.post("/api/admin/servers", { ...base, notes: "n".repeat(70_000) });
    assert.equal(huge.status, 413);
    assert.equal(huge.body.errorCode, "PAYLOAD_TOO_LARGE");
    const malformed = await admin.request("POST", "/api/admin/servers", { raw: "{not json" });
    assert.equal(malformed.status, 400);
    assert.equal(malformed.body.errorCode, "BAD_REQUEST");
    assert.equal((await admin.get("/api/admin/servers/does-not-exist")).status, 404);
  });

  it("updates fields, clears optional ones with null, refuses the admin token and audits server.updated", async () => {
    const server = await addServer(admin, hs, { enable: false, fields: { notes: "to clear", routePrefix: "/x" } });
    const reply = await admin.put(`/api/admin/servers/${server.id}`, {
      name: "Renamed",
      notes: null,
      routePrefix: null,
      registrationMode: "token",
      managedMode: "guided",
    });
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.body.server.name, "Renamed");
    assert.equal(reply.body.server.notes, null);
    assert.equal(reply.body.server.routePrefix, null);
    assert.equal(reply.body.server.registrationMode, "token");
    assert.equal(reply.body.server.managedMode, "guided");
    const token = await admin.put(`/api/admin/servers/${server.id}`, { adminToken: "sneaky" });
    assert.equal(token.status, 400);
    assert.match(token.body.error, /rotate_token/);
    assert.equal((await admin.put(`/api/admin/servers/${server.id}`, {})).status, 400);
    assert.equal((await admin.put(`/api/admin/servers/${server.id}`, { slug: "main" })).status, 409);
    assert.equal((await admin.put("/api/admin/servers/nope", { name: "x" })).status, 404);
    const audit = (await admin.get(`/api/admin/audit?serverId=${server.id}`)).body.logs[0];
    assert.equal(audit.action, "server.updated");
    assert.deepEqual(audit.detail, { fields: ["name", "notes", "routePrefix", "registrationMode", "managedMode"] });
  });

  it("walks the state table: draft → active → disabled, one default, token rotation, each audited", async () => {
    const server = await addServer(admin, hs, { enable: false });
    const patch = (body: unknown) => admin.patch(`/api/admin/servers/${server.id}`, body);
    const disabledDraft = await patch({ action: "disable" });
    assert.equal(disabledDraft.body.server.status, "draft", "a never-enabled server stays a draft");
    const enabled = await patch({ action: "enable" });
    assert.equal(enabled.status, 200);
    assert.equal(enabled.body.server.enabled, true);
    assert.equal(enabled.body.server.status, "active");
    const disabled = await patch({ action: "disable" });
    assert.equal(disabled.body.server.enabled, false);
    assert.equal(disabled.body.server.status, "disabled");

    const before = (await admin.get("/api/admin/servers")).body.servers.find((s: { isDefault: boolean }) => s.isDefault);
    const made = await patch({ action: "set_default" });
    assert.equal(made.body.server.isDefault, true);
    const servers = (await admin.get("/api/admin/servers")).body.servers as { id: string; isDefault: boolean }[];
    assert.equal(servers.filter((s) => s.isDefault).length, 1, "exactly one default");
    assert.equal(servers[0]?.id, server.id, "the default is listed first");

    const rotated = await patch({ action: "rotate_token", adminToken: "syt_rotated_value" });
    assert.equal(rotated.status, 200);
    assert.equal(rotated.text.includes("syt_rotated_value"), false);
    assert.equal((await patch({ action: "rotate_token" })).status, 400);
    assert.equal((await patch({ action: "rotate_token", adminToken: "" })).status, 400);
    assert.equal((await patch({ action: "launch" })).status, 400);
    assert.equal((await admin.patch("/api/admin/servers/nope", { action: "enable" })).status, 404);

    assert.deepEqual(await auditActions(server.id), [
      "server.created",
      "server.disabled",
      "server.enabled",
      "server.disabled",
      "server.default.changed",
      "server.token.rotated",
    ]);
    const change = (await admin.get(`/api/admin/audit?serverId=${server.id}&limit=2`)).body.logs[1];
    assert.deepEqual(change.detail, { previousDefault: before.id });
    // Give the default back so later tests can delete this one.
    await admin.patch(`/api/admin/servers/${before.id}`, { action: "set_default" });
  });

  it("stores diagnostics as lastDiagAt/lastDiagOk and answers the full result", async () => {
    const server = await addServer(admin, hs);
    const reply = await admin.patch(`/api/admin/servers/${server.id}`, { action: "diagnostics" });
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.body.diagnostics.homeserverReachable, true);
    assert.deepEqual(reply.body.diagnostics.errors, []);
    assert.equal(reply.body.server.lastDiagOk, true);
    assert.equal(reply.body.server.lastDiagAt, reply.body.diagnostics.checkedAt);
    const entry = (await admin.get(`/api/admin/audit?serverId=${server.id}`)).body.logs[0];
    assert.equal(entry.action, "server.diagnostics.run");
    assert.deepEqual(entry.detail, { ok: true });

    await admin.patch(`/api/admin/servers/${server.id}`, { action: "rotate_token", adminToken: "wrong-token" });
    const failed = await admin.patch(`/api/admin/servers/${server.id}`, { action: "diagnostics" });
    assert.equal(failed.body.server.lastDiagOk, false);
    assert.ok(failed.body.server.lastDiagAt >= reply.body.server.lastDiagAt);
  });

  it("deletes only disabled, non-default servers (409 otherwise) and keeps their audit trail", async () => {
    const server = await addServer(admin, hs);
    const enabled = await admin.delete(`/api/admin/servers/${server.id}`);
    assert.equal(enabled.status, 409);
    assert.deepEqual(enabled.body, { success: false, error: "Disable the server before deleting it", errorCode: "CONFLICT" });
    await admin.patch(`/api/admin/servers/${server.id}`, { action: "set_default" });
    await admin.patch(`/api/admin/servers/${server.id}`, { action: "disable" });
    const isDefault = await admin.delete(`/api/admin/servers/${server.id}`);
    assert.equal(isDefault.status, 409);
    assert.match(isDefault.body.error, /another server the default/);

    const main = (await admin.get("/api/admin/servers")).body.servers.find((s: { slug: string }) => s.slug === "main");
    await admin.patch(`/api/admin/servers/${main.id}`, { action: "set_default" });
    const deleted = await admin.delete(`/api/admin/servers/${server.id}`);
    assert.equal(deleted.status, 200);
    assert.deepEqual(deleted.body, { deleted: true });
    assert.equal((await admin.get(`/api/admin/servers/${server.id}`)).status, 404);
    assert.equal((await admin.delete(`/api/admin/servers/${server.id}`)).status, 404);
    const actions = await auditActions(server.id);
    assert.equal(actions.at(-1), "server.deleted");
  });

  it("lists the default first, then by creation date, without token fields", async () => {
    const reply = await admin.get("/api/admin/servers");
    const servers = reply.body.servers as { isDefault: boolean; createdAt: string }[];
    assert.ok(servers.length >= 5);
    assert.equal(servers[0]?.isDefault, true);
    const rest = servers.slice(1).map((s) => s.createdAt);
    assert.deepEqual(rest, [...rest].sort());
    assert.equal(reply.text.includes(hs.adminToken), false);
    assert.doesNotMatch(reply.text, /adminToken|admin_token|v1:/);
  });
});
