import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { testStore } from "../../test/support/rate-limit-store.ts";
import type { RateLimitRepository } from "./rate-limit.repository.ts";
import { RATE_LIMITS, RateLimiter, tooManyRequests } from "./rate-limiter.ts";

describe("RateLimiter", () => {
  let store: RateLimitRepository;
  let close: () => Promise<void>;
  before(async () => ({ store, close } = await testStore()));
  after(() => close());

  it("allows `limit` actions per window per key, then reports the wait", async () => {
    let now = 1_000_000;
    const limiter = new RateLimiter({ limit: 3, windowMs: 60_000 }, store, "t1", () => now);
    assert.equal(await limiter.consume("a"), 0);
    now += 10_000;
    assert.equal(await limiter.consume("a"), 0);
    assert.equal(await limiter.consume("a"), 0);
    assert.equal(await limiter.consume("a"), 50_000);
    assert.equal(await limiter.consume("b"), 0, "keys are independent");
    now += 50_000;
    assert.equal(await limiter.consume("a"), 0, "the oldest action left the window");
    assert.equal(await limiter.consume("a"), 10_000);
  });

  it("does not count refused actions, and reset forgets a key", async () => {
    let now = 0;
    const limiter = new RateLimiter({ limit: 1, windowMs: 1000 }, store, "t2", () => now);
    assert.equal(await limiter.consume("k"), 0);
    for (let i = 0; i < 5; i++) assert.ok((await limiter.consume("k")) > 0);
    now += 1000;
    assert.equal(await limiter.consume("k"), 0);
    await limiter.reset("k");
    assert.equal(await limiter.retryAfter("k"), 0);
  });

  it("counts the actions of every instance on the database together, exactly, however they race", async () => {
    const now = () => 5_000;
    const instances = [1, 2, 3].map(() => new RateLimiter({ limit: 4, windowMs: 60_000 }, store, "t3", now));
    const waits = await Promise.all(Array.from({ length: 12 }, (_, i) => instances[i % 3]?.consume("shared") ?? 0));
    assert.equal(waits.filter((wait) => wait === 0).length, 4);
    assert.equal(await new RateLimiter({ limit: 4, windowMs: 60_000 }, store, "t3-other", now).consume("shared"), 0);
  });

  it("builds a 429 with Retry-After in whole seconds", () => {
    const error = tooManyRequests(1500, "wait {wait}", "M_LIMIT_EXCEEDED");
    assert.equal(error.status, 429);
    assert.equal(error.code, "M_LIMIT_EXCEEDED");
    assert.equal(error.headers["Retry-After"], "2");
    assert.equal(error.message, "wait 2 seconds");
    assert.equal(tooManyRequests(14 * 60_000, "{wait}").message, "14 minutes");
  });

  it("keeps the spec's registration default", () => {
    assert.deepEqual(RATE_LIMITS.registration, { limit: 15, windowMs: 15 * 60_000 });
  });
});
