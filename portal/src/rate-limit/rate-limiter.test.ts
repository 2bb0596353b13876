import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { RATE_LIMITS, RateLimiter, tooManyRequests } from "./rate-limiter.ts";

describe("RateLimiter", () => {
  it("allows `limit` actions per window per key, then reports the wait", () => {
    let now = 1_000_000;
    const limiter = new RateLimiter({ limit: 3, windowMs: 60_000 }, () => now);
    assert.equal(limiter.consume("a"), 0);
    now += 10_000;
    assert.equal(limiter.consume("a"), 0);
    assert.equal(limiter.consume("a"), 0);
    assert.equal(limiter.consume("a"), 50_000);
    assert.equal(limiter.consume("b"), 0, "keys are independent");
    now += 50_000;
    assert.equal(limiter.consume("a"), 0, "the oldest action left the window");
    assert.equal(limiter.consume("a"), 10_000);
  });

  it("does not count refused actions, and reset forgets a key", () => {
    let now = 0;
    const limiter = new RateLimiter({ limit: 1, windowMs: 1000 }, () => now);
    assert.equal(limiter.consume("k"), 0);
    for (let i = 0; i < 5; i++) assert.ok(limiter.consume("k") > 0);
    now += 1000;
    assert.equal(limiter.consume("k"), 0);
    limiter.reset("k");
    assert.equal(limiter.retryAfter("k"), 0);
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
