import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { LOGIN_POLICY, LoginBrake } from "./login-brake.ts";

describe("login brake", () => {
  it("lets 5 wrong passwords through, then refuses for 1 s, 2 s, 4 s… up to 5 min, per client", () => {
    let now = 0;
    const brake = new LoginBrake({ now: () => now });
    for (let i = 1; i < LOGIN_POLICY.freeFailures; i++) assert.equal(brake.recordFailure("10.0.0.9"), undefined);
    assert.equal(brake.retryAfterMs("10.0.0.9"), undefined);
    assert.equal(brake.recordFailure("10.0.0.9"), 1000);
    assert.equal(brake.retryAfterMs("10.0.0.9"), 1000);
    assert.equal(brake.retryAfterMs("10.0.0.10"), undefined, "another client is not slowed down");
    now += 1000;
    assert.equal(brake.retryAfterMs("10.0.0.9"), undefined);
    assert.equal(brake.recordFailure("10.0.0.9"), 2000);
    now += 2000;
    assert.equal(brake.recordFailure("10.0.0.9"), 4000);
    for (let i = 0; i < 20; i++) brake.recordFailure("10.0.0.9");
    assert.equal(brake.retryAfterMs("10.0.0.9"), LOGIN_POLICY.maxDelayMs);
  });

  it("forgets a client's failures after an hour without a new one", () => {
    let now = 0;
    const brake = new LoginBrake({ now: () => now });
    for (let i = 0; i < 10; i++) brake.recordFailure("b");
    now += LOGIN_POLICY.forgetAfterMs + 1;
    assert.equal(brake.retryAfterMs("b"), undefined);
    assert.equal(brake.recordFailure("b"), undefined);
  });

  it("remembers a bounded number of clients, forgetting the longest quiet first", () => {
    const brake = new LoginBrake({ policy: { maxClients: 2, freeFailures: 1 } });
    brake.recordFailure("a");
    brake.recordFailure("b");
    brake.recordFailure("a");
    brake.recordFailure("c");
    assert.equal(brake.retryAfterMs("b"), undefined, "b was the longest quiet");
    assert.ok(brake.retryAfterMs("a"));
    assert.ok(brake.retryAfterMs("c"));
  });
});
