import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  nextIp,
  removeDataDir,
  startTestPortal,
  type TestPortal,
} from "./support/portal-harness.ts";

const UNAUTHORIZED = {
  success: false,
  error: "Authentication required: log in with POST /api/auth/login",
  errorCode: "UNAUTHORIZED",
};

/** Every admin endpoint of this issue, plus a path of the next issue (still 401 without a session). */
const ADMIN_ENDPOINTS: [string, string][] = [
  ["GET", "/api/admin/servers"],
  ["POST", "/api/admin/servers"],
  ["GET", "/api/admin/servers/some-id"],
  ["PUT", "/api/admin/servers/some-id"],
  ["PATCH", "/api/admin/servers/some-id"],
  ["DELETE", "/api/admin/servers/some-id"],
  ["GET", "/api/admin/tokens?serverId=x"],
  ["POST", "/api/admin/tokens?serverId=x"],
  ["GET", "/api/admin/tokens/abc?serverId=x"],
  ["PUT", "/api/admin/tokens/abc?serverId=x"],
  ["PATCH", "/api/admin/tokens/abc?serverId=x"],
  ["DELETE", "/api/admin/tokens/abc?serverId=x"],
  ["GET", "/api/admin/stats?serverId=x"],
  ["GET", "/api/admin/diagnostics?serverId=x"],
  ["GET", "/api/admin/audit"],
  ["GET", "/api/admin/bots"],
  ["GET", "/api/admin"],
];

