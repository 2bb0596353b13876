import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { HomeserverSimulator } from "../../simulators/homeserver/index.ts";
import type { PortalClient } from "./support/portal-client.ts";
import {
  addServer,
  nextIp,
  startPortalWithHomeserver,
  stopPortalWithHomeserver,
  type TestPortal,
} from "./support/portal-harness.ts";

describe("server resolution", () => {
  let portal: TestPortal;
  let hs: HomeserverSimulator;
  let admin: PortalClient;
  before(async () => {
    ({ portal, hs, admin } = await startPortalWithHomeserver({ homeserver: { serverName: "resolve.test" }, server: false }));
  });
  after(() => stopPortalWithHomeserver(portal, hs));

  const resolve = (query = "") => portal.client({ ip: nextIp() }).get(`/api/server/resolve${query}`);

  it("answers 404 while no server exists", async () => {
    const reply = await resolve();
    assert.equal(reply.status, 404);
    assert.equal(reply.body.success, false);
  });

  it("resolves by serverId, then slug, then domain, then the default, with public fields only", async () => {
    const first = await addServer(admin, hs, {
      fields: { slug: "first", publicDomain: "join.first.test", notes: "secret notes" },
    });
    const second = await addServer(admin, hs, { fields: { slug: "second", publicDomain: "join.second.test" } });
    const idOf = async (query: string) => (await resolve(query)).body.server?.id;
    assert.equal(await idOf(""), first.id, "no selector: the default (the first server)");
    assert.equal(await idOf(`?serverId=${second.id}&slug=first&domain=join.first.test`), second.id);
    assert.equal(await idOf("?slug=second&domain=join.first.test"), second.id);
    assert.equal(await idOf("?domain=JOIN.Second.test:443"), second.id);
    const reply = await resolve("?slug=first");
    assert.deepEqual(reply.body, {
      server: {
        id: first.id,
        kind: "synapse",
        name: first.name,
        slug: "first",
        serverName: "resolve.test",
        publicUrl: "https://matrix.resolve.test",
        brandingProfileId: null,
      },
    });
    assert.equal(reply.text.includes(hs.url), false, "the internal URL is never public");
    assert.equal(reply.text.includes("secret notes"), false);
  });

  it("answers 404 for an unknown selector (no fallback) and 403 for a disabled server", async () => {
    for (const query of ["?serverId=nope", "?slug=nope", "?domain=nope.test", "?serverId=nope&slug=first"]) {
      const reply = await resolve(query);
      assert.equal(reply.status, 404, query);
      assert.deepEqual(reply.body, { success: false, error: "No such server", errorCode: "M_NOT_FOUND" });
    }
    const hidden = await addServer(admin, hs, { enable: false, fields: { slug: "hidden" } });
    const reply = await resolve("?slug=hidden");
    assert.equal(reply.status, 403);
    assert.equal(reply.body.errorCode, "M_FORBIDDEN");
    await admin.patch(`/api/admin/servers/${hidden.id}`, { action: "set_default" });
    assert.equal((await resolve()).status, 403, "a disabled default is refused too");
  });

  it("keeps health minimal", async () => {
    const reply = await portal.client().get("/api/health");
    assert.deepEqual(reply.body, { status: "ok" });
    assert.equal(reply.headers.get("cache-control"), "no-store");
  });

  it("marks every API answer, errors included, as not to be stored and not to be sniffed", async () => {
    const anonymous = portal.client();
    const answers = [
      await anonymous.get("/api/health"),
      await anonymous.get("/api/admin/servers"), // 401
      await anonymous.get("/api/no-such-thing"), // 404
      await anonymous.post("/api/register", { username: "" }), // 400
      await admin.get("/api/admin/servers"),
      await admin.get("/api/admin/tokens?serverId=nope"),
    ];
    assert.deepEqual(
      answers.map((reply) => [reply.status, reply.headers.get("cache-control"), reply.headers.get("x-content-type-options")]),
      [200, 401, 404, 400, 200, 404].map((status) => [status, "no-store", "nosniff"]),
    );
  });
});

describe("token validation", () => {
  let portal: TestPortal;
  let hs: HomeserverSimulator;
  let admin: PortalClient;
  let serverId: string;
  before(async () => {
    ({ portal, hs, admin, serverId } = await startPortalWithHomeserver({
      homeserver: { serverName: "validate.test", seed: { tokens: [{ token: "pending-one", uses_allowed: 1, pending: 1 }] } },
    }));
    for (const token of ["good", "soon-off"])
      await admin.post(`/api/admin/tokens?serverId=${serverId}`, { token, uses_allowed: 1 });
    await admin.patch(`/api/admin/tokens/soon-off?serverId=${serverId}`);
  });
  after(() => stopPortalWithHomeserver(portal, hs));

  const validate = (body: Record<string, unknown>, ip = nextIp()) =>
    portal.client({ ip }).post("/api/register/validate-token", body);

  it("answers {valid} from the admin lookup and consumes nothing", async () => {
    const before = JSON.stringify(hs.tokens());
    // The check when the server was added made one bare POST /register probe; validation must add none.
    const registerCalls = () => hs.requests().filter((r) => r.path.includes("register")).length;
    const probes = registerCalls();
    assert.deepEqual((await validate({ token: "good", serverId })).body.valid, true);
    assert.deepEqual((await validate({ token: "good" })).body.valid, true, "the default server without serverId");
    for (const token of ["nope", "soon-off", "pending-one", "bad token", ""]) {
      assert.deepEqual((await validate({ token, serverId })).body.valid, false, token);
    }
    assert.equal(JSON.stringify(hs.tokens()), before, "pending and completed unchanged");
    assert.equal(registerCalls(), probes, "no UIA session, no validity call");
  });

  it("falls back to the public validity endpoint when the admin API cannot be used", async () => {
    await admin.patch(`/api/admin/servers/${serverId}`, { action: "rotate_token", adminToken: "not-an-admin-token" });
    try {
      assert.deepEqual((await validate({ token: "good", serverId })).body.valid, true);
      assert.deepEqual((await validate({ token: "nope", serverId })).body.valid, false);
      assert.deepEqual((await validate({ token: "soon-off", serverId })).body.valid, false, "the local flag still applies");
      const validity = hs.requests().filter((r) => r.path === "/_matrix/client/v1/register/m.login.registration_token/validity");
      assert.equal(validity.length, 2);
    } finally {
      await admin.patch(`/api/admin/servers/${serverId}`, { action: "rotate_token", adminToken: hs.adminToken });
    }
  });

  it("refuses malformed bodies and unknown servers", async () => {
    const missing = await validate({});
    assert.equal(missing.status, 400);
    assert.equal(missing.body.success, false);
    assert.equal((await validate({ token: "good", serverId: "nope" })).status, 404);
  });

  it("is rate limited per IP (30 per 15 minutes)", async () => {
    const ip = nextIp();
    for (let i = 0; i < 30; i++) assert.equal((await validate({ token: "x" }, ip)).status, 200);
    const limited = await validate({ token: "good" }, ip);
    assert.equal(limited.status, 429);
    assert.equal(limited.body.errorCode, "M_LIMIT_EXCEEDED");
    assert.ok(Number(limited.headers.get("retry-after")) > 0);
  });
});
