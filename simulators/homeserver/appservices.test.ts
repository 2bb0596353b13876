import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { AppserviceConfigError } from "./appservices.ts";
import { call, simulator } from "./test-support.ts";

const WHOAMI = "/_matrix/client/v3/account/whoami";
const REGISTER = "/_matrix/client/v3/register";

/** A registration as a mautrix bridge generates it (YAML text, as Synapse reads the file). */
const REGISTRATION = `id: whatsapp
url: http://mautrix-whatsapp:29318
as_token: as-token-0123456789abcdef
hs_token: hs-token-0123456789abcdef
sender_localpart: Xq7RandomSenderLocalpart
rate_limited: false
namespaces:
  users:
    - regex: '^@whatsappbot:as\\.test$'
      exclusive: true
    - regex: '^@whatsapp_.*:as\\.test$'
      exclusive: true
`;

describe("appservices", { concurrency: true }, () => {
  it("loads a registration and answers whoami for its as_token as the sender, without a device", async (t) => {
    const hs = await simulator(t, { serverName: "as.test", appserviceRegistrations: [REGISTRATION] });
    const me = await call(hs, "GET", WHOAMI, { token: "as-token-0123456789abcdef" });
    assert.equal(me.status, 200);
    assert.deepEqual(me.body, { user_id: "@Xq7RandomSenderLocalpart:as.test", is_guest: false });
    assert.deepEqual(hs.appservices(), [
      { id: "whatsapp", sender: "@Xq7RandomSenderLocalpart:as.test", url: "http://mautrix-whatsapp:29318" },
    ]);
    const hsToken = await call(hs, "GET", WHOAMI, { token: "hs-token-0123456789abcdef" });
    assert.deepEqual([hsToken.status, hsToken.body.errcode], [401, "M_UNKNOWN_TOKEN"], "the hs_token is not an access token");
    assert.equal(hs.removeAppservice("whatsapp"), true);
    assert.equal((await call(hs, "GET", WHOAMI, { token: "as-token-0123456789abcdef" })).status, 401, "unloaded");
  });

  it("registers namespace users for the appservice and lets it masquerade only as those", async (t) => {
    const hs = await simulator(t, { serverName: "as.test" });
    hs.registerAppservice(REGISTRATION);
    const token = "as-token-0123456789abcdef";
    const register = (username: string) =>
      call(hs, "POST", REGISTER, { token, body: { type: "m.login.application_service", username, inhibit_login: true } });
    assert.deepEqual((await register("whatsapp_123")).body, { user_id: "@whatsapp_123:as.test", home_server: "as.test" });
    assert.equal((await register("whatsapp_123")).body.errcode, "M_USER_IN_USE");
    const outside = await register("alice");
    assert.deepEqual([outside.status, outside.body.errcode], [400, "M_EXCLUSIVE"]);
    const wrongToken = await call(hs, "POST", REGISTER, {
      token: "nope",
      body: { type: "m.login.application_service", username: "x" },
    });
    assert.deepEqual([wrongToken.status, wrongToken.body.errcode], [401, "M_UNKNOWN_TOKEN"]);

    const as = (userId: string) => call(hs, "GET", `${WHOAMI}?user_id=${encodeURIComponent(userId)}`, { token });
    assert.equal((await as("@whatsapp_123:as.test")).body.user_id, "@whatsapp_123:as.test");
    assert.deepEqual((await as("@whatsapp_999:as.test")).body, {
      errcode: "M_FORBIDDEN",
      error: "Application service has not registered this user (@whatsapp_999:as.test)",
    });
    assert.equal((await as("@admin:as.test")).body.error, "Application service cannot masquerade as this user (@admin:as.test).");
    // Ordinary sign-ups inside the exclusive namespace are refused.
    const session = await call(hs, "POST", REGISTER, { body: { username: "whatsapp_5", password: "pw" } });
    assert.equal(session.body.errcode, "M_EXCLUSIVE");
  });

  it("refuses registrations Synapse would refuse at start-up", async (t) => {
    const hs = await simulator(t, { serverName: "as.test" });
    const refused = (text: string | object, message: RegExp) =>
      assert.throws(
        () => hs.registerAppservice(text),
        (error: Error) => error instanceof AppserviceConfigError && message.test(error.message),
      );
    refused(REGISTRATION.replace("hs_token: hs-token-0123456789abcdef\n", ""), /Required string field: 'hs_token'/);
    refused(REGISTRATION.replace("url: http://mautrix-whatsapp:29318\n", ""), /explicit null: 'url'/);
    refused(REGISTRATION.replace("sender_localpart: Xq7RandomSenderLocalpart", "sender_localpart: 'bad name'"), /URL encoded/);
    refused(REGISTRATION.replace(/namespaces:[\s\S]*$/, "namespaces: []\n"), /Requires 'namespaces' object/);
    refused(REGISTRATION.replace("exclusive: true", "exclusive: 'yes'"), /'exclusive'/);
    refused(
      { id: "x", as_token: "a", hs_token: "h", sender_localpart: "s", url: null, namespaces: {}, "io.element.msc4190": 1 },
      /msc4190/,
    );
    refused("id: [unclosed", /not valid YAML/);
    hs.registerAppservice({ id: "nourl", as_token: "t1", hs_token: "h1", sender_localpart: "s1", url: null, namespaces: {} });
    refused({ id: "nourl", as_token: "t2", hs_token: "h2", sender_localpart: "s2", url: null, namespaces: {} }, /reuse ID/);
    refused({ id: "other", as_token: "t1", hs_token: "h2", sender_localpart: "s2", url: null, namespaces: {} }, /reuse as_token/);
  });
});
