import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { freePort } from "../../lib/testing/processes.ts";
import type { HomeserverSimulator } from "../../simulators/homeserver/index.ts";
import type { PortalClient } from "./support/portal-client.ts";
import {
  addServer,
  removeDataDir,
  startPortalWithHomeserver,
  startSimulator,
  startTestPortal,
  stopPortalWithHomeserver,
  type TestPortal,
} from "./support/portal-harness.ts";
import { type RecordingServer, startRecordingServer } from "./support/recording-server.ts";

/** Link-local and cloud metadata addresses, in the spellings a URL can take. */
const METADATA_URLS = [
  "http://169.254.169.254",
  "http://169.254.169.254.:80/latest",
  "http://0xa9fea9fe",
  "http://2852039166",
  "http://[::ffff:169.254.169.254]",
  "http://[fe80::1]:8008",
  "http://[fd00:ec2::254]",
  "http://100.100.100.200",
  "http://metadata.google.internal",
  "http://METADATA.google.internal.",
];

const body = (internalUrl: string, slug: string) => ({
  name: "Outbound",
  slug,
  serverName: "outbound.test",
  internalUrl,
  publicUrl: "https://matrix.outbound.test",
  adminToken: "syt_outbound",
});

describe("managed servers: outbound rules (default)", () => {
  let portal: TestPortal;
  let hs: HomeserverSimulator;
  let admin: PortalClient;
  let serverId: string;
  before(async () => {
    ({ portal, hs, admin, serverId } = await startPortalWithHomeserver({ homeserver: { serverName: "outbound.test" } }));
  });
  after(() => stopPortalWithHomeserver(portal, hs));

  it("refuses link-local and metadata internal URLs with 400 on create and update, creating and changing nothing", async () => {
    const before = (await admin.get("/api/admin/servers")).body.servers;
    for (const [index, internalUrl] of METADATA_URLS.entries()) {
      const created = await admin.post("/api/admin/servers", body(internalUrl, `denied-${index}`));
      assert.equal(created.status, 400, `${internalUrl}: ${created.text}`);
      assert.equal(created.body.errorCode, "OUTBOUND_DENIED", internalUrl);
      assert.match(created.body.error, /^internalUrl: .*(link-local|metadata)/);
      const updated = await admin.put(`/api/admin/servers/${serverId}`, { internalUrl, adminToken: "syt_outbound" });
      assert.equal(updated.status, 400, internalUrl);
      assert.equal(updated.body.errorCode, "OUTBOUND_DENIED");
    }
    assert.deepEqual((await admin.get("/api/admin/servers")).body.servers, before);
  });

  it("keeps loopback and private addresses allowed: a homeserver on the LAN or the same host is normal", async () => {
    for (const [index, internalUrl] of [
      "http://10.0.0.5:8008",
      "http://192.168.1.10",
      "http://[fd12::1]:8008",
      "http://synapse:8008",
    ].entries()) {
      const created = await admin.post("/api/admin/servers?saveAnyway=true", body(internalUrl, `allowed-${index}`));
      assert.equal(created.status, 201, `${internalUrl}: ${created.text}`);
    }
    assert.equal((await admin.get(`/api/admin/tokens?serverId=${serverId}`)).status, 200, "127.0.0.1 (the simulator) works");
  });
});

describe("managed servers: homeserver errors that do not map ports", () => {
  let portal: TestPortal;
  let hs: HomeserverSimulator;
  let admin: PortalClient;
  let web: RecordingServer;
  before(async () => {
    ({ portal, hs, admin } = await startPortalWithHomeserver({ homeserver: { serverName: "ports.test" }, server: false }));
    web = await startRecordingServer();
  });
  after(async () => {
    await web.close();
    await stopPortalWithHomeserver(portal, hs);
  });

  it("answers admin calls alike whether nothing listens or a web server that is no homeserver answers", async () => {
    const closed = await addServer(admin, hs, {
      fields: { internalUrl: `http://127.0.0.1:${await freePort()}` },
      saveAnyway: true,
    });
    const other = await addServer(admin, hs, { fields: { internalUrl: web.url }, saveAnyway: true });
    const replies = await Promise.all([closed, other].map((server) => admin.get(`/api/admin/tokens?serverId=${server.id}`)));
    for (const reply of replies) {
      assert.equal(reply.status, 502);
      assert.deepEqual(reply.body, {
        success: false,
        error: "No Matrix homeserver answered at this server's internal URL (the cause is in the portal log)",
        errorCode: "HOMESERVER_UNREACHABLE",
      });
    }
    assert.ok(
      portal.logs().some((line) => line.includes("homeserver call failed") && line.includes("ECONNREFUSED")),
      "the operator finds the cause in the log",
    );
  });
});

