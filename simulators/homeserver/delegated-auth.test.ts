import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { admin, call, createToken, register, simulator } from "./test-support.ts";

const UNRECOGNIZED = { errcode: "M_UNRECOGNIZED", error: "Unrecognized request" };

describe("delegated auth (MSC3861 / Matrix Authentication Service)", { concurrency: true }, () => {
  it("publishes auth metadata and hides the password-registration and token surfaces", async (t) => {
    const hs = await simulator(t, { delegatedAuth: true, serverName: "mas.example" });
    for (const path of ["/_matrix/client/v1/auth_metadata", "/_matrix/client/unstable/org.matrix.msc2965/auth_metadata"]) {
      const metadata = await call(hs, "GET", path);
      assert.equal(metadata.status, 200);
      assert.equal(metadata.body.issuer, "https://auth.mas.example/");
      assert.ok((metadata.body.prompt_values_supported as string[]).includes("create"));
      assert.match(String(metadata.headers.get("cache-control")), /max-age=600/);
    }
    const issuer = await call(hs, "GET", "/_matrix/client/unstable/org.matrix.msc2965/auth_issuer");
    assert.deepEqual(issuer.body, { issuer: "https://auth.mas.example/" });

    for (const [method, path] of [
      ["GET", "/registration_tokens"],
      ["POST", "/registration_tokens/new"],
      ["GET", "/registration_tokens/abc"],
      ["DELETE", "/registration_tokens/abc"],
    ] as const) {
      const reply = await admin(hs, method, path, {});
      assert.deepEqual([reply.status, reply.body], [404, UNRECOGNIZED], `${method} ${path}`);
    }
    for (const path of [
      "/_matrix/client/v3/register/available?username=x",
      "/_matrix/client/v1/register/m.login.registration_token/validity?token=x",
    ]) {
      assert.deepEqual((await call(hs, "GET", path)).body, UNRECOGNIZED);
    }
    const registration = await register(hs, { username: "x", password: "pw" });
    assert.deepEqual(
      [registration.status, registration.body],
      [
        403,
        {
          errcode: "M_FORBIDDEN",
          error: "Registration has been disabled. Only m.login.application_service registrations are allowed.",
        },
      ],
    );
    const appservice = await register(hs, { type: "m.login.application_service", username: "bridge_x" });
    assert.deepEqual([appservice.status, appservice.body.errcode], [400, "M_APPSERVICE_LOGIN_UNSUPPORTED"]);
    const inhibited = await call(hs, "POST", "/_matrix/client/v3/register", {
      body: { type: "m.login.application_service", username: "bridge_x", inhibit_login: true },
      token: "as-token",
    });
    assert.deepEqual([inhibited.status, inhibited.body.errcode], [401, "M_UNKNOWN_TOKEN"]);

    // What keeps working: server info, token checks and the admin username check.
    assert.equal((await call(hs, "GET", "/_synapse/admin/v1/server_version")).status, 200);
    assert.equal((await call(hs, "GET", "/_matrix/client/v3/account/whoami", { token: hs.adminToken })).status, 200);
    assert.equal((await admin(hs, "GET", "/username_available?username=free")).status, 200);
  });

  it("switches at runtime and keeps the tokens stored while the surface is hidden", async (t) => {
    const hs = await simulator(t);
    await createToken(hs, { token: "kept" });
    assert.equal((await call(hs, "GET", "/_matrix/client/v1/auth_metadata")).status, 404);
    assert.equal((await register(hs, {})).status, 401);
    hs.setDelegatedAuth(true);
    assert.equal((await call(hs, "GET", "/_matrix/client/v1/auth_metadata")).status, 200);
    assert.equal((await register(hs, {})).status, 403);
    assert.equal((await admin(hs, "GET", "/registration_tokens/kept")).status, 404);
    hs.setDelegatedAuth(false);
    assert.equal((await admin(hs, "GET", "/registration_tokens/kept")).status, 200);
    assert.equal((await call(hs, "GET", "/_matrix/client/v1/auth_metadata")).status, 404);
  });

  it("relays the configured MAS issuer and serves the client well-known only when asked to", async (t) => {
    const hs = await simulator(t, {
      delegatedAuth: true,
      authIssuer: "http://127.0.0.1:9/",
      serveClientWellKnown: true,
      publicBaseurl: "https://matrix.example/",
    });
    assert.equal(
      (await call(hs, "GET", "/_matrix/client/v1/auth_metadata")).body.token_endpoint,
      "http://127.0.0.1:9/oauth2/token",
    );
    const wellKnown = await call(hs, "GET", "/.well-known/matrix/client");
    assert.deepEqual(wellKnown.body, {
      "m.homeserver": { base_url: "https://matrix.example/" },
      "org.matrix.msc2965.authentication": { issuer: "http://127.0.0.1:9/", account: "http://127.0.0.1:9/account/" },
    });
    hs.setDelegatedAuth(false);
    assert.deepEqual((await call(hs, "GET", "/.well-known/matrix/client")).body, {
      "m.homeserver": { base_url: "https://matrix.example/" },
    });
    const plain = await simulator(t);
    assert.deepEqual((await call(plain, "GET", "/.well-known/matrix/client")).body, UNRECOGNIZED);
  });
});
