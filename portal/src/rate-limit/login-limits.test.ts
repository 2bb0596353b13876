import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { HttpError } from "../../../lib/http-error.ts";
import { testStore } from "../../test/support/rate-limit-store.ts";
import { DistinctKeyLimiter } from "./distinct-key-limiter.ts";
import { FailureBackoff, lockSteps } from "./failure-backoff.ts";
import { LOGIN_LIMITS, LoginLimits } from "./login-limits.ts";
import type { RateLimitRepository } from "./rate-limit.repository.ts";

const MINUTE = 60_000;
/** The limits' key of a typed e-mail; the portal's is a keyed fingerprint (SecretBox.fingerprint). */
const plain = (typed: string) => `fp:${typed}`;

/** The wait of a refused admission in ms, or 0 when admitted (the attempt is then a failure). */
async function tryAdmit(limits: LoginLimits, account: string, ip: string, device?: string): Promise<number> {
  try {
    await limits.admit(account, ip, device);
    return 0;
  } catch (error) {
    assert.ok(error instanceof HttpError && error.status === 429, String(error));
    return Number(error.headers["Retry-After"]) * 1000;
  }
}

describe("login limits", () => {
  let store: RateLimitRepository;
  let close: () => Promise<void>;
  before(async () => ({ store, close } = await testStore()));
  after(() => close());

  it("locks an account after 5 failures in a row, doubling up to 15 minutes, and forgets after a day", async () => {
    let now = 0;
    const limits = new LoginLimits(store, () => now, plain);
    const waits: number[] = [];
    for (let i = 0; i < 5; i++) assert.equal(await tryAdmit(limits, "a@x", `10.0.0.${i}`), 0);
    for (let lock = 0; lock < 6; lock++) {
      const wait = await tryAdmit(limits, "a@x", "10.0.1.1");
      waits.push(wait);
      now += wait;
      assert.equal(await tryAdmit(limits, "a@x", "10.0.1.1"), 0, "admitted again once the lock is over");
    }
    assert.deepEqual(
      waits,
      [1, 2, 4, 8, 15, 15].map((minutes) => minutes * MINUTE),
    );
    now += 15 * MINUTE + 24 * 60 * MINUTE;
    for (let i = 0; i < 5; i++) assert.equal(await tryAdmit(limits, "a@x", "10.0.2.1"), 0, "a day later, 5 free failures again");
  });

  it("counts every admitted attempt before the password is checked, so parallel attempts cannot pass the limit", async () => {
    // Two instances on one database; six requests arriving together, none finished yet: one is refused.
    const instances = [new LoginLimits(store, () => 0, plain), new LoginLimits(store, () => 0, plain)];
    const admitted = await Promise.all(
      Array.from({ length: 6 }, async (_, i) => (await tryAdmit(instances[i % 2] as LoginLimits, "b@x", `10.1.0.${i}`)) === 0),
    );
    assert.equal(admitted.filter(Boolean).length, 5);
  });

  it("takes the advance count back on success: a success clears the account and the address", async () => {
    const limits = new LoginLimits(store, () => 0, plain);
    for (let i = 0; i < 4; i++) await limits.admit("c@x", "10.2.0.1", undefined);
    await (await limits.admit("c@x", "10.2.0.1", undefined)).succeeded();
    for (let i = 0; i < 4; i++) assert.equal(await tryAdmit(limits, "c@x", "10.2.0.1"), 0);
  });

  it("limits an address by the accounts it failed on, not by its attempts", async () => {
    const limits = new LoginLimits(store, () => 0, plain);
    for (let i = 0; i < 30; i++) await tryAdmit(limits, "flooded@x", "192.0.2.1"); // 5 failures, then refused: one account
    for (let i = 0; i < 9; i++) await limits.admit(`other-${i}@x`, "192.0.2.1", undefined);
    assert.equal(await tryAdmit(limits, "one-more@x", "192.0.2.1"), 15 * MINUTE, "the 11th account");
    assert.equal(await tryAdmit(limits, "other-3@x", "192.0.2.1"), 0, "an account it failed on already");
    assert.equal(await tryAdmit(limits, "one-more@x", "192.0.2.2"), 0, "another address");
  });

  it("lets a valid device cookie past the account's lock, under a limit of its own", async () => {
    let now = 0;
    const limits = new LoginLimits(store, () => now, plain);
    for (let i = 0; i < 5; i++) await limits.admit("d@x", `10.3.0.${i}`, undefined);
    assert.ok((await tryAdmit(limits, "d@x", "10.3.1.1")) > 0, "locked for browsers without the cookie");
    const trusted = await limits.admit("d@x", "10.3.1.1", "device-1");
    assert.equal(trusted.trusted, true);
    await trusted.succeeded();
    assert.ok((await tryAdmit(limits, "d@x", "10.3.1.1")) > 0, "a trusted success does not lift the lock for the others");

    for (let i = 0; i < 5; i++) assert.equal((await limits.admit("d@x", "10.3.1.1", "device-1")).trusted, true);
    assert.ok((await tryAdmit(limits, "d@x", "10.3.1.1", "device-1")) > 0, "a sixth failure: the device is untrusted");
    assert.equal((await limits.admit("d@x", "10.3.1.1", "device-2")).trusted, true, "another device is not affected");
    now += LOGIN_LIMITS.device.windowMs;
    assert.equal((await limits.admit("d@x", "10.3.1.1", "device-1")).trusted, true, "its window over, the device counts again");
  });
});

describe("limiter rows", () => {
  let store: RateLimitRepository;
  let close: () => Promise<void>;
  before(async () => ({ store, close } = await testStore()));
  after(() => close());

  it("steps the lock from the rule", () => {
    assert.deepEqual(lockSteps(LOGIN_LIMITS.account), {
      steps: [0, 0, 0, 0, MINUTE, 2 * MINUTE, 4 * MINUTE, 8 * MINUTE],
      last: 15 * MINUTE,
    });
  });

  it("forgets an account's failures a day after the last, but not while it is locked", async () => {
    let now = 0;
    const rule = { free: 2, firstLockMs: MINUTE, maxLockMs: MINUTE, forgetMs: 10 * MINUTE };
    const backoff = new FailureBackoff(rule, store, "forget", () => now);
    assert.equal(await backoff.failUnlessLocked("target"), 0);
    assert.equal(await backoff.failUnlessLocked("target"), 0);
    assert.equal(await backoff.wait("target"), MINUTE);
    assert.equal(await backoff.failUnlessLocked("target"), MINUTE, "refused while locked, and not counted");
    now += MINUTE;
    assert.equal(await backoff.failUnlessLocked("target"), 0, "the third failure in a row: locked again");
    assert.equal(await backoff.wait("target"), MINUTE);
    now += 11 * MINUTE;
    assert.equal(await backoff.failUnlessLocked("target"), 0, "forgotten: the first failure again");
    assert.equal(await backoff.wait("target"), 0);
  });

  it("forgets an address's members after the window", async () => {
    let now = 0;
    const limiter = new DistinctKeyLimiter({ limit: 2, windowMs: MINUTE }, store, "distinct", () => now);
    assert.deepEqual(await limiter.claim("ip", "a"), { wait: 0, added: true });
    assert.deepEqual(await limiter.claim("ip", "a"), { wait: 0, added: false });
    assert.deepEqual(await limiter.claim("ip", "b"), { wait: 0, added: true });
    assert.equal(await limiter.wait("ip", "c"), MINUTE);
    assert.equal(await limiter.wait("ip", "b"), 0, "a member counted already");
    now += MINUTE;
    assert.equal(await limiter.wait("ip", "c"), 0);
  });
});
