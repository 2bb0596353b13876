import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { adminToken, createToken, MasClock, masSimulator, request, TOKENS } from "./test-support.ts";

const DAY = 86_400_000;

describe("MAS simulator: user registration tokens", { concurrency: true }, () => {
  it("creates with defaults (12 random alphanumerics, unlimited, never expiring) and answers 409 on a duplicate", async (t) => {
    const clock = new MasClock();
    const mas = await masSimulator(t, { now: clock.now });
    const token = await adminToken(mas);
    const generated = await createToken(mas, token, {});
    assert.match(generated.body.data.id, /^[0-9A-HJKMNP-TV-Z]{26}$/);
    assert.equal(generated.body.data.type, "user-registration_token");
    assert.match(generated.body.data.attributes.token, /^[A-Za-z0-9]{12}$/);
    assert.deepEqual(
      { ...generated.body.data.attributes, token: "x" },
      {
        token: "x",
        valid: true,
        usage_limit: null,
        times_used: 0,
        created_at: "2022-01-16T14:40:00Z",
        last_used_at: null,
        expires_at: null,
        revoked_at: null,
      },
    );
    assert.equal(generated.body.links.self, `${TOKENS}/${generated.body.data.id}`);
    const named = await createToken(mas, token, { token: "welcome", usage_limit: 5, expires_at: "2022-02-15T14:40:00+01:00" });
    assert.equal(named.body.data.attributes.expires_at, "2022-02-15T13:40:00Z");
    const again = await request(mas, "POST", TOKENS, { token, json: { token: "welcome" } });
    assert.deepEqual(
      [again.status, again.body],
      [409, { errors: [{ title: "A registration token with the same token already exists" }] }],
    );
    // Past expiry and a zero limit are accepted: MAS only checks uniqueness.
    const odd = await createToken(mas, token, { token: "odd", usage_limit: 0, expires_at: "2020-01-01T00:00:00Z" });
    assert.equal(odd.body.data.attributes.valid, false);
  });

  it("answers axum's plain-text rejections for bodies that are not JSON or not the shape", async (t) => {
    const mas = await masSimulator(t);
    const token = await adminToken(mas);
    const noType = await request(mas, "POST", TOKENS, { token, raw: "{}" });
    assert.deepEqual([noType.status, noType.text], [415, "Expected request with `Content-Type: application/json`"]);
    const broken = await request(mas, "POST", TOKENS, { token, raw: "{", headers: { "content-type": "application/json" } });
    assert.equal(broken.status, 400);
    assert.match(broken.text, /^Failed to parse the request body as JSON/);
    const negative = await request(mas, "POST", TOKENS, { token, json: { usage_limit: -1 } });
    assert.equal(negative.status, 422);
    assert.match(negative.text, /^Failed to deserialize the JSON body into the target type: usage_limit/);
    const date = await request(mas, "POST", TOKENS, { token, json: { expires_at: "tomorrow" } });
    assert.equal(date.status, 422);
    assert.equal(mas.tokens().length, 0);
  });

  it("shows, updates (absent keeps, null clears), revokes and unrevokes by ULID, with MAS's 400s and 404s", async (t) => {
    const clock = new MasClock();
    const mas = await masSimulator(t, { now: clock.now });
    const token = await adminToken(mas);
    const id = (await createToken(mas, token, { token: "t1", usage_limit: 3, expires_at: "2022-03-01T00:00:00Z" })).body.data.id;
    const path = `${TOKENS}/${id}`;
    assert.equal((await request(mas, "GET", path, { token })).body.data.attributes.token, "t1");
    assert.equal(
      (await request(mas, "GET", `${TOKENS}/${id.toLowerCase()}`, { token })).status,
      200,
      "ULIDs parse in either case",
    );

    const limitOnly = await request(mas, "PUT", path, { token, json: { usage_limit: 10 } });
    assert.deepEqual(
      [limitOnly.body.data.attributes.usage_limit, limitOnly.body.data.attributes.expires_at],
      [10, "2022-03-01T00:00:00Z"],
    );
    const cleared = await request(mas, "PUT", path, { token, json: { expires_at: null, usage_limit: null } });
    assert.deepEqual([cleared.body.data.attributes.usage_limit, cleared.body.data.attributes.expires_at], [null, null]);
    assert.equal((await request(mas, "PUT", path, { token, json: {} })).status, 200);

    clock.advance(60_000);
    const revoked = await request(mas, "POST", `${path}/revoke`, { token });
    assert.equal(revoked.status, 200);
    assert.deepEqual(
      [revoked.body.data.attributes.revoked_at, revoked.body.data.attributes.valid, revoked.body.links.self],
      ["2022-01-16T14:41:00Z", false, `${path}/revoke`],
    );
    const twice = await request(mas, "POST", `${path}/revoke`, { token });
    assert.deepEqual([twice.status, twice.body.errors[0].title], [400, `Registration token with ID ${id} is already revoked`]);
    const back = await request(mas, "POST", `${path}/unrevoke`, { token });
    assert.deepEqual([back.status, back.body.data.attributes.revoked_at, back.body.data.attributes.valid], [200, null, true]);
    const notRevoked = await request(mas, "POST", `${path}/unrevoke`, { token });
    assert.deepEqual(
      [notRevoked.status, notRevoked.body.errors[0].title],
      [400, `Registration token with ID ${id} is not revoked`],
    );

    const nil = "01040G2081040G2081040G2081";
    for (const [method, suffix] of [
      ["GET", ""],
      ["PUT", ""],
      ["POST", "/revoke"],
      ["POST", "/unrevoke"],
    ] as const) {
      const missing = await request(mas, method, `${TOKENS}/${nil}${suffix}`, {
        token,
        ...(method === "PUT" ? { json: {} } : {}),
      });
      assert.deepEqual([missing.status, missing.body.errors[0].title], [404, `Registration token with ID ${nil} not found`]);
    }
    const notUlid = await request(mas, "GET", `${TOKENS}/t1`, { token });
    assert.deepEqual([notUlid.status, notUlid.body.errors[0].title], [400, "Invalid ULID in path"]);
    const noDelete = await request(mas, "DELETE", path, { token });
    assert.equal(noDelete.status, 404, "MAS has no DELETE: the method is not routed");
  });

  it("filters by used, revoked, expired and valid with MAS's boundaries", async (t) => {
    const clock = new MasClock();
    const now = clock.time;
    const mas = await masSimulator(t, {
      now: clock.now,
      seed: {
        tokens: [
          { token: "unused", usageLimit: 10 },
          { token: "used", usageLimit: 10, timesUsed: 1 },
          { token: "revoked", revokedAt: now },
          { token: "expired", expiresAt: now - DAY },
          { token: "expiring-now", expiresAt: now },
          { token: "full", usageLimit: 1, timesUsed: 1 },
        ],
      },
    });
    const token = await adminToken(mas);
    const names = async (query: string) =>
      ((await request(mas, "GET", `${TOKENS}?${query}`, { token })).body.data as { attributes: { token: string } }[])
        .map((item) => item.attributes.token)
        .sort();
    assert.deepEqual(await names("filter[used]=true"), ["full", "used"]);
    assert.deepEqual(await names("filter[revoked]=true"), ["revoked"]);
    // `expires_at < now` for expired, `now < expires_at` for valid: a token expiring this instant is neither.
    assert.deepEqual(await names("filter[expired]=true"), ["expired"]);
    assert.deepEqual(await names("filter[valid]=true"), ["unused", "used"]);
    assert.deepEqual(await names("filter[valid]=false"), ["expired", "expiring-now", "full", "revoked"]);
    assert.deepEqual(await names("filter[valid]=false&filter[revoked]=false&filter[expired]=false"), ["expiring-now", "full"]);
    const bad = await request(mas, "GET", `${TOKENS}?filter[valid]=yes`, { token });
    assert.deepEqual([bad.status, bad.body.errors[0].title, bad.body.errors.length], [400, "Invalid filter parameters", 2]);
  });

  it("pages by cursor: forward pages have next but never prev, backward the reverse; links keep brackets", async (t) => {
    const mas = await masSimulator(t, { seed: { tokens: Array.from({ length: 5 }, (_, i) => ({ token: `t${i}` })) } });
    const token = await adminToken(mas);
    const ids = mas.tokens().map((row) => row.id);
    const first = await request(mas, "GET", `${TOKENS}?page[first]=2`, { token });
    assert.deepEqual(first.body.meta, { count: 5 });
    assert.deepEqual(
      first.body.data.map((item: { id: string; meta: { page: { cursor: string } } }) => [item.id, item.meta.page.cursor]),
      [
        [ids[0], ids[0]],
        [ids[1], ids[1]],
      ],
    );
    assert.deepEqual(first.body.links, {
      self: `${TOKENS}?page[first]=2`,
      first: `${TOKENS}?page[first]=2`,
      last: `${TOKENS}?page[last]=2`,
      next: `${TOKENS}?page[after]=${ids[1]}&page[first]=2`,
    });
    const second = await request(mas, "GET", first.body.links.next, { token });
    assert.deepEqual(
      second.body.data.map((item: { id: string }) => item.id),
      [ids[2], ids[3]],
    );
    assert.equal(second.body.links.prev, undefined);
    const lastPage = await request(mas, "GET", `${TOKENS}?page[after]=${ids[3]}&page[first]=2`, { token });
    assert.deepEqual([lastPage.body.data.length, lastPage.body.links.next], [1, undefined]);
    const backward = await request(mas, "GET", `${TOKENS}?page[last]=2&filter[used]=false`, { token });
    assert.deepEqual(
      backward.body.data.map((item: { id: string }) => item.id),
      [ids[3], ids[4]],
    );
    assert.deepEqual(
      [backward.body.links.prev, backward.body.links.next],
      [`${TOKENS}?filter[used]=false&page[before]=${ids[3]}&page[last]=2`, undefined],
    );
    const defaults = await request(mas, "GET", TOKENS, { token });
    assert.equal(defaults.body.links.self, `${TOKENS}?page[first]=10`);
    const only = await request(mas, "GET", `${TOKENS}?count=only`, { token });
    assert.deepEqual([only.body.meta, only.body.data], [{ count: 5 }, undefined]);
    const noCount = await request(mas, "GET", `${TOKENS}?count=false`, { token });
    assert.deepEqual([noCount.body.meta, noCount.body.data.length], [undefined, 5]);
    for (const query of ["page[first]=0", "page[first]=x", "page[after]=nope"]) {
      const bad = await request(mas, "GET", `${TOKENS}?${query}`, { token });
      assert.deepEqual([bad.status, bad.body.errors[0].title], [400, "Invalid pagination parameters"], query);
    }
    const both = await request(mas, "GET", `${TOKENS}?page[first]=1&page[last]=1`, { token });
    assert.deepEqual(both.body.errors, [{ title: "Cannot specify both `page[first]` and `page[last]` parameters" }]);
  });

  it("uses a token at sign-up only when MAS would take it, counting it once", async (t) => {
    const clock = new MasClock();
    const mas = await masSimulator(t, { now: clock.now, seed: { tokens: [{ token: "once", usageLimit: 1 }] } });
    assert.equal(mas.useToken(" once "), true, "trimmed, as MAS's token step does");
    assert.equal(mas.useToken("once"), false, "used up");
    assert.equal(mas.useToken("missing"), false);
    const [row] = mas.tokens();
    assert.deepEqual([row?.timesUsed, row?.lastUsedAt], [1, clock.time]);
    assert.equal(mas.users().length, 1);
  });

  it("its registration page pre-fills ?token= only in PR #5971 mode, and creates the account with the token", async (t) => {
    const released = await masSimulator(t, { seed: { tokens: [{ token: "abc" }] } });
    const plain = await request(released, "GET", "/register?token=abc");
    assert.equal(plain.status, 200);
    assert.doesNotMatch(plain.text, /value="abc"/);
    const invite = await masSimulator(t, { inviteLinks: true, seed: { tokens: [{ token: "abc", usageLimit: 1 }] } });
    const prefilled = await request(invite, "GET", "/register?token=abc");
    assert.match(prefilled.text, /name="token" value="abc"/);
    const adminCall = await request(invite, "GET", TOKENS, { token: await adminToken(invite) });
    assert.equal(adminCall.body.data[0].attributes.invite_url, `${invite.url}/register?token=abc`);
    const form = { "content-type": "application/x-www-form-urlencoded" };
    const created = await request(invite, "POST", "/register", {
      raw: new URLSearchParams({ username: "alice", password: "long enough", token: "abc" }).toString(),
      headers: form,
    });
    assert.equal(created.status, 201);
    const refused = await request(invite, "POST", "/register", {
      raw: new URLSearchParams({ username: "bob", password: "long enough", token: "abc" }).toString(),
      headers: form,
    });
    assert.equal(refused.status, 400);
    assert.match(refused.text, /Invalid registration token/);
    assert.deepEqual(
      invite.users().map((user) => user.username),
      ["alice"],
    );
  });

  it("answers like a stopped MAS behind a proxy while down", async (t) => {
    const mas = await masSimulator(t);
    mas.setDown("502");
    const reply = await request(mas, "POST", "/oauth2/token", { raw: "grant_type=client_credentials" });
    assert.equal(reply.status, 502);
    assert.match(reply.headers.get("content-type") ?? "", /text\/html/);
    mas.setDown(false);
    assert.equal((await request(mas, "GET", "/health")).status, 200);
  });
});
