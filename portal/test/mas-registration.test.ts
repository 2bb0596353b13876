import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type MasSimulator, startMasSimulator } from "../../simulators/mas/index.ts";
import { addMasServer, type PortalWithMas, startPortalWithMas, stopPortalWithMas } from "./support/mas-harness.ts";
import { nextIp } from "./support/portal-harness.ts";

/**
 * Sign-up on a server of kind `mas`: the portal's page checks the token (without using it) and hands the person to
 * MAS with the token in the link; MAS creates the account, so the portal's own `/api/register` refuses.
 */
describe("sign-up on a MAS server", () => {
  let setup: PortalWithMas;
  let inviting: MasSimulator;
  const validate = (token: string, serverId = setup.serverId) =>
    setup.portal.client({ ip: nextIp() }).post("/api/register/validate-token", { token, serverId });

  before(async () => {
    setup = await startPortalWithMas("signup-mas.test");
    inviting = await startMasSimulator({
      serverName: "signup-mas.test",
      inviteLinks: true,
      publicBase: "https://auth.signup-mas.test",
    });
  });
  after(async () => {
    await stopPortalWithMas(setup);
    await inviting.close();
  });

  it("tells the page the server's kind", async () => {
    const reply = await setup.portal.client().get(`/api/server/resolve?serverId=${setup.serverId}`);
    assert.equal(reply.body.server.kind, "mas");
    assert.equal(reply.text.includes(setup.mas.url), false, "the MAS URL the portal calls is not public");
  });

  it("validates without using the token, and answers where to continue on MAS", async () => {
    const { mas } = setup;
    mas.addToken("hand-off", { usageLimit: 1 });
    for (let i = 0; i < 3; i++) {
      const reply = await validate("hand-off");
      assert.deepEqual(reply.body, {
        valid: true,
        state: "valid",
        expiresAt: null,
        registerUrl: `${mas.url}/register?token=hand-off`,
      });
    }
    assert.equal(mas.tokens().find((row) => row.token === "hand-off")?.timesUsed, 0, "checking consumes nothing");

    // The link works: the person signs up on MAS with the token, after which the portal says it is used up.
    assert.equal(mas.useToken("hand-off", "carol"), true);
    assert.deepEqual((await validate("hand-off")).body, { valid: false, state: "exhausted", expiresAt: null });
  });

  it("says no for revoked, expired, unknown and malformed tokens", async () => {
    const { mas, admin } = setup;
    mas.addToken("soon-gone", { expiresAt: Date.now() - 1000 });
    mas.addToken("revoked-here");
    await admin.patch(`/api/admin/tokens/revoked-here?serverId=${setup.serverId}`);
    const states = { "soon-gone": "expired", "revoked-here": "disabled", "never-issued": "unknown", "a/b": "unknown" };
    for (const [token, state] of Object.entries(states)) {
      assert.deepEqual((await validate(token)).body, { valid: false, state, expiresAt: null }, token);
    }
  });

  it("links to MAS's public URL when it differs, and to MAS's own invite_url where MAS gives one", async () => {
    const { admin, mas, hs } = setup;
    await admin.put(`/api/admin/servers/${setup.serverId}`, { masPublicUrl: "https://auth.signup-mas.test" });
    mas.addToken("public-link");
    assert.equal((await validate("public-link")).body.registerUrl, "https://auth.signup-mas.test/register?token=public-link");

    inviting.addToken("with-invite");
    const second = await addMasServer(admin, hs, inviting, { saveAnyway: true });
    assert.equal(
      (await validate("with-invite", second.id)).body.registerUrl,
      "https://auth.signup-mas.test/register?token=with-invite",
      "MAS's invite_url as MAS wrote it",
    );
  });

  it("creates no account itself, and says so", async () => {
    setup.mas.addToken("direct");
    const reply = await setup.portal.client({ ip: nextIp() }).post("/api/register", {
      username: "dave",
      password: "long enough password",
      confirmPassword: "long enough password",
      token: "direct",
      serverId: setup.serverId,
    });
    assert.deepEqual([reply.status, reply.body.success, reply.body.errorCode], [403, false, "M_FORBIDDEN"]);
    assert.match(reply.body.error, /Matrix Authentication Service/);
    assert.equal(setup.mas.tokens().find((row) => row.token === "direct")?.timesUsed, 0);
    const name = await setup.portal
      .client({ ip: nextIp() })
      .get(`/api/register/username-available?username=dave&serverId=${setup.serverId}`);
    assert.deepEqual([name.status, name.body.errorCode], [403, "M_FORBIDDEN"]);
  });

  it("answers 503 to visitors while MAS is down, without naming it", async () => {
    setup.mas.setDown("502");
    try {
      const reply = await validate("public-link");
      assert.deepEqual([reply.status, reply.body.errorCode], [503, "M_UNKNOWN"]);
      assert.equal(reply.text.includes(setup.mas.url), false);
    } finally {
      setup.mas.setDown(false);
    }
  });
});
