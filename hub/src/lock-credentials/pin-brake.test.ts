import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { PinBrake } from "./pin-brake.ts";

describe("PinBrake", () => {
  const clock = () => {
    let now = 1_000_000;
    return { now: () => now, advance: (ms: number) => (now += ms) };
  };

  test("the 5th wrong PIN within 5 minutes locks that lock out for 60 s, and only that lock", () => {
    const time = clock();
    const brake = new PinBrake({ now: time.now });
    for (let i = 0; i < 4; i++) assert.equal(brake.recordFailure("lock.a"), false);
    assert.equal(brake.lockedUntil("lock.a"), undefined);
    assert.equal(brake.recordFailure("lock.a"), true);
    assert.equal(brake.lockedUntil("lock.a"), time.now() + 60_000);
    assert.equal(brake.lockedUntil("lock.b"), undefined, "other locks are not affected");
    time.advance(59_999);
    assert.ok(brake.lockedUntil("lock.a"));
    time.advance(1);
    assert.equal(brake.lockedUntil("lock.a"), undefined);
    assert.equal(brake.recordFailure("lock.a"), false, "a fresh window after the lockout");
  });

  test("wrong PINs older than the window do not count; a right PIN clears the count", () => {
    const time = clock();
    const brake = new PinBrake({ now: time.now });
    for (let i = 0; i < 4; i++) brake.recordFailure("lock.a");
    time.advance(5 * 60_000 + 1);
    assert.equal(brake.recordFailure("lock.a"), false, "the first four fell out of the window");
    for (let i = 0; i < 3; i++) brake.recordFailure("lock.a");
    brake.recordSuccess("lock.a");
    assert.equal(brake.recordFailure("lock.a"), false);
  });

  test("reset lifts a lockout (the PIN was replaced or deleted)", () => {
    const brake = new PinBrake({ maxFailures: 2, lockoutMs: 10_000 });
    brake.recordFailure("lock.a");
    assert.equal(brake.recordFailure("lock.a"), true);
    brake.reset("lock.a");
    assert.equal(brake.lockedUntil("lock.a"), undefined);
  });
});
