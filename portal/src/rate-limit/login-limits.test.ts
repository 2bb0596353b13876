import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { HttpError } from "../../../lib/http-error.ts";
import { DistinctKeyLimiter } from "./distinct-key-limiter.ts";
import { FailureBackoff } from "./failure-backoff.ts";
import { LOGIN_LIMITS, LoginLimits } from "./login-limits.ts";

const MINUTE = 60_000;

/** The wait of a refused admission in ms, or 0 when admitted (the attempt is then a failure). */
function tryAdmit(limits: LoginLimits, account: string, ip: string, device?: string): number {
  try {
    limits.admit(account, ip, device);
    return 0;
  } catch (error) {
    assert.ok(error instanceof HttpError && error.status === 429, String(error));
    return Number(error.headers["Retry-After"]) * 1000;
  }
}

describe("login limits", () => {
  it("locks an account after 5 failures in a row, doubling up to 15 minutes, and forgets after a day", () => {
    let now = 0;
    const limits = new LoginLimits(() => now);
    const waits: number[] = [];
    for (let i = 0; i < 5; i++) assert.equal(tryAdmit(limits, "a@x", `10.0.0.${i}`), 0);
    for (let lock = 0; lock < 6; lock++) {
      const wait = tryAdmit(limits, "a@x", "10.0.1.1");
      waits.push(wait);
      now += wait;
      assert.equal(tryAdmit(limits, "a@x", "10.0.1.1"), 0, "admitted again once the lock is over");
    }
    assert.deepEqual(
      waits,
      [1, 2, 4, 8, 15, 15].map((minutes) => minutes * MINUTE),
    );
    now += 15 * MINUTE + 24 * 60 * MINUTE;
    for (let i = 0; i < 5; i++) assert.equal(tryAdmit(limits, "a@x", "10.0.2.1"), 0, "a day later, 5 free failures again");
  });

  it("counts every admitted attempt before the password is checked, so parallel attempts cannot pass the limit", () => {
    const limits = new LoginLimits(() => 0);
    // Six requests arriving together, none finished yet: the sixth is already refused.
    const admitted = Array.from({ length: 6 }, (_, i) => tryAdmit(limits, "b@x", `10.1.0.${i}`) === 0);
    assert.deepEqual(admitted, [true, true, true, true, true, false]);
  });

  it("takes the advance count back on success: a success clears the account and the address", () => {
    const limits = new LoginLimits(() => 0);
    for (let i = 0; i < 4; i++) limits.admit("c@x", "10.2.0.1", undefined);
    limits.admit("c@x", "10.2.0.1", undefined).succeeded();
    for (let i = 0; i < 4; i++) assert.equal(tryAdmit(limits, "c@x", "10.2.0.1"), 0);
  });

  it("limits an address by the accounts it failed on, not by its attempts", () => {
    const limits = new LoginLimits(() => 0);
    for (let i = 0; i < 30; i++) tryAdmit(limits, "flooded@x", "192.0.2.1"); // 5 failures, then refused: one account
    for (let i = 0; i < 9; i++) limits.admit(`other-${i}@x`, "192.0.2.1", undefined);
    assert.equal(tryAdmit(limits, "one-more@x", "192.0.2.1"), 15 * MINUTE, "the 11th account");
    assert.equal(tryAdmit(limits, "other-3@x", "192.0.2.1"), 0, "an account it failed on already");
    assert.equal(tryAdmit(limits, "one-more@x", "192.0.2.2"), 0, "another address");
  });

  it("lets a valid device cookie past the account's lock, under a limit of its own", () => {
    let now = 0;
    const limits = new LoginLimits(() => now);
    for (let i = 0; i < 5; i++) limits.admit("d@x", `10.3.0.${i}`, undefined);
    assert.ok(tryAdmit(limits, "d@x", "10.3.1.1") > 0, "locked for browsers without the cookie");
    const trusted = limits.admit("d@x", "10.3.1.1", "device-1");
    assert.equal(trusted.trusted, true);
    trusted.succeeded();
    assert.ok(tryAdmit(limits, "d@x", "10.3.1.1") > 0, "a trusted success does not lift the lock for the others");

    for (let i = 0; i < 5; i++) assert.equal(limits.admit("d@x", "10.3.1.1", "device-1").trusted, true);
    assert.ok(tryAdmit(limits, "d@x", "10.3.1.1", "device-1") > 0, "a sixth failure: the device is treated as untrusted");
    assert.equal(limits.admit("d@x", "10.3.1.1", "device-2").trusted, true, "another device is not affected");
    now += LOGIN_LIMITS.device.windowMs;
    assert.equal(limits.admit("d@x", "10.3.1.1", "device-1").trusted, true, "its window over, the device counts again");
  });
});

describe("limiter memory", () => {
  it("keeps at most maxKeys accounts, dropping unlocked ones before a locked one", () => {
    const now = 0;
    const backoff = new FailureBackoff(
      { free: 2, firstLockMs: MINUTE, maxLockMs: MINUTE, forgetMs: MINUTE, maxKeys: 3 },
      () => now,
    );
    backoff.fail("target");
    backoff.fail("target");
    assert.equal(backoff.wait("target"), MINUTE);
    for (let i = 0; i < 100; i++) backoff.fail(`made-up-${i}`);
    assert.equal(backoff.size, 3);
    assert.equal(backoff.wait("target"), MINUTE, "the locked account kept its lock");
  });

  it("keeps at most maxGroups addresses and forgets members after the window", () => {
    let now = 0;
    const limiter = new DistinctKeyLimiter({ limit: 2, windowMs: MINUTE, maxGroups: 5 }, () => now);
    for (let i = 0; i < 50; i++) limiter.add(`ip-${i}`, "account");
    assert.equal(limiter.size, 5);
    limiter.add("ip", "a");
    limiter.add("ip", "b");
    assert.equal(limiter.wait("ip", "c"), MINUTE);
    now += MINUTE;
    assert.equal(limiter.wait("ip", "c"), 0);
  });
});
