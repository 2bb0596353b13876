import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { HomeserverSimulator } from "../../simulators/homeserver/index.ts";
import { type MasSimulator, startMasSimulator } from "../../simulators/mas/index.ts";
import { addMasServer, masServerBody, startMasPair } from "./support/mas-harness.ts";
import { allResponses, type PortalClient } from "./support/portal-client.ts";
import {
  addServer,
  removeDataDir,
  startSimulator,
  startTestPortal,
  storedBytes,
  type TestPortal,
} from "./support/portal-harness.ts";

/** Managed servers of kind `mas`: the check on save, the credential rules, the secret at rest, and diagnostics. */
describe("servers of kind mas", () => {
  let portal: TestPortal;
  let admin: PortalClient;
  let mas: MasSimulator;
  let hs: HomeserverSimulator;
  let stopped: MasSimulator;
  const closers: (() => Promise<void>)[] = [];
  before(async () => {
    portal = await startTestPortal();
    admin = await portal.admin();
    ({ mas, hs } = await startMasPair("kind.test"));
    stopped = await startMasSimulator({ serverName: "kind.test" });
    await stopped.close();
    closers.push(
      () => mas.close(),
      () => hs.close(),
    );
  });
  after(async () => {
    await portal.stop();
    for (const close of closers) await close();
    removeDataDir(portal.dataDir);
  });

  it("checks MAS on save: token grant and admin API; stores the record without the secret", async () => {
    const created = await admin.post("/api/admin/servers", masServerBody(hs, mas, { slug: "mas-main", name: "MAS main" }));
    assert.equal(created.status, 201, created.text);
    const { server, diagnostics } = created.body;
    assert.deepEqual(
      [server.kind, server.masUrl, server.masClientId, server.masPublicUrl, server.hasAdminToken, server.lastDiagOk],
      ["mas", mas.url, mas.client.clientId, null, false, true],
    );
    assert.equal("masClientSecret" in server, false);
    assert.deepEqual(
      [diagnostics.kind, diagnostics.detectedKind, diagnostics.authIssuer, diagnostics.msc3861Detected, diagnostics.errors],
      ["mas", "mas", mas.issuer, true, []],
    );
    assert.deepEqual(
      [diagnostics.mas.tokenGrant, diagnostics.mas.adminApi, diagnostics.mas.version, diagnostics.mas.tokenRequired],
      [true, true, "v1.22.0", true],
    );
    assert.deepEqual([diagnostics.adminApiReachable, diagnostics.tokenRegistrationSupported], [true, true]);
    const audit = (await admin.get(`/api/admin/audit?serverId=${server.id}`)).body.logs[0];
    assert.deepEqual([audit.action, audit.detail.kind], ["server.created", "mas"]);
  });

  it("refuses to save with the reason when MAS is down, refuses the client or the scope; saveAnyway stores it", async () => {
    const failures: [Record<string, unknown>, string, RegExp][] = [
      [{ masUrl: stopped.url }, "MAS_UNREACHABLE", /No Matrix Authentication Service answered/],
      [{ masClientSecret: "not-the-secret" }, "MAS_CLIENT_REFUSED", /invalid_client/],
    ];
    const plain = await startMasSimulator({
      serverName: "kind.test",
      clients: [{ clientId: "01JPLA1NC11ENT0000000000AA", clientSecret: "pw", admin: false }],
    });
    closers.push(() => plain.close());
    failures.push([
      { masUrl: plain.url, masClientId: "01JPLA1NC11ENT0000000000AA", masClientSecret: "pw" },
      "MAS_SCOPE_REFUSED",
      /policy\.data\.admin_clients/,
    ]);
    for (const [fields, code, message] of failures) {
      const refused = await admin.post("/api/admin/servers", masServerBody(hs, mas, fields));
      assert.deepEqual([refused.status, refused.body.errorCode], [422, code], refused.text);
      assert.match(refused.body.error, message);
    }
    const anyway = await admin.post("/api/admin/servers?saveAnyway=true", masServerBody(hs, mas, { masUrl: stopped.url }));
    assert.equal(anyway.status, 201);
    assert.equal(anyway.body.server.lastDiagAt, null);
  });

  it("validates the kind's fields", async () => {
    const missing = await admin.post("/api/admin/servers", { ...masServerBody(hs, mas), masClientSecret: undefined });
    assert.equal(missing.status, 400);
    assert.match(missing.body.error, /masClientSecret is required/);
    const mixed = await admin.post("/api/admin/servers", {
      name: "Mixed",
      slug: "mixed",
      serverName: "kind.test",
      internalUrl: hs.url,
      publicUrl: "https://matrix.kind.test",
      adminToken: "x",
      masUrl: mas.url,
    });
    assert.equal(mixed.status, 400);
    assert.match(mixed.body.error, /belong to servers of kind mas/);
    const synapseWithoutToken = await admin.post("/api/admin/servers", {
      name: "No token",
      slug: "no-token",
      serverName: "kind.test",
      internalUrl: hs.url,
      publicUrl: "https://matrix.kind.test",
    });
    assert.match(synapseWithoutToken.body.error, /adminToken is required/);
  });

  it("sends the stored secret only to the MAS origin and client it was given for; rotations are audited", async () => {
    const server = await addMasServer(admin, hs, mas, { enable: false });
    const put = (body: Record<string, unknown>) => admin.put(`/api/admin/servers/${server.id}`, body);
    const moved = await put({ masUrl: "http://127.0.0.2:1" });
    assert.deepEqual([moved.status, moved.body.errorCode], [400, "MAS_SECRET_REQUIRED"]);
    const otherClient = await put({ masClientId: "01JOTHERC11ENT000000000000" });
    assert.equal(otherClient.body.errorCode, "MAS_SECRET_REQUIRED");
    const samePlace = await put({ masUrl: `${mas.url}/`, masPublicUrl: "https://auth.kind.test" });
    assert.equal(samePlace.status, 200, samePlace.text);
    assert.equal(samePlace.body.server.masPublicUrl, "https://auth.kind.test");
    const withSecret = await put({ masUrl: "http://127.0.0.2:1", masClientSecret: "new-secret" });
    assert.equal(withSecret.status, 200);
    const rotate = await admin.patch(`/api/admin/servers/${server.id}`, {
      action: "rotate_mas_secret",
      masClientSecret: "again",
    });
    assert.equal(rotate.status, 200);
    const audit = (await admin.get(`/api/admin/audit?serverId=${server.id}`)).body.logs as {
      action: string;
      detail: Record<string, unknown>;
    }[];
    const rotations = audit.filter((entry) => entry.action === "server.token.rotated").map((entry) => entry.detail);
    assert.deepEqual(rotations, [
      { credential: "masClientSecret" },
      { credential: "masClientSecret", origin: "http://127.0.0.2:1" },
    ]);

    const toSynapse = await put({ kind: "synapse" });
    assert.deepEqual([toSynapse.status, toSynapse.body.errorCode], [400, "ADMIN_TOKEN_REQUIRED"]);
    const switched = await put({ kind: "synapse", adminToken: hs.adminToken });
    assert.equal(switched.status, 200);
    assert.deepEqual(
      [switched.body.server.kind, switched.body.server.masUrl, switched.body.server.hasAdminToken],
      ["synapse", null, true],
    );
    const noSecret = await admin.patch(`/api/admin/servers/${server.id}`, { action: "rotate_mas_secret", masClientSecret: "x" });
    assert.equal(noSecret.status, 409);
    const back = await put({ kind: "mas", masUrl: mas.url, masClientId: mas.client.clientId });
    assert.equal(back.body.errorCode, "MAS_SECRET_REQUIRED", "the cleared secret is not silently reused");
  });

  it("never shows the client secret: not in responses, not in logs, not in clear in the database", async () => {
    const secret = mas.client.clientSecret;
    await admin.get("/api/admin/servers");
    await admin.get("/api/admin/audit?limit=200");
    assert.equal(allResponses.join("\n").includes(secret), false, "a response holds the secret");
    assert.equal(portal.logs().join("\n").includes(secret), false, "a log line holds the secret");
    const db = (await storedBytes(portal.dataDir)).bytes;
    assert.ok(db.includes("mas_client_secret_enc"));
    assert.equal(db.includes(secret), false, "the database holds the secret in clear");
  });

  it("diagnostics say which kind fits: a Synapse server that delegates, a MAS server whose homeserver does not", async () => {
    const delegating = await addServer(admin, hs, { saveAnyway: true, enable: false, fields: { adminToken: hs.adminToken } });
    const synapseView = (await admin.get(`/api/admin/diagnostics?serverId=${delegating.id}`)).body.diagnostics;
    assert.deepEqual([synapseView.kind, synapseView.detectedKind, synapseView.authIssuer], ["synapse", "mas", mas.issuer]);
    assert.ok(synapseView.errors.some((error: string) => /kind mas/.test(error) && error.includes(mas.issuer)));
    assert.equal(synapseView.tokenEndpointsAvailable, false);

    const plainHs = await startSimulator({ serverName: "kind.test", serveClientWellKnown: true });
    closers.push(() => plainHs.close());
    const wrongKind = await admin.post("/api/admin/servers", masServerBody(plainHs, mas));
    assert.equal(wrongKind.status, 201, "MAS itself answers, so the server can be saved");
    const masView = wrongKind.body.diagnostics;
    assert.deepEqual([masView.kind, masView.detectedKind, masView.msc3861Detected], ["mas", "synapse", false]);
    assert.ok(masView.errors.some((error: string) => /kind synapse fits/.test(error)));
    assert.equal(wrongKind.body.server.lastDiagOk, false);
  });
});
