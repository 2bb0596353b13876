import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { until } from "../../lib/testing/polling.ts";
import type { HomeserverSimulator } from "../../simulators/homeserver/index.ts";
import { LIST_KEEP_MS } from "../src/tokens/tokens.service.ts";
import type { PortalClient, Reply } from "./support/portal-client.ts";
import { nextIp, startPortalWithHomeserver, stopPortalWithHomeserver, type TestPortal } from "./support/portal-harness.ts";

const LIST_PATH = "/_synapse/admin/v1/registration_tokens";
const isList = (request: { method: string; path: string }) => request.method === "GET" && request.path === LIST_PATH;

const names = (reply: Reply) => (reply.body.tokens as { token: string }[]).map((token) => token.token);

describe("token lists under concurrent requests", () => {
  let portal: TestPortal;
  let hs: HomeserverSimulator;
  let admin: PortalClient;
  let path: (suffix?: string) => string;
  const listCalls = () => hs.requests().filter(isList).length;

  before(async () => {
    const started = await startPortalWithHomeserver({ homeserver: { serverName: "concurrency.test" } });
    ({ portal, hs, admin } = started);
    path = (suffix = "") => `/api/admin/tokens${suffix}?serverId=${started.serverId}`;
    for (let i = 0; i < 20; i++) assert.equal((await admin.post(path(), { token: `seed-${i}`, label: `Seed ${i}` })).status, 201);
  });
  after(() => stopPortalWithHomeserver(portal, hs));

  it("answers 50 concurrent list requests from one homeserver call", async () => {
    // The homeserver answers slowly: every request of the burst arrives while the first call is out.
    const slow = hs.holdResponses(isList);
    const before = listCalls();
    const replies = Array.from({ length: 50 }, () => admin.get(path()));
    try {
      await until("the first list call reached the homeserver", () => slow.held() >= 1);
      await sleep(300);
    } finally {
      slow.release();
    }
    const answered = await Promise.all(replies);
    assert.ok(
      answered.every((reply) => reply.status === 200),
      answered.map((reply) => reply.status).join(),
    );
    const expected = answered[0]?.body;
    assert.equal(expected.tokens.length, 20);
    for (const reply of answered) assert.deepEqual(reply.body, expected);
    assert.equal(listCalls() - before, 1, "one list call for the whole burst");

    // The answer is kept for a second (LIST_KEEP_MS): a request right after is answered from it; one after that
    // second asks the homeserver again.
    assert.deepEqual((await admin.get(path())).body, expected);
    assert.equal(listCalls() - before, 1, "answered from the kept list");
    await sleep(LIST_KEEP_MS + 50);
    assert.equal((await admin.get(path())).status, 200);
    assert.equal(listCalls() - before, 2, "a list older than a second is not used");
  });

  it("never answers a list asked for after a token write with a call from before it", async () => {
    await sleep(LIST_KEEP_MS + 50); // the list of the test before ages out: the early list below makes a call
    const slow = hs.holdResponses(isList);
    try {
      const early = admin.get(path());
      await until("the early list call reached the homeserver", () => slow.held() >= 1);
      // The homeserver already answered the early call (without this token); the answer is on its way.
      assert.equal((await admin.post(path(), { token: "written-meanwhile", label: "New" })).status, 201);
      const late = admin.get(path());
      await until("the list asked for after the write made its own call", () => slow.held() >= 2, 5_000);
      slow.release();
      assert.ok(!names(await early).includes("written-meanwhile"), "the early call was answered before the write");
      const lateList = await late;
      assert.ok(names(lateList).includes("written-meanwhile"));
      assert.equal(lateList.body.tokens.find((t: { token: string }) => t.token === "written-meanwhile").label, "New");
    } finally {
      slow.release();
    }
  });

  it("lists every write at once while lists keep coming (create, update, disable, delete)", async () => {
    let stop = false;
    const background = Array.from({ length: 8 }, async () => {
      while (!stop) assert.equal((await admin.get(path())).status, 200);
    });
    try {
      for (let i = 0; i < 15; i++) {
        const token = `busy-${i}`;
        assert.equal((await admin.post(path(), { token, uses_allowed: 5 })).status, 201);
        const find = async () => (await admin.get(path())).body.tokens.find((t: { token: string }) => t.token === token);
        assert.equal((await find())?.uses_allowed, 5, `${token} listed right after its creation`);
        assert.equal((await admin.put(path(`/${token}`), { uses_allowed: 7, label: "seven" })).status, 200);
        assert.deepEqual(await find().then((t) => [t?.uses_allowed, t?.label]), [7, "seven"]);
        assert.equal((await admin.patch(path(`/${token}`))).status, 200);
        assert.equal((await find())?.disabled, true);
        assert.equal((await admin.delete(path(`/${token}`))).status, 200);
        assert.equal(await find(), undefined, `${token} gone right after its deletion`);
      }
    } finally {
      stop = true;
      await Promise.all(background);
    }
  });

  it("shows a sign-up through the portal at once, and a change made on the homeserver directly within a second", async () => {
    const token = "kept-list";
    assert.equal((await admin.post(path(), { token, uses_allowed: 3 })).status, 201);
    const find = async () => (await admin.get(path())).body.tokens.find((t: { token: string }) => t.token === token);
    assert.equal((await find())?.completed, 0, "the list is now kept for a second");

    const password = "correct horse battery";
    const signUp = await portal
      .client({ ip: nextIp() })
      .post("/api/register", { username: "kept-list-user", password, confirmPassword: password, token });
    assert.equal(signUp.status, 200, signUp.text);
    assert.equal((await find())?.completed, 1, "the sign-up's use is listed right away");

    // An administrator changes the token on Synapse itself: the portal cannot know, the kept list ages out.
    const changed = await fetch(`${hs.url}${LIST_PATH}/${token}`, {
      method: "PUT",
      headers: { authorization: `Bearer ${hs.adminToken}`, "content-type": "application/json" },
      body: JSON.stringify({ uses_allowed: 9 }),
    });
    assert.equal(changed.status, 200);
    const changedAt = Date.now();
    let seen: number | undefined;
    while (seen !== 9 && Date.now() - changedAt < LIST_KEEP_MS + 1_000) {
      seen = (await find())?.uses_allowed;
      if (seen !== 9) await sleep(50);
    }
    assert.equal(seen, 9, "listed within a second (plus one list call)");
  });
});
