import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { grant, MasClock, masSimulator, request, TOKENS } from "./test-support.ts";

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const FORM = { "content-type": "application/x-www-form-urlencoded" };

describe("MAS simulator: OAuth 2.0 client credentials", { concurrency: true }, () => {
  it("issues a 300 s admin token without a refresh token, and a new one on every grant", async (t) => {
    const mas = await masSimulator(t);
    const first = await grant(mas);
    assert.equal(first.status, 200);
    assert.deepEqual(Object.keys(first.body), ["access_token", "token_type", "expires_in", "scope"]);
    assert.match(first.body.access_token, /^mat_[A-Za-z0-9]{30}_[A-Za-z0-9]{6}$/);
    assert.deepEqual([first.body.token_type, first.body.expires_in, first.body.scope], ["Bearer", 300, "urn:mas:admin"]);
    assert.equal(first.headers.get("cache-control"), "no-store");
    const second = await grant(mas);
    assert.notEqual(second.body.access_token, first.body.access_token);
    assert.equal(mas.accessTokens().length, 2);
  });

  it("authenticates the client the configured way only: basic or post", async (t) => {
    const post = { clientId: "01J00000000000000000000POST", clientSecret: "s3cret", authMethod: "client_secret_post" as const };
    const mas = await masSimulator(t, { clients: [post] });
    const body = { grant_type: "client_credentials", scope: "urn:mas:admin" };
    const ok = await request(mas, "POST", "/oauth2/token", {
      raw: form({ ...body, client_id: post.clientId, client_secret: post.clientSecret }),
      headers: FORM,
    });
    assert.equal(ok.status, 200);
    const basic = Buffer.from(`${post.clientId}:${post.clientSecret}`).toString("base64");
    const wrongMethod = await request(mas, "POST", "/oauth2/token", {
      raw: form(body),
      headers: { ...FORM, authorization: `Basic ${basic}` },
    });
    assert.deepEqual([wrongMethod.status, wrongMethod.body], [401, { error: "invalid_client" }]);
    const wrongSecret = await request(mas, "POST", "/oauth2/token", {
      raw: form({ ...body, client_id: post.clientId, client_secret: "nope" }),
      headers: FORM,
    });
    assert.deepEqual([wrongSecret.status, wrongSecret.body], [401, { error: "invalid_client" }]);
    const unknown = await request(mas, "POST", "/oauth2/token", {
      raw: form({ ...body, client_id: "01J00000000000000000000NONE", client_secret: "x" }),
      headers: FORM,
    });
    assert.deepEqual([unknown.status, unknown.body], [401, { error: "invalid_client" }]);
  });

  it("refuses the admin scope to clients not in admin_clients, and other grant types", async (t) => {
    const plain = { clientId: "01J0000000000000000000PLAIN", clientSecret: "pw", admin: false };
    const mas = await masSimulator(t, { clients: [plain] });
    const refused = await grant(mas);
    assert.deepEqual(
      [refused.status, refused.body],
      [403, { error: "invalid_scope", error_description: "scope 'urn:mas:admin' not allowed" }],
    );
    const basic = {
      authorization: `Basic ${Buffer.from(`${plain.clientId}:${plain.clientSecret}`).toString("base64")}`,
      ...FORM,
    };
    const password = await request(mas, "POST", "/oauth2/token", { raw: form({ grant_type: "password" }), headers: basic });
    assert.deepEqual([password.status, password.body.error], [400, "unsupported_grant_type"]);
    const refresh = await request(mas, "POST", "/oauth2/token", {
      raw: form({ grant_type: "refresh_token", refresh_token: "mar_x" }),
      headers: basic,
    });
    assert.deepEqual([refresh.status, refresh.body.error], [401, "unauthorized_client"]);
    const noGrant = await request(mas, "POST", "/oauth2/token", { raw: "", headers: basic });
    assert.deepEqual([noGrant.status, noGrant.body.error], [400, "invalid_request"]);
  });

  it("the admin API answers 400 without a bearer header and 401 for a bad, expired, revoked or scope-less token", async (t) => {
    const clock = new MasClock();
    const mas = await masSimulator(t, { now: clock.now, accessTokenTtl: 60 });
    const missing = await request(mas, "GET", TOKENS);
    assert.deepEqual([missing.status, missing.body], [400, { errors: [{ title: "Missing authorization header" }] }]);
    const basic = await request(mas, "GET", TOKENS, { headers: { authorization: "Basic abc" } });
    assert.deepEqual([basic.status, basic.body.errors[0].title], [400, "Invalid authorization header"]);
    const garbage = await request(mas, "GET", TOKENS, { token: "not-a-mas-token" });
    assert.deepEqual([garbage.status, garbage.body.errors[0].title], [401, "Invalid type of access token"]);
    const unknown = await request(mas, "GET", TOKENS, { token: `mat_${"a".repeat(30)}_000000` });
    assert.deepEqual([unknown.status, unknown.body.errors[0].title], [401, "Unknown access token"]);

    const token = (await grant(mas)).body.access_token;
    assert.equal((await request(mas, "GET", TOKENS, { token })).status, 200);
    clock.advance(59_999);
    assert.equal((await request(mas, "GET", TOKENS, { token })).status, 200);
    clock.advance(1);
    const expired = await request(mas, "GET", TOKENS, { token });
    assert.deepEqual([expired.status, expired.body.errors[0].title], [401, "Access token expired"]);

    const fresh = (await grant(mas)).body.access_token;
    mas.revokeAccessTokens();
    const revoked = await request(mas, "GET", TOKENS, { token: fresh });
    assert.deepEqual([revoked.status, revoked.body.errors[0].title], [401, "Access token revoked"]);

    const noScope = (await grant(mas, "openid")).body.access_token;
    const scopeless = await request(mas, "GET", TOKENS, { token: noScope });
    assert.deepEqual([scopeless.status, scopeless.body.errors[0].title], [401, "Missing urn:mas:admin scope"]);
  });

  it("publishes OpenID discovery with the token endpoint, and 'create' only while password registration is on", async (t) => {
    const mas = await masSimulator(t, { publicBase: "https://auth.example.test" });
    const on = await request(mas, "GET", "/.well-known/openid-configuration");
    assert.equal(on.body.issuer, "https://auth.example.test/");
    assert.equal(on.body.token_endpoint, "https://auth.example.test/oauth2/token");
    assert.ok(on.body.grant_types_supported.includes("client_credentials"));
    assert.ok(on.body.prompt_values_supported.includes("create"));
    const closed = await masSimulator(t, { passwordRegistrationEnabled: false });
    const off = await request(closed, "GET", "/.well-known/openid-configuration");
    assert.equal(off.body.prompt_values_supported, undefined);
    assert.equal(off.body.issuer, `${closed.url}/`);
  });

  it("refuses a TTL MAS would not start with", async () => {
    const { startMasSimulator } = await import("./index.ts");
    await assert.rejects(startMasSimulator({ accessTokenTtl: 59 }), /between 60 and 86400/);
  });
});
