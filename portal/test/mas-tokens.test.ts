import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type PortalWithMas, startPortalWithMas, stopPortalWithMas } from "./support/mas-harness.ts";

const DAY = 86_400_000;

/**
 * Every registration-token action of the admin API on a server of kind `mas`, against the MAS simulator: what the
 * portal answers, what MAS holds afterwards, and what stays local (labels, notes, audit).
 */
describe("registration tokens on a MAS server", () => {
  let setup: PortalWithMas;
  const path = (suffix = "") => `/api/admin/tokens${suffix}?serverId=${setup.serverId}`;
  const onMas = (token: string) => setup.mas.tokens().find((row) => row.token === token);

  before(async () => {
    setup = await startPortalWithMas("mas-tokens.test");
  });
  after(() => stopPortalWithMas(setup));

  it("creates tokens on MAS with a usage limit, an expiry and local metadata; generates them when none is given", async () => {
    const { admin } = setup;
    const expiry = Date.now() + 7 * DAY;
    const reply = await admin.post(path(), {
      token: "club-2026",
      uses_allowed: 3,
      expiry_time: expiry,
      label: "Club",
      note: "n",
    });
    assert.equal(reply.status, 201, reply.text);
    const token = reply.body.token;
    assert.deepEqual(
      [token.token, token.uses_allowed, token.pending, token.completed, token.expiry_time, token.label, token.note, token.state],
      ["club-2026", 3, 0, 0, expiry, "Club", "n", "valid"],
    );
    assert.deepEqual([token.revoked_at, token.last_used_at, typeof token.created_at], [null, null, "number"]);
    const row = onMas("club-2026");
    assert.deepEqual([row?.usageLimit, row?.expiresAt, row?.revokedAt], [3, expiry, null]);

    const generated = await admin.post(path(), { length: 20, uses_allowed: null });
    assert.equal(generated.status, 201);
    assert.match(generated.body.token.token, /^[A-Za-z0-9]{20}$/);
    assert.equal(onMas(generated.body.token.token)?.usageLimit, null);

    const duplicate = await admin.post(path(), { token: "club-2026" });
    assert.deepEqual(
      [duplicate.status, duplicate.body.errorCode, duplicate.body.error],
      [409, "CONFLICT", "A registration token with the same token already exists"],
    );
    const audit = (await admin.get(`/api/admin/audit?serverId=${setup.serverId}`)).body.logs;
    assert.equal(audit.filter((entry: { action: string }) => entry.action === "token.created").length, 2);
  });

  it("makes a batch of one-use invitations on MAS, labelled locally", async () => {
    const reply = await setup.admin.post(`/api/admin/tokens/batch?serverId=${setup.serverId}`, { count: 3, label: "MAS batch" });
    assert.equal(reply.status, 201, reply.text);
    const made = reply.body.tokens as { token: string; label: string; uses_allowed: number }[];
    assert.equal(made.length, 3);
    for (const token of made) {
      assert.deepEqual([token.label, token.uses_allowed, onMas(token.token)?.usageLimit], ["MAS batch", 1, 1]);
    }
  });

  it("lists every token with MAS's states, and pages through MAS's filters and cursors", async () => {
    const { admin, mas } = setup;
    const now = Date.now();
    mas.addToken("list-revoked");
    await admin.patch(path("/list-revoked"));
    mas.addToken("list-expired", { expiresAt: now - DAY });
    mas.addToken("list-full", { usageLimit: 1 });
    assert.equal(mas.useToken("list-full"), true);
    mas.addToken("list-zero", { usageLimit: 0 });
    const all = (await admin.get(path())).body.tokens as { token: string; state: string; completed: number }[];
    const state = (name: string) => all.find((token) => token.token === name)?.state;
    assert.deepEqual(["club-2026", "list-revoked", "list-expired", "list-full", "list-zero"].map(state), [
      "valid",
      "disabled",
      "expired",
      "exhausted",
      "exhausted",
    ]);
    assert.equal(all.find((token) => token.token === "list-full")?.completed, 1);

    const first = await admin.get(`${path()}&limit=2`);
    assert.equal(first.status, 200);
    assert.equal(first.body.total, all.length);
    assert.deepEqual(
      first.body.tokens.map((token: { token: string }) => token.token),
      all.slice(0, 2).map((token) => token.token),
    );
    assert.match(first.body.next, /^[0-9A-HJKMNP-TV-Z]{26}$/, "MAS's cursor, passed through");
    const seen = [...first.body.tokens];
    let next = first.body.next;
    while (next) {
      const page = await admin.get(`${path()}&limit=2&after=${next}`);
      seen.push(...page.body.tokens);
      next = page.body.next;
    }
    assert.deepEqual(
      seen.map((token: { token: string }) => token.token),
      all.map((token) => token.token),
    );
    const byState = async (status: string) =>
      ((await admin.get(`${path()}&limit=50&status=${status}`)).body.tokens as { token: string }[]).map((t) => t.token).sort();
    assert.deepEqual(await byState("disabled"), ["list-revoked"]);
    assert.deepEqual(await byState("expired"), ["list-expired"]);
    assert.deepEqual(await byState("exhausted"), ["list-full", "list-zero"]);
    assert.ok((await byState("valid")).includes("club-2026"));
    const listQuery = mas
      .requests()
      .filter((entry) => entry.path === "/api/admin/v1/user-registration-tokens" && entry.method === "GET");
    assert.ok(listQuery.length > 0);
    const stats = (await admin.get(`/api/admin/stats?serverId=${setup.serverId}`)).body;
    assert.deepEqual(
      [stats.totalTokens, stats.disabledTokens, stats.expiredTokens, stats.exhaustedTokens],
      [all.length, 1, 1, 2],
    );
  });

  it("shows one token, updates limit and expiry (null clears), keeps labels local, and 404s unknown tokens", async () => {
    const { admin } = setup;
    const shown = await admin.get(path("/club-2026"));
    assert.deepEqual([shown.status, shown.body.token.label], [200, "Club"]);
    const limit = await admin.put(path("/club-2026"), { uses_allowed: 10, label: "Club (more)" });
    assert.deepEqual([limit.body.token.uses_allowed, limit.body.token.label], [10, "Club (more)"]);
    assert.equal(onMas("club-2026")?.usageLimit, 10);
    const cleared = await admin.put(path("/club-2026"), { uses_allowed: null, expiry_time: null });
    assert.deepEqual([cleared.body.token.uses_allowed, cleared.body.token.expiry_time], [null, null]);
    assert.deepEqual([onMas("club-2026")?.usageLimit, onMas("club-2026")?.expiresAt], [null, null]);
    const note = await admin.put(path("/club-2026"), { note: "local only" });
    assert.equal(note.body.token.note, "local only");
    for (const reply of [await admin.get(path("/nope")), await admin.put(path("/nope"), { uses_allowed: 1 })]) {
      assert.deepEqual([reply.status, reply.body.errorCode], [404, "M_NOT_FOUND"]);
    }
  });

  it("disable revokes on MAS (twice is fine), enable unrevokes with the limit intact; delete is refused and changes nothing", async () => {
    const { admin } = setup;
    await admin.put(path("/club-2026"), { uses_allowed: 4 });
    const off = await admin.patch(path("/club-2026"));
    assert.deepEqual([off.status, off.body.token.state, off.body.token.disabled], [200, "disabled", true]);
    assert.equal(typeof onMas("club-2026")?.revokedAt, "number");
    const again = await admin.patch(path("/club-2026"), { action: "disable" });
    assert.equal(again.status, 200, "MAS's 400 'already revoked' is no failure for the portal");
    const on = await admin.patch(path("/club-2026"), { action: "enable" });
    assert.deepEqual([on.status, on.body.token.state, on.body.token.uses_allowed], [200, "valid", 4]);
    assert.equal(onMas("club-2026")?.revokedAt, null);
    const bad = await admin.patch(path("/club-2026"), { action: "toggle" });
    assert.equal(bad.status, 400);

    const removal = await admin.delete(path("/club-2026"));
    assert.deepEqual([removal.status, removal.body.errorCode], [409, "MAS_NO_DELETE"]);
    assert.ok(onMas("club-2026"), "still on MAS");
    assert.equal((await admin.get(path("/club-2026"))).body.token.label, "Club (more)", "metadata kept");
    const audit = (await admin.get(`/api/admin/audit?serverId=${setup.serverId}`)).body.logs as {
      action: string;
      detail: Record<string, unknown> | null;
    }[];
    assert.deepEqual(audit.find((entry) => entry.action === "token.disabled")?.detail, { via: "revoke" });
    assert.ok(audit.some((entry) => entry.action === "token.updated" && entry.detail?.via === "unrevoke"));
    assert.equal(
      audit.some((entry) => entry.action === "token.deleted"),
      false,
    );
  });

  it("re-fetches an access token MAS no longer takes (expired on MAS's clock, or its session finished) once, mid-operation", async () => {
    const { admin, mas, clock } = setup;
    await admin.get(path("/club-2026"));
    const grants = mas.accessTokens().length;
    const id = onMas("club-2026")?.id;
    // MAS's clock runs ahead of the portal's: the portal still trusts its token, MAS answers 401 "Access token expired".
    clock.offset += 301_000;
    const before = mas.requests().length;
    const shown = await admin.get(path("/club-2026"));
    assert.equal(shown.status, 200, shown.text);
    const calls = mas
      .requests()
      .slice(before)
      .map((entry) => `${entry.method} ${entry.path} ${entry.status}`);
    assert.deepEqual(calls, [
      `GET /api/admin/v1/user-registration-tokens/${id} 401`,
      "POST /oauth2/token 200",
      `GET /api/admin/v1/user-registration-tokens/${id} 200`,
    ]);
    assert.equal(mas.accessTokens().length, grants + 1);

    // A write refused for its token is made once more, and happens exactly once.
    mas.revokeAccessTokens();
    const created = await admin.post(path(), { token: "after-revocation", uses_allowed: 1 });
    assert.equal(created.status, 201, created.text);
    assert.equal(mas.tokens().filter((row) => row.token === "after-revocation").length, 1);
    assert.equal(mas.accessTokens().length, grants + 2);
  });

  it("reuses its access token and asks for a new one before MAS's expiry, not after a refusal", async () => {
    const { admin, mas, portal } = setup;
    await admin.get(path());
    const grants = mas.accessTokens().length;
    for (let i = 0; i < 3; i++) await admin.get(path("/after-revocation"));
    assert.equal(mas.accessTokens().length, grants, "cached");
    const before = mas.requests().length;
    // Four fifths of 300 s later the portal replaces the token on its own: MAS never sees the old one refused.
    portal.clockOffset += 241_000;
    assert.equal((await admin.get(path("/after-revocation"))).status, 200);
    assert.equal(mas.accessTokens().length, grants + 1);
    assert.equal(
      mas
        .requests()
        .slice(before)
        .some((entry) => entry.status === 401),
      false,
    );
    portal.clockOffset -= 241_000;
  });

  it("a MAS that is down gives a clear 502 and nothing changes locally", async () => {
    const { admin, mas } = setup;
    const auditBefore = (await admin.get(`/api/admin/audit?serverId=${setup.serverId}`)).body.total;
    const labelBefore = (await admin.get(path("/after-revocation"))).body.token.label;
    mas.setDown("502");
    try {
      // A write first: a failed write too ends the second in which list answers are shared.
      const attempts = [
        await admin.post(path(), { token: "while-down", label: "never" }),
        await admin.get(path()),
        await admin.get(`${path()}&limit=5`),
        await admin.put(path("/after-revocation"), { label: "never" }),
        await admin.patch(path("/after-revocation")),
        await admin.patch(path("/after-revocation"), { action: "enable" }),
        await admin.get(path("/after-revocation")),
      ];
      for (const reply of attempts) {
        assert.deepEqual(
          reply.body,
          {
            success: false,
            error: "No Matrix Authentication Service answered at this server's MAS URL (the cause is in the portal log)",
            errorCode: "MAS_UNREACHABLE",
          },
          reply.text,
        );
        assert.equal(reply.status, 502);
      }
      const stats = await admin.get(`/api/admin/stats?serverId=${setup.serverId}`);
      assert.equal(stats.status, 502);
    } finally {
      mas.setDown(false);
    }
    assert.equal((await admin.get(`/api/admin/audit?serverId=${setup.serverId}`)).body.total, auditBefore, "nothing audited");
    assert.equal((await admin.get(path("/after-revocation"))).body.token.label, labelBefore, "metadata unchanged");
    assert.equal(onMas("while-down"), undefined);
    assert.equal((await admin.get(path("/while-down"))).status, 404);
    assert.equal(onMas("after-revocation")?.revokedAt, null);
  });

  it("says which part of MAS's configuration to fix when the client is refused", async () => {
    const { admin } = setup;
    const rotated = await admin.patch(`/api/admin/servers/${setup.serverId}`, {
      action: "rotate_mas_secret",
      masClientSecret: "wrong",
    });
    assert.equal(rotated.status, 200);
    try {
      const reply = await admin.get(path());
      assert.deepEqual([reply.status, reply.body.errorCode], [502, "MAS_CLIENT_REFUSED"]);
      assert.match(reply.body.error, /invalid_client/);
    } finally {
      await admin.patch(`/api/admin/servers/${setup.serverId}`, {
        action: "rotate_mas_secret",
        masClientSecret: setup.mas.client.clientSecret,
      });
    }
    assert.equal((await admin.get(path())).status, 200);
  });
});
