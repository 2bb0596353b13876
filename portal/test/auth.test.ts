import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Reply } from "./support/portal-client.ts";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  nextIp,
  removeDataDir,
  startTestPortal,
  type TestPortal,
} from "./support/portal-harness.ts";

const SECOND_EMAIL = "second@portal.test";
const SECOND_PASSWORD = "second-password-Q8!x";
const THIRD_EMAIL = "third@portal.test";
const THIRD_PASSWORD = "third-password-Z5?k";

/** The `Set-Cookie` line of the device cookie a successful login sets. */
const deviceCookieLine = (reply: Reply) =>
  reply.headers.getSetCookie().find((line) => line.startsWith("portal_device=")) ??
  assert.fail(`no device cookie: ${reply.text}`);
const deviceCookieValue = (reply: Reply) => deviceCookieLine(reply).slice("portal_device=".length).split(";")[0] ?? "";

/** More administrators than the bootstrap one, made the way the portal makes that one. */
async function addAdministrators(portal: TestPortal): Promise<void> {
  await portal.running.ctx.services.auth.ensureAdmin(SECOND_EMAIL, SECOND_PASSWORD, "second");
  await portal.running.ctx.services.auth.ensureAdmin(THIRD_EMAIL, THIRD_PASSWORD, "third");
}

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
    await addAdministrators(portal);
  });
  /** A login attempt as a fresh browser at `ip`, with a device cookie when given. */
  const attempt = (ip: string, email: string, password: string, device?: string) =>
    portal.client({ ip }).request("POST", "/api/auth/login", {
      body: { email, password },
      headers: device === undefined ? {} : { cookie: `portal_device=${device}` },
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
    assert.match(deviceCookieLine(reply), /; Secure/, "the device cookie too");
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

  it("limits failed logins per account whatever the IP, unknown accounts alike: 5 free, then a lock with Retry-After", async () => {
    const answers: Reply[][] = [];
    for (const email of ["nobody@portal.test", SECOND_EMAIL]) {
      const replies: Reply[] = [];
      for (let i = 0; i < 6; i++) replies.push(await attempt(nextIp(), email, `guess-${i}`));
      answers.push(replies);
    }
    for (const replies of answers) {
      assert.deepEqual(
        replies.map((reply) => reply.status),
        [401, 401, 401, 401, 401, 429],
      );
      const limited = replies[5] as Reply;
      assert.deepEqual(limited.body, {
        success: false,
        error: "Too many failed logins for this account; try again in 60 seconds",
        errorCode: "RATE_LIMITED",
      });
      assert.equal(limited.headers.get("retry-after"), "60");
    }
    const right = await attempt(nextIp(), SECOND_EMAIL, SECOND_PASSWORD);
    assert.equal(right.status, 429, "even the right password, from a browser that never logged in to the account");

    for (let i = 0; i < 4; i++) assert.equal((await attempt(nextIp(), ADMIN_EMAIL.toUpperCase(), "wrong")).status, 401);
    await portal.client({ ip: nextIp() }).login(ADMIN_EMAIL, ADMIN_PASSWORD);
    for (let i = 0; i < 4; i++) {
      assert.equal((await attempt(nextIp(), ADMIN_EMAIL, "wrong")).status, 401, "a successful login clears the failures");
    }
    await portal.client({ ip: nextIp() }).login(ADMIN_EMAIL, ADMIN_PASSWORD);
  });

  it("counts parallel attempts before any password work: 8 at once on one account give 5 answers and 3 refusals", async () => {
    const replies = await Promise.all(Array.from({ length: 8 }, (_, i) => attempt(nextIp(), "parallel@portal.test", `p-${i}`)));
    assert.deepEqual(replies.map((reply) => reply.status).sort(), [401, 401, 401, 401, 401, 429, 429, 429]);
  });

  it("limits an address to failures on 10 different accounts per 15 minutes", async () => {
    const ip = nextIp();
    for (let i = 0; i < 10; i++) assert.equal((await attempt(ip, `user${i}@portal.test`, "whatever1")).status, 401);
    const limited = await attempt(ip, ADMIN_EMAIL, ADMIN_PASSWORD);
    assert.equal(limited.status, 429);
    assert.equal(limited.body.errorCode, "RATE_LIMITED");
    assert.match(limited.body.error, /^Too many failed logins from this address; try again in 1[45] minutes$/);
    assert.ok(Number(limited.headers.get("retry-after")) > 800);
    assert.equal((await attempt(ip, "user3@portal.test", "again")).status, 401, "its own accounts stay under their own limit");
    await portal.client({ ip: nextIp() }).login(ADMIN_EMAIL, ADMIN_PASSWORD);
  });

  it("lets 24 wrong logins for one account lock out no other account, from another address or the same one", async () => {
    const flooder = nextIp();
    const statuses: number[] = [];
    for (let i = 0; i < 24; i++) statuses.push((await attempt(flooder, "victim@portal.test", `guess-${i}`)).status);
    assert.deepEqual(statuses, [...Array(5).fill(401), ...Array(19).fill(429)]);
    assert.equal((await attempt(nextIp(), ADMIN_EMAIL, ADMIN_PASSWORD)).status, 200, "from another address");
    assert.equal((await attempt(flooder, ADMIN_EMAIL, ADMIN_PASSWORD)).status, 200, "from the flooding address (a NAT)");
  });

  it("lets the right password with the account's device cookie through a lockout someone else caused", async () => {
    const home = nextIp();
    const first = await attempt(home, THIRD_EMAIL, THIRD_PASSWORD);
    assert.equal(first.status, 200, first.text);
    const line = deviceCookieLine(first);
    assert.match(line, /^portal_device=v1(%3A|:)[A-Za-z0-9_%-]+;/);
    for (const attribute of ["; Max-Age=7776000", "; Path=/api/auth", "; HttpOnly", "; SameSite=Strict"]) {
      assert.ok(line.includes(attribute), `${attribute} in ${line}`);
    }
    assert.equal(line.includes("third"), false, "sealed: the e-mail is not readable in the cookie");
    assert.match(first.headers.getSetCookie()[0] ?? "", /^portal_session=/, "the session cookie comes first, as before");
    const device = deviceCookieValue(first);
    const otherDevice = deviceCookieValue(await attempt(nextIp(), ADMIN_EMAIL, ADMIN_PASSWORD));

    // Someone else floods the account from their addresses: 5 failures, then locked for everyone without the cookie.
    for (let i = 0; i < 24; i++) await attempt(nextIp(), THIRD_EMAIL, `attack-${i}`);
    const locked = await attempt(home, THIRD_EMAIL, THIRD_PASSWORD);
    assert.equal(locked.status, 429, "without the device cookie, even from the usual address");
    assert.equal(locked.body.errorCode, "RATE_LIMITED");
    assert.ok(Number(locked.headers.get("retry-after")) >= 1);
    const altered = `${device.slice(0, -2)}${device.endsWith("A") ? "B" : "A"}`;
    for (const [name, cookie] of [
      ["another account's device cookie", otherDevice],
      ["an altered cookie", altered],
      ["garbage", "v1:AAAA:BBBB:CCCC"],
    ]) {
      assert.equal((await attempt(nextIp(), THIRD_EMAIL, THIRD_PASSWORD, cookie)).status, 429, name);
    }

    const trusted = await attempt(nextIp(), THIRD_EMAIL, THIRD_PASSWORD, device);
    assert.equal(trusted.status, 200, `with the device cookie, from any address: ${trusted.text}`);
    const renewed = deviceCookieValue(trusted);
    assert.notEqual(renewed, device, "a login renews the device cookie");
    assert.equal((await attempt(home, THIRD_EMAIL, THIRD_PASSWORD)).status, 429, "the lock stays for everyone else");

    const client = portal.client({ ip: nextIp() });
    const session = await client.request("POST", "/api/auth/login", {
      body: { email: THIRD_EMAIL, password: THIRD_PASSWORD },
      headers: { cookie: `portal_device=${renewed}` },
    });
    assert.equal(session.status, 200);
    const logout = await client.post("/api/auth/logout");
    assert.equal(
      logout.headers.getSetCookie().some((cookie) => cookie.startsWith("portal_device=")),
      false,
      "logout keeps the device cookie",
    );

    // The device's own limit: 5 wrong passwords, then the cookie counts for nothing and the account's lock applies.
    for (let i = 0; i < 5; i++) assert.equal((await attempt(nextIp(), THIRD_EMAIL, `typo-${i}`, renewed)).status, 401);
    const spent = await attempt(nextIp(), THIRD_EMAIL, THIRD_PASSWORD, renewed);
    assert.equal(spent.status, 429, "a stolen device cookie buys 5 guesses, not a way around the lock");
    assert.match(spent.body.error, /for this account/);
  });
});

