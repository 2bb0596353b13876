import assert from "node:assert/strict";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { freePort } from "../../lib/testing/processes.ts";
import type { HomeserverSimulator } from "../../simulators/homeserver/index.ts";
import type { PortalClient } from "./support/portal-client.ts";
import { startPortalWithHomeserver, stopPortalWithHomeserver, type TestPortal } from "./support/portal-harness.ts";

/**
 * A reverse proxy in front of `hs` that passes the Matrix client API only, as a proxy set up for clients does:
 * `/_synapse/admin` answers 404 like any unknown path.
 */
async function clientApiOnlyProxy(hs: HomeserverSimulator): Promise<{ url: string; server: Server }> {
  const target = new URL(hs.url);
  const server = createServer((incoming, outgoing) => {
    if (!incoming.url?.startsWith("/_matrix/")) {
      incoming.resume();
      outgoing.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    const forwarded = httpRequest(
      { host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers: incoming.headers },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe("managed servers: the check on save", () => {
  let portal: TestPortal;
  let hs: HomeserverSimulator;
  let admin: PortalClient;
  let counter = 0;
  before(async () => {
    ({ portal, hs, admin } = await startPortalWithHomeserver({ homeserver: { serverName: "check.test" }, server: false }));
  });
  after(() => stopPortalWithHomeserver(portal, hs));

  const fields = (change: Record<string, unknown> = {}) => {
    counter += 1;
    return {
      name: `Checked ${counter}`,
      slug: `checked-${counter}`,
      serverName: hs.serverName,
      internalUrl: hs.url,
      publicUrl: "https://matrix.check.test",
      adminToken: hs.adminToken,
      ...change,
    };
  };
  const slugs = async () => ((await admin.get("/api/admin/servers")).body.servers as { slug: string }[]).map((s) => s.slug);

  it("refuses an unreachable homeserver with 422 saying so, stores nothing, and saves it unchecked on request", async () => {
    const internalUrl = `http://127.0.0.1:${await freePort()}`;
    const body = fields({ internalUrl });
    const refused = await admin.post("/api/admin/servers", body);
    assert.equal(refused.status, 422, refused.text);
    assert.deepEqual(refused.body, {
      success: false,
      error: `Could not reach a Matrix homeserver at ${internalUrl}: check the URL, the network and that the homeserver runs (the cause is in the portal log)`,
      errorCode: "HOMESERVER_UNREACHABLE",
    });
    assert.equal((await slugs()).includes(body.slug), false, "nothing stored");

    const saved = await admin.post("/api/admin/servers?saveAnyway=true", body);
    assert.equal(saved.status, 201, saved.text);
    assert.equal(saved.body.diagnostics, undefined, "no check was run");
    assert.equal(saved.body.server.lastDiagAt, null, "stored unchecked");
    assert.equal(saved.body.server.lastDiagOk, null);
    const entry = (await admin.get(`/api/admin/audit?serverId=${saved.body.server.id}`)).body.logs[0];
    assert.equal(entry.action, "server.created");
    assert.equal(entry.detail.checked, false, "the audit says it was saved without the check");
  });

  it("refuses a token the homeserver does not accept, and a token of another server name", async () => {
    const wrongToken = await admin.post("/api/admin/servers", fields({ adminToken: "syt_not_the_admin" }));
    assert.equal(wrongToken.status, 422, wrongToken.text);
    assert.equal(wrongToken.body.errorCode, "ADMIN_TOKEN_REFUSED");
    assert.equal(
      wrongToken.body.error,
      "The homeserver refused the admin token (M_UNKNOWN_TOKEN): give the access token of a server administrator",
    );

    const otherName = await admin.post("/api/admin/servers", fields({ serverName: "elsewhere.test" }));
    assert.equal(otherName.status, 422, otherName.text);
    assert.equal(otherName.body.errorCode, "SERVER_NAME_MISMATCH");
    assert.equal(
      otherName.body.error,
      "The admin token belongs to @admin:check.test, but the server name given is elsewhere.test: correct the server name",
    );
    assert.equal((await slugs()).length, 1, "only the server saved anyway above exists");
  });

  it("refuses a homeserver whose admin API is not reachable through its URL", async () => {
    const proxy = await clientApiOnlyProxy(hs);
    try {
      const reply = await admin.post("/api/admin/servers", fields({ internalUrl: proxy.url }));
      assert.equal(reply.status, 422, reply.text);
      assert.equal(reply.body.errorCode, "ADMIN_API_UNREACHABLE");
      assert.match(reply.body.error, /Synapse admin API \(\/_synapse\/admin\) is not reachable from the portal/);
    } finally {
      proxy.server.closeAllConnections();
      proxy.server.close();
    }
  });

  it("saves a reachable server with problems that do not stop it, stored as failed diagnostics", async () => {
    // Registration without a token on the homeserver: the portal can manage it, and the diagnostics say what is wrong.
    const open = await startPortalWithHomeserver({
      homeserver: { serverName: "open.test", registrationRequiresToken: false },
      server: false,
    });
    try {
      const reply = await open.admin.post("/api/admin/servers", {
        ...fields(),
        serverName: "open.test",
        internalUrl: open.hs.url,
        adminToken: open.hs.adminToken,
      });
      assert.equal(reply.status, 201, reply.text);
      assert.equal(reply.body.server.lastDiagOk, false);
      assert.ok(reply.body.diagnostics.errors.some((error: string) => /does not require a token/.test(error)));
    } finally {
      await stopPortalWithHomeserver(open.portal, open.hs);
    }
  });

  it("checks conflicts before the homeserver, and accepts only true or false for saveAnyway", async () => {
    const taken = (await slugs())[0] as string;
    const before = hs.requests().length;
    const duplicate = await admin.post("/api/admin/servers", { ...fields(), slug: taken });
    assert.equal(duplicate.status, 409);
    assert.equal(hs.requests().length, before, "no homeserver call for a slug already taken");
    const bad = await admin.post("/api/admin/servers?saveAnyway=yes", fields());
    assert.equal(bad.status, 400);
    assert.match(bad.body.error, /saveAnyway must be true or false/);
  });
});
