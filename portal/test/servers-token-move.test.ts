import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { HomeserverSimulator } from "../../simulators/homeserver/index.ts";
import type { PortalClient } from "./support/portal-client.ts";
import { startPortalWithHomeserver, stopPortalWithHomeserver, type TestPortal } from "./support/portal-harness.ts";
import { type RecordingServer, startRecordingServer } from "./support/recording-server.ts";

/** Issue 16 item 6: a managed server's admin token only ever goes to the origin it was given for. */
describe("managed servers: moving the internal URL to another host", () => {
  let portal: TestPortal;
  let hs: HomeserverSimulator;
  let admin: PortalClient;
  let serverId: string;
  let elsewhere: RecordingServer;
  before(async () => {
    ({ portal, hs, admin, serverId } = await startPortalWithHomeserver({ homeserver: { serverName: "move.test" } }));
    elsewhere = await startRecordingServer();
  });
  after(async () => {
    await elsewhere.close();
    await stopPortalWithHomeserver(portal, hs);
  });

  const server = async () => (await admin.get(`/api/admin/servers/${serverId}`)).body.server;
  const put = (body: Record<string, unknown>) => admin.put(`/api/admin/servers/${serverId}`, body);
  /** Every homeserver call the portal makes for this server with its admin token (diagnostics probe them all). */
  const useTheToken = async () => {
    await admin.get(`/api/admin/diagnostics?serverId=${serverId}`);
    return admin.get(`/api/admin/tokens?serverId=${serverId}`);
  };

  it("refuses an internalUrl on another scheme, host or port without the admin token, changing nothing", async () => {
    const before = await server();
    const port = new URL(hs.url).port;
    for (const internalUrl of [elsewhere.url, `https://127.0.0.1:${port}`, `http://localhost:${port}`]) {
      const reply = await put({ internalUrl, name: "Moved" });
      assert.equal(reply.status, 400, internalUrl);
      assert.equal(reply.body.success, false);
      assert.equal(reply.body.errorCode, "ADMIN_TOKEN_REQUIRED", internalUrl);
      assert.match(reply.body.error, /admin token/);
    }
    assert.deepEqual(await server(), before, "neither the URL nor the name changed");
    assert.equal((await useTheToken()).status, 200, "the stored token still works where it belongs");
    assert.deepEqual(elsewhere.requests(), [], "nothing reached the other host");
    const audit = (await admin.get(`/api/admin/audit?serverId=${serverId}`)).body.logs;
    assert.equal(
      audit.some((entry: { action: string }) => entry.action === "server.updated"),
      false,
    );
  });

  it("keeps the token when the URL stays on the same origin (path, trailing slash, case)", async () => {
    const origin = new URL(hs.url);
    for (const internalUrl of [`${hs.url}/synapse`, `${hs.url}/`, `HTTP://${origin.host}`]) {
      const reply = await put({ internalUrl });
      assert.equal(reply.status, 200, `${internalUrl}: ${reply.text}`);
    }
    assert.equal((await server()).internalUrl, `HTTP://${origin.host}`);
    assert.equal((await useTheToken()).status, 200);
    await put({ internalUrl: hs.url });
  });

  it("moves with the new host's token: the old token never reaches the new host", async () => {
    const moved = await put({ internalUrl: elsewhere.url, adminToken: "syt_token_for_the_new_host" });
    assert.equal(moved.status, 200, moved.text);
    assert.equal(moved.body.server.internalUrl, elsewhere.url);
    assert.equal(moved.text.includes("syt_token_for_the_new_host"), false);
    await useTheToken();
    const sent = elsewhere.requests().map((request) => request.authorization);
    assert.ok(sent.includes("Bearer syt_token_for_the_new_host"), "the new token was used there");
    assert.equal(sent.includes(`Bearer ${hs.adminToken}`), false, "the old token never was");
    const logs = (await admin.get(`/api/admin/audit?serverId=${serverId}&limit=2`)).body.logs;
    assert.deepEqual(
      logs.map((entry: { action: string }) => entry.action),
      ["server.token.rotated", "server.updated"],
    );
    assert.deepEqual(logs[0].detail, { origin: new URL(elsewhere.url).origin });
    assert.deepEqual(logs[1].detail, { fields: ["internalUrl", "adminToken"] });

    const back = await put({ internalUrl: hs.url, adminToken: hs.adminToken });
    assert.equal(back.status, 200, back.text);
    assert.equal((await admin.get(`/api/admin/tokens?serverId=${serverId}`)).status, 200);
  });

  it("still takes the admin token alone only through rotate_token, and refuses a malformed one", async () => {
    const alone = await put({ adminToken: "syt_elsewhere" });
    assert.equal(alone.status, 400);
    assert.match(alone.body.error, /rotate_token/);
    const malformed = await put({ internalUrl: elsewhere.url, adminToken: "has spaces in it" });
    assert.equal(malformed.status, 400);
    assert.equal(malformed.body.errorCode, "BAD_REQUEST");
    assert.equal((await server()).internalUrl, hs.url);
  });
});