describe("authentication", () => {
  let portal: TestPortal;
  before(async () => {
    portal = await startTestPortal();
  });
  after(async () => {
    await portal.stop();
    removeDataDir(portal.dataDir);
  });

  it("logs in with the bootstrap admin and sets a strict, HttpOnly, expiring session cookie", async () => {
    const client = portal.client({ ip: nextIp() });
    const reply = await client.post("/api/auth/login", { email: ` ${ADMIN_EMAIL.toUpperCase()} `, password: ADMIN_PASSWORD });
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.body.authenticated, true);
    assert.deepEqual(Object.keys(reply.body.user).sort(), ["email", "id", "name", "role"]);
    assert.equal(reply.body.user.email, ADMIN_EMAIL);
    assert.equal(reply.body.user.role, "global_admin");
    const cookie = reply.headers.getSetCookie()[0] ?? "";
    assert.match(cookie, /^portal_session=v1(%3A|:)[A-Za-z0-9_%-]+/);
    assert.match(cookie, /; HttpOnly/);
    assert.match(cookie, /; SameSite=Strict/);
    assert.match(cookie, /; Path=\//);
    assert.match(cookie, /; Max-Age=43200/);
    assert.doesNotMatch(cookie, /Secure/, "plain HTTP: no Secure attribute");

    const session = await client.get("/api/auth/session");
    // `demo` tells the UI to show its DEMO badge; this portal is not in demo mode.
    assert.deepEqual(session.body, { authenticated: true, user: reply.body.user, demo: false });
    assert.deepEqual((await portal.client().get("/api/auth/session")).body, { authenticated: false, demo: false });
  });

  it("marks the cookie Secure when a trusted proxy says the client used HTTPS", async () => {
    const reply = await portal.client({ ip: nextIp() }).request("POST", "/api/auth/login", {
      body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
      headers: { "x-forwarded-proto": "https", "x-forwarded-host": "portal.example.org", origin: "https://portal.example.org" },
    });
    assert.equal(reply.status, 200, reply.text);
    assert.match(reply.headers.getSetCookie()[0] ?? "", /; Secure/);
  });

  it("refuses a wrong password and an unknown e-mail alike", async () => {
    const wrong = await portal.client({ ip: nextIp() }).post("/api/auth/login", { email: ADMIN_EMAIL, password: "nope-nope" });
    const unknown = await portal.client({ ip: nextIp() }).post("/api/auth/login", { email: "who@x.test", password: "nope-nope" });
    for (const reply of [wrong, unknown]) {
      assert.equal(reply.status, 401);
      assert.deepEqual(reply.body, { success: false, error: "Invalid e-mail or password", errorCode: "UNAUTHORIZED" });
      assert.equal(reply.headers.getSetCookie().length, 0);
    }
    const invalid = await portal.client({ ip: nextIp() }).post("/api/auth/login", { email: "", password: "" });
    assert.equal(invalid.status, 400);
    assert.equal(invalid.body.errorCode, "BAD_REQUEST");
  });

  it("revokes the session server-side on logout: a kept copy of the cookie is worthless", async () => {
    const client = await portal.admin();
    const copy = client.cookie;
    assert.equal((await client.get("/api/admin/servers")).status, 200);
    const out = await client.post("/api/auth/logout");
    assert.deepEqual(out.body, { authenticated: false });
    assert.match(out.headers.getSetCookie()[0] ?? "", /portal_session=;.*Max-Age=0/);
    assert.equal(client.cookie, undefined);
    const replay = portal.client({ ip: nextIp() });
    replay.cookie = copy;
    assert.deepEqual((await replay.get("/api/auth/session")).body, { authenticated: false, demo: false });
    const admin = await replay.get("/api/admin/servers");
    assert.equal(admin.status, 401);
    assert.deepEqual(admin.body, UNAUTHORIZED);
    assert.equal((await portal.client().post("/api/auth/logout")).status, 200, "logout without a session is fine");
  });

  it("refuses altered, foreign and expired cookies", async () => {
    const client = await portal.admin();
    const value = decodeURIComponent(client.cookie ?? "");
    const parts = value.split(":");
    parts[3] = `${(parts[3] ?? "").startsWith("A") ? "B" : "A"}${(parts[3] ?? "").slice(1)}`;
    const forged = portal.client({ ip: nextIp() });
    for (const cookie of [parts.join(":"), "v1:AAAAAAAAAAAAAAAA:AAAAAAAAAAAAAAAAAAAAAA:AAAA", "garbage"]) {
      forged.cookie = encodeURIComponent(cookie);
      assert.equal((await forged.get("/api/admin/servers")).status, 401, cookie);
    }
    portal.clockOffset = 12 * 60 * 60 * 1000 + 1000;
    try {
      assert.equal((await client.get("/api/admin/servers")).status, 401, "12 h after login the session is over");
      assert.deepEqual((await client.get("/api/auth/session")).body, { authenticated: false, demo: false });
    } finally {
      portal.clockOffset = 0;
    }
  });

  it("answers every admin endpoint with 401 in the error shape without a session", async () => {
    const anonymous = portal.client({ ip: nextIp() });
    for (const [method, path] of ADMIN_ENDPOINTS) {
      const reply = await anonymous.request(method, path, method === "GET" ? {} : { body: {} });
      assert.equal(reply.status, 401, `${method} ${path}`);
      assert.deepEqual(reply.body, UNAUTHORIZED, `${method} ${path}`);
    }
  });

  it("refuses cookie-authenticated writes from another origin or without Origin/Referer (CSRF)", async () => {
    const admin = await portal.admin();
    const body = { name: "x" };
    const foreign = await admin.request("POST", "/api/admin/servers", { body, headers: { origin: "https://evil.example" } });
    assert.equal(foreign.status, 403);
    assert.deepEqual(foreign.body, {
      success: false,
      error: "Cross-site request refused: Origin does not match Host",
      errorCode: "FORBIDDEN",
    });
    const noOrigin = portal.client({ ip: nextIp(), origin: null });
    noOrigin.cookie = admin.cookie;
    const bare = await noOrigin.post("/api/admin/servers", body);
    assert.equal(bare.status, 403);
    assert.match(bare.body.error, /Origin or Referer header is required/);
    const nullOrigin = await admin.request("DELETE", "/api/admin/servers/x", { headers: { origin: "null" } });
    assert.equal(nullOrigin.status, 403);

    const referer = await noOrigin.request("POST", "/api/admin/servers", { body, headers: { referer: `${portal.url}/admin` } });
    assert.equal(referer.status, 400, "same-site Referer passes the CSRF check and reaches validation");
    const read = await admin.request("GET", "/api/admin/servers", { headers: { origin: "https://evil.example" } });
    assert.equal(read.status, 200, "safe methods are not checked");
    const proxied = await admin.request("POST", "/api/admin/servers", {
      body,
      headers: { origin: "https://portal.example.org", "x-forwarded-host": "portal.example.org" },
    });
    assert.equal(proxied.status, 400, "behind a trusted proxy the forwarded host is the one the browser saw");

    const loginCsrf = await portal
      .client({ ip: nextIp(), origin: "https://evil.example" })
      .post("/api/auth/login", { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    assert.equal(loginCsrf.status, 403, "a cross-site login form is refused too");
  });

  it("rate-limits failed logins per e-mail (5 per 15 min), whatever the IP, even for the right password", async () => {
    const email = "target@portal.test";
    for (let i = 0; i < 5; i++) {
      assert.equal(
        (await portal.client({ ip: nextIp() }).post("/api/auth/login", { email, password: `guess-${i}` })).status,
        401,
      );
    }
    const limited = await portal.client({ ip: nextIp() }).post("/api/auth/login", { email, password: "guess-6" });
    assert.equal(limited.status, 429);
    assert.equal(limited.body.errorCode, "RATE_LIMITED");
    assert.match(limited.body.error, /Too many failed logins for this account/);
    assert.ok(Number(limited.headers.get("retry-after")) > 800);

    for (let i = 0; i < 4; i++) {
      await portal.client({ ip: nextIp() }).post("/api/auth/login", { email: ADMIN_EMAIL.toUpperCase(), password: "wrong" });
    }
    await portal.client({ ip: nextIp() }).login(ADMIN_EMAIL, ADMIN_PASSWORD);
    for (let i = 0; i < 4; i++) {
      const reply = await portal.client({ ip: nextIp() }).post("/api/auth/login", { email: ADMIN_EMAIL, password: "wrong" });
      assert.equal(reply.status, 401, "a successful login clears the e-mail's failures");
    }
    await portal.client({ ip: nextIp() }).login(ADMIN_EMAIL, ADMIN_PASSWORD);
  });

  it("rate-limits login attempts per IP (20 per 15 min)", async () => {
    const client = portal.client({ ip: nextIp() });
    for (let i = 0; i < 20; i++) {
      const reply = await client.post("/api/auth/login", { email: `user${i}@portal.test`, password: "whatever1" });
      assert.equal(reply.status, 401);
    }
    const limited = await client.post("/api/auth/login", { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    assert.equal(limited.status, 429);
    assert.match(limited.body.error, /Too many login attempts from this address/);
    await portal.client({ ip: nextIp() }).login(ADMIN_EMAIL, ADMIN_PASSWORD);
  });
});

describe("administrator bootstrap", () => {
  it("creates the admin at start, updates its password on a later start and ends its old sessions", async () => {
    const first = await startTestPortal();
    try {
      const client = await first.admin();
      const oldCookie = client.cookie;
      await first.stop();
      const second = await startTestPortal({ dataDir: first.dataDir, env: { PORTAL_ADMIN_PASSWORD: "a-brand-new-password" } });
      try {
        const stale = second.client({ ip: nextIp() });
        stale.cookie = oldCookie;
        assert.equal((await stale.get("/api/admin/servers")).status, 401);
        const old = await second
          .client({ ip: nextIp() })
          .post("/api/auth/login", { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
        assert.equal(old.status, 401);
        await second.client({ ip: nextIp() }).login(ADMIN_EMAIL, "a-brand-new-password");
      } finally {
        await second.stop();
      }
    } finally {
      removeDataDir(first.dataDir);
    }
  });
});
