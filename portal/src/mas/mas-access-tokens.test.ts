import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type CachedAccessToken, MasAccessTokens, refreshAt } from "./mas-access-tokens.ts";

function grants() {
  const pending: ((token: CachedAccessToken) => void)[] = [];
  let issued = 0;
  return {
    count: () => issued,
    grant: () =>
      new Promise<CachedAccessToken>((resolve) => {
        issued++;
        pending.push(resolve);
      }),
    finish(index: number, token: string, at: number) {
      pending[index]?.({ token, refreshAt: at, method: "client_secret_basic" });
    },
  };
}

describe("MAS access tokens", () => {
  it("are replaced once four fifths of their life have passed (60 s early for MAS's 300 s)", () => {
    assert.equal(refreshAt(1_000, 300), 1_000 + 240_000);
    assert.equal(refreshAt(0, 60), 48_000);
    assert.equal(refreshAt(0, undefined), 48_000, "no expires_in: kept 60 s at most, minus a fifth");
  });

  it("share one grant among concurrent callers, reuse the token until it is due, then grant once more", async () => {
    let clock = 0;
    const cache = new MasAccessTokens(() => clock);
    const g = grants();
    const a = cache.get("s1", "v", g.grant);
    const b = cache.get("s1", "v", g.grant);
    assert.equal(g.count(), 1);
    g.finish(0, "t1", 240_000);
    assert.deepEqual([(await a).token, (await b).token], ["t1", "t1"]);
    clock = 239_999;
    assert.equal((await cache.get("s1", "v", g.grant)).token, "t1");
    assert.equal(g.count(), 1);
    clock = 240_000;
    const due = cache.get("s1", "v", g.grant);
    assert.equal(g.count(), 2);
    g.finish(1, "t2", 480_000);
    assert.equal((await due).token, "t2");
  });

  it("never answers a token granted for other MAS settings, and grants anew after MAS refused one", async () => {
    const cache = new MasAccessTokens(() => 0);
    const g = grants();
    const first = cache.get("s1", "old secret", g.grant);
    g.finish(0, "t-old", 1_000);
    await first;
    const changed = cache.get("s1", "new secret", g.grant);
    assert.equal(g.count(), 2);
    g.finish(1, "t-new", 1_000);
    assert.equal((await changed).token, "t-new");
    cache.drop("s1", "t-old");
    assert.equal(
      (await cache.get("s1", "new secret", g.grant)).token,
      "t-new",
      "dropping a token no longer cached changes nothing",
    );
    cache.drop("s1", "t-new");
    const regranted = cache.get("s1", "new secret", g.grant);
    assert.equal(g.count(), 3);
    g.finish(2, "t-3", 1_000);
    assert.equal((await regranted).token, "t-3");
  });

  it("lets a failed grant fail every waiting caller, and the next caller try again", async () => {
    const cache = new MasAccessTokens(() => 0);
    let calls = 0;
    const failing = async (): Promise<CachedAccessToken> => {
      calls++;
      throw new Error("MAS down");
    };
    await Promise.all([
      assert.rejects(cache.get("s1", "v", failing), /MAS down/),
      assert.rejects(cache.get("s1", "v", failing), /MAS down/),
    ]);
    assert.equal(calls, 1);
    await assert.rejects(cache.get("s1", "v", failing));
    assert.equal(calls, 2);
  });
});
