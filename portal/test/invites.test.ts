import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { until } from "../../lib/testing/polling.ts";
import type { HomeserverSimulator } from "../../simulators/homeserver/index.ts";
import type { PortalClient } from "./support/portal-client.ts";
import { nextIp, startPortalWithHomeserver, stopPortalWithHomeserver, type TestPortal } from "./support/portal-harness.ts";

// Issue 23 part 1: invites people can use. The invite page answers link previews without using anything, says why a
// token cannot be used before anyone types, and a batch makes one-use tokens for a printed sheet.

/** The user agents chat apps and social sites fetch links with to build a preview (as they send them). */
const PREVIEW_AGENTS = [
  "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)",
  "Slack-ImgProxy (+https://api.slack.com/robots)",
  "Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)",
  "WhatsApp/2.23.20.0 A",
  "TelegramBot (like TwitterBot)",
  "Twitterbot/1.0",
  "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
  "LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)",
  "Mozilla/5.0 (compatible; Google-PageRenderer; +https://developers.google.com/+/web/snippet/)",
  "SkypeUriPreview Preview/0.5",
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) iMessageLinkPreview",
  "Element link preview (Synapse url_preview)",
];

describe("invites: preview safety, validity before typing, batches", () => {
  let portal: TestPortal;
  let hs: HomeserverSimulator;
  let admin: PortalClient;
  let serverId: string;
  let slug: string;
  const tokens = (suffix = "") => `/api/admin/tokens${suffix}?serverId=${serverId}`;
  const onHs = (token: string) => hs.tokens().find((t) => t.token === token);
  const validate = (token: string) => portal.client({ ip: nextIp() }).post("/api/register/validate-token", { token, serverId });

  before(async () => {
    ({ portal, hs, admin, serverId } = await startPortalWithHomeserver({
      homeserver: {
        serverName: "invite.test",
        seed: {
          tokens: [
            { token: "old-expired", expiry_time: Date.now() - 60_000 },
            { token: "all-used", uses_allowed: 2, completed: 2 },
            { token: "one-pending", uses_allowed: 1, pending: 1 },
          ],
        },
      },
    }));
    slug = (await admin.get(`/api/admin/servers/${serverId}`)).body.server.slug;
  });
  after(() => stopPortalWithHomeserver(portal, hs));

  it("says why a token cannot be used (state) and when a valid one expires, consuming nothing", async () => {
    const expiry = Date.now() + 7 * 86_400_000;
    assert.equal((await admin.post(tokens(), { token: "good-one", uses_allowed: 1, expiry_time: expiry })).status, 201);
    assert.equal((await admin.post(tokens(), { token: "no-expiry" })).status, 201);
    assert.equal((await admin.post(tokens(), { token: "switched-off", uses_allowed: 5 })).status, 201);
    assert.equal((await admin.patch(tokens("/switched-off"))).status, 200);
    const before = JSON.stringify(hs.tokens());
    // Adding the server made one bare POST /register probe; the checks must add none.
    const registerCalls = () => hs.requests().filter((r) => r.path === "/_matrix/client/v3/register").length;
    const probes = registerCalls();

    assert.deepEqual((await validate("good-one")).body, { valid: true, state: "valid", expiresAt: expiry });
    assert.deepEqual((await validate("no-expiry")).body, { valid: true, state: "valid", expiresAt: null });
    assert.deepEqual((await validate("all-used")).body, { valid: false, state: "exhausted", expiresAt: null });
    assert.deepEqual(
      (await validate("one-pending")).body,
      { valid: false, state: "exhausted", expiresAt: null },
      "a use held by a sign-up in progress counts",
    );
    assert.deepEqual((await validate("switched-off")).body, { valid: false, state: "disabled", expiresAt: null });
    assert.deepEqual((await validate("old-expired")).body, { valid: false, state: "expired", expiresAt: null });
    assert.deepEqual((await validate("never-made")).body, { valid: false, state: "unknown", expiresAt: null });
    assert.deepEqual((await validate("not a token")).body, { valid: false, state: "unknown", expiresAt: null });
    assert.equal(JSON.stringify(hs.tokens()), before, "nothing used, nothing held");
    assert.equal(registerCalls(), probes, "no UIA session was opened by any check");
  });

  it("answers 'invalid' without a reason when only the homeserver's public yes/no can be asked", async () => {
    await admin.patch(`/api/admin/servers/${serverId}`, { action: "rotate_token", adminToken: "not-an-admin-token" });
    try {
      assert.deepEqual((await validate("no-expiry")).body, { valid: true, state: "valid", expiresAt: null });
      assert.deepEqual((await validate("all-used")).body, { valid: false, state: "invalid", expiresAt: null });
      assert.deepEqual(
        (await validate("switched-off")).body,
        { valid: false, state: "disabled", expiresAt: null },
        "the portal's own flag still gives the reason",
      );
    } finally {
      await admin.patch(`/api/admin/servers/${serverId}`, { action: "rotate_token", adminToken: hs.adminToken });
    }
  });

  it("serves the invite page to link-preview bots (GET and HEAD, old and new links) without using the token", async () => {
    assert.equal((await admin.post(tokens(), { token: "preview-me", uses_allowed: 1 })).status, 201);
    const before = onHs("preview-me");
    const hsCalls = hs.requests().length;
    const links = [`/?server=${slug}#token=preview-me`, `/?server=${slug}&token=preview-me`, "/?token=preview-me"];
    for (const agent of PREVIEW_AGENTS) {
      for (const link of links) {
        for (const method of ["GET", "HEAD"]) {
          const reply = await portal.client({ ip: nextIp() }).request(method, link, { headers: { "user-agent": agent } });
          assert.equal(reply.status, 200, `${method} ${link} by ${agent}`);
          assert.match(reply.headers.get("content-type") ?? "", /^text\/html/);
          assert.equal(reply.headers.get("x-robots-tag"), "noindex, nofollow");
          assert.equal(reply.headers.get("referrer-policy"), "no-referrer");
          assert.match(reply.headers.get("content-security-policy") ?? "", /default-src 'self'/);
          assert.equal(reply.text.includes("preview-me"), false, "the page does not echo the token");
          if (method === "HEAD") assert.equal(reply.text, "");
        }
      }
      // A bot that runs the page's script checks the token the way the page does: that uses nothing either.
      const check = await portal.client({ ip: nextIp() }).request("POST", "/api/register/validate-token", {
        body: { token: "preview-me", serverId },
        headers: { "user-agent": agent },
      });
      assert.equal(check.body.state, "valid", agent);
    }
    assert.deepEqual(onHs("preview-me"), before, "the simulator counts no use, pending or completed");
    const viaAdmin = (await admin.get(tokens("/preview-me"))).body.token;
    assert.deepEqual(
      { pending: viaAdmin.pending, completed: viaAdmin.completed, valid: viaAdmin.valid },
      { pending: 0, completed: 0, valid: true },
    );
    const since = hs.requests().slice(hsCalls);
    assert.deepEqual(
      since.filter((r) => r.path.includes("/register")),
      [],
      "no registration call reached the homeserver (checks go through the admin lookup)",
    );

    // Only the final sign-up POST uses it.
    const password = "correct horse battery staple";
    const signUp = await portal.client({ ip: nextIp() }).post("/api/register", {
      username: "previewed",
      password,
      confirmPassword: password,
      token: "preview-me",
      serverId,
    });
    assert.equal(signUp.status, 200, signUp.text);
    assert.equal(onHs("preview-me")?.completed, 1);
    assert.equal((await validate("preview-me")).body.state, "exhausted");
  });

  it("keeps the console's pages out of search indexes too, with its same-origin referrer policy", async () => {
    const page = await portal.client().get("/admin");
    assert.equal(page.headers.get("x-robots-tag"), "noindex, nofollow");
    assert.equal(page.headers.get("referrer-policy"), "same-origin", "no-referrer would make browsers send Origin: null");
    const api = await portal.client().get("/api/health");
    assert.equal(api.headers.get("x-robots-tag"), null, "API answers are no pages");
  });

  it("makes a batch of one-use tokens under one label, each audited, the batch too (201)", async () => {
    const expiry = Date.now() + 30 * 86_400_000;
    const reply = await admin.post(tokens("/batch"), { count: 25, label: "Spring fair", note: "table 3", expiry_time: expiry });
    assert.equal(reply.status, 201, reply.text);
    assert.equal(reply.body.label, "Spring fair");
    const made = reply.body.tokens as { token: string; uses_allowed: number; label: string; note: string; valid: boolean }[];
    assert.equal(made.length, 25);
    assert.equal(new Set(made.map((t) => t.token)).size, 25, "all different");
    for (const token of made) {
      assert.match(token.token, /^[A-HJ-NP-Za-km-z2-9]{12}$/, "12 characters without look-alikes");
      assert.deepEqual(
        { uses: token.uses_allowed, label: token.label, note: token.note, valid: token.valid },
        { uses: 1, label: "Spring fair", note: "table 3", valid: true },
      );
      assert.deepEqual(onHs(token.token), { token: token.token, uses_allowed: 1, pending: 0, completed: 0, expiry_time: expiry });
    }
    const listed = (await admin.get(tokens())).body.tokens as { token: string; label: string }[];
    assert.equal(listed.filter((t) => t.label === "Spring fair").length, 25, "the list shows them at once");

    const summary = (await admin.get(`/api/admin/audit?serverId=${serverId}&action=token.batch.created`)).body.logs;
    assert.equal(summary.length, 1);
    assert.equal(summary[0].target, "Spring fair");
    assert.deepEqual(summary[0].detail, { requested: 25, created: 25, expiry_time: expiry });
    const created = (await admin.get(`/api/admin/audit?serverId=${serverId}&action=token.created&limit=100`)).body.logs;
    for (const token of made) assert.ok(created.some((entry: { target: string }) => entry.target === token.token));

    const short = await admin.post(tokens("/batch"), { count: 1, label: "Just one", length: 8 });
    assert.equal(short.status, 201);
    assert.equal(short.body.tokens[0].token.length, 8);
  });

  it("refuses batches out of bounds, without a label, expired, unauthenticated or cross-site, changing nothing", async () => {
    const before = hs.tokens().length;
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ count: 0, label: "x" }, /count must be between 1 and 200/],
      [{ count: 201, label: "x" }, /count must be between 1 and 200/],
      [{ count: 2.5, label: "x" }, /whole number/],
      [{ count: 3 }, /label/],
      [{ count: 3, label: "   " }, /label is required/],
      [{ count: 3, label: "x", uses_allowed: 5 }, /uses_allowed/],
      [{ count: 3, label: "x", expiry_time: Date.now() - 1000 }, /must not be in the past/],
      [{ count: 3, label: "x", length: 7 }, /length must be between 8 and 64/],
    ];
    for (const [body, message] of cases) {
      const reply = await admin.post(tokens("/batch"), body);
      assert.equal(reply.status, 400, JSON.stringify(body));
      assert.match(reply.body.error, message);
    }
    assert.equal((await portal.client().post(tokens("/batch"), { count: 3, label: "x" })).status, 401);
    const crossSite = await admin.request("POST", tokens("/batch"), {
      body: { count: 3, label: "x" },
      headers: { origin: "https://evil.example" },
    });
    assert.equal(crossSite.status, 403);
    assert.equal(hs.tokens().length, before, "no token made");
    assert.equal((await admin.post(`/api/admin/tokens/batch?serverId=nope`, { count: 1, label: "x" })).status, 404);
  });

  it("says how many tokens a batch left when the homeserver fails part-way", async () => {
    const hold = hs.holdResponses((r) => r.method === "POST" && r.path.endsWith("/registration_tokens/new"));
    const pending = admin.post(tokens("/batch"), { count: 10, label: "Half done" });
    await until("four creates in flight", () => hold.held() === 4);
    hs.setDelegatedAuth(true);
    hold.release();
    const reply = await pending;
    hs.setDelegatedAuth(false);
    assert.equal(reply.status, 502, reply.text);
    assert.match(reply.body.error, /4 of 10 tokens were created before this; they carry the label “Half done”\./);
    const kept = ((await admin.get(tokens())).body.tokens as { label: string }[]).filter((t) => t.label === "Half done");
    assert.equal(kept.length, 4);
    const summary = (await admin.get(`/api/admin/audit?serverId=${serverId}&action=token.batch.created&limit=1`)).body.logs;
    assert.deepEqual(summary[0].detail, { requested: 10, created: 4, expiry_time: null });
  });
});