/**
 * A portal behind a reverse proxy it was not told to trust (PORTAL_TRUSTED_PROXIES empty): every request comes from
 * 127.0.0.1, the proxy, and the X-Forwarded-For naming the real client is ignored, so all clients share one address.
 */
describe("login behind a proxy the portal does not trust", () => {
  let portal: TestPortal;
  before(async () => {
    portal = await startTestPortal({ env: { PORTAL_TRUSTED_PROXIES: "" } });
    await addAdministrators(portal);
  });
  after(async () => {
    await portal.stop();
    removeDataDir(portal.dataDir);
  });
  /** A login by a fresh browser behind the proxy (which names it in X-Forwarded-For, to no avail). */
  const viaProxy = (email: string, password: string) =>
    portal.client({ ip: nextIp() }).post("/api/auth/login", { email, password });
  const warnings = () => portal.logs().filter((line) => line.includes("a proxy that is not trusted"));

  it("warns once, at the first request that came through the proxy", async () => {
    await portal.client().get("/api/health");
    await portal.client().post("/api/auth/login", { email: ADMIN_EMAIL, password: "wrong-password" });
    assert.equal(warnings().length, 0, "direct requests are no reason to warn");
    await viaProxy(ADMIN_EMAIL, ADMIN_PASSWORD);
    await portal.client({ ip: nextIp() }).get("/api/branding");
    const forwarded = { headers: { forwarded: "for=198.51.100.7" } };
    await portal.client().request("GET", "/api/health", forwarded);
    await portal.client().request("GET", "/api/health", { headers: { "x-real-ip": "198.51.100.8" } });
    assert.equal(warnings().length, 1, warnings().join("\n"));
    const warning = JSON.parse(warnings()[0] as string);
    assert.equal(warning.level, "warn");
    assert.equal(warning.peer, "127.0.0.1");
    assert.equal(warning.header, "x-forwarded-for");
    assert.match(warning.msg, /add it to PORTAL_TRUSTED_PROXIES/);
  });

  it("keeps a flood on one account from locking out the others behind the same proxy", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 24; i++) statuses.push((await viaProxy("victim@portal.test", `guess-${i}`)).status);
    assert.deepEqual(statuses, [...Array(5).fill(401), ...Array(19).fill(429)]);
    for (const [email, password] of [
      [SECOND_EMAIL, SECOND_PASSWORD],
      [ADMIN_EMAIL, ADMIN_PASSWORD],
    ] as const) {
      const reply = await viaProxy(email, password);
      assert.equal(reply.status, 200, `${email}, who never logged in from this browser: ${reply.text}`);
    }
  });

  it("bounds the backoff of a flooded account (1, 2, 4, 8, then 15 minutes at most): it gets in once the flood stops", async () => {
    try {
      const retryAfter: number[] = [];
      for (let round = 0; round < 7; round++) {
        // The flood: wrong passwords until the account is locked, then the attacker waits the lock out.
        let reply = await viaProxy(THIRD_EMAIL, "flood-guess");
        while (reply.status === 401) reply = await viaProxy(THIRD_EMAIL, "flood-guess");
        assert.equal(reply.status, 429, reply.text);
        retryAfter.push(Number(reply.headers.get("retry-after")));
        const user = await viaProxy(THIRD_EMAIL, THIRD_PASSWORD);
        assert.equal(user.status, 429, "during the flood, the account's lock applies to its user too (no device cookie)");
        portal.clockOffset += Number(reply.headers.get("retry-after")) * 1000;
      }
      assert.deepEqual(retryAfter, [60, 120, 240, 480, 900, 900, 900]);
      const after = await viaProxy(THIRD_EMAIL, THIRD_PASSWORD);
      assert.equal(after.status, 200, `at most 15 minutes after the flood's last try: ${after.text}`);
    } finally {
      portal.clockOffset = 0;
    }
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