describe("managed servers: PORTAL_OUTBOUND_DENY and PORTAL_OUTBOUND_ALLOW", () => {
  let hs: HomeserverSimulator;
  const portals: TestPortal[] = [];
  before(async () => {
    hs = await startSimulator({ serverName: "rules.test" });
  });
  after(async () => {
    for (const portal of portals) {
      await portal.stop();
      removeDataDir(portal.dataDir);
    }
    await hs.close();
  });

  async function portalWith(env: Record<string, string>) {
    const portal = await startTestPortal({ env });
    portals.push(portal);
    return { portal, admin: await portal.admin() };
  }

  it("refuses a denied address at connect time, when a name resolves to it: the homeserver is never reached", async () => {
    const { admin, portal } = await portalWith({ PORTAL_OUTBOUND_DENY: "127.0.0.0/8, ::1" });
    const literal = await admin.post("/api/admin/servers", body(hs.url, "literal"));
    assert.equal(literal.status, 400, "an IP literal is refused up front");
    assert.match(literal.body.error, /PORTAL_OUTBOUND_DENY/);

    // `localhost` is a name: only the connection can know where it leads. The check on save meets the refusal first.
    const before = hs.requests().length;
    const internalUrl = `http://localhost:${new URL(hs.url).port}`;
    const checked = await admin.post("/api/admin/servers", { ...body(internalUrl, "named"), serverName: hs.serverName });
    assert.equal(checked.status, 422, checked.text);
    assert.equal(checked.body.errorCode, "HOMESERVER_UNREACHABLE");
    assert.match(checked.body.error, /outbound rules refuse/);
    const server = await addServer(admin, hs, { fields: { internalUrl }, saveAnyway: true });
    const tokens = await admin.get(`/api/admin/tokens?serverId=${server.id}`);
    assert.equal(tokens.status, 502);
    assert.equal(tokens.body.errorCode, "OUTBOUND_DENIED");
    assert.match(tokens.body.error, /localhost \(127\.0\.0\.1\) is refused by PORTAL_OUTBOUND_DENY/);
    const diagnostics = (await admin.get(`/api/admin/diagnostics?serverId=${server.id}`)).body.diagnostics;
    assert.equal(diagnostics.homeserverReachable, false);
    assert.match(diagnostics.errors[0], /outbound rules refuse/);
    const validity = await portal.client().post("/api/register/validate-token", { token: "anything", serverId: server.id });
    assert.equal(validity.status, 503, "a visitor sees the portal's generic answer");
    assert.equal(validity.text.includes("127.0.0.1"), false);
    assert.equal(hs.requests().length, before, "no request reached the homeserver");
    assert.ok(portal.logs().some((line) => line.includes("refused by the outbound rules")));
  });

  it("with an allow list, calls only what it names; a broad allow does not lift the metadata refusal", async () => {
    const { admin } = await portalWith({ PORTAL_OUTBOUND_ALLOW: "10.0.0.0/8, 0.0.0.0/0, synapse.internal" });
    assert.equal((await admin.post("/api/admin/servers", body("http://169.254.169.254", "meta"))).status, 400);
    assert.equal((await admin.post("/api/admin/servers?saveAnyway=true", body("http://10.1.2.3:8008", "ten"))).status, 201);

    const strict = await portalWith({ PORTAL_OUTBOUND_ALLOW: "10.0.0.0/8, 169.254.7.7" });
    const outside = await strict.admin.post("/api/admin/servers", body(hs.url, "outside"));
    assert.equal(outside.status, 400);
    assert.match(outside.body.error, /not in PORTAL_OUTBOUND_ALLOW/);
    const named = await strict.admin.post("/api/admin/servers?saveAnyway=true", body("http://169.254.7.7:8008", "named"));
    assert.equal(named.status, 201, "an address named inside the link-local range is the operator's exception");
    const server = await addServer(strict.admin, hs, {
      fields: { internalUrl: `http://localhost:${new URL(hs.url).port}` },
      saveAnyway: true,
    });
    const tokens = await strict.admin.get(`/api/admin/tokens?serverId=${server.id}`);
    assert.equal(tokens.body.errorCode, "OUTBOUND_DENIED");
    assert.match(tokens.body.error, /not in PORTAL_OUTBOUND_ALLOW/);
  });
});
