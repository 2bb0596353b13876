import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { dailyQuota, dailyRequests, pollPlan } from "./poll-quota.ts";

describe("appliance cloud: poll interval and the daily request quota", () => {
  it("allows 3200 requests a day plus 1500 per device on the account", () => {
    assert.equal(dailyQuota(0), 3200);
    assert.equal(dailyQuota(1), 4700);
    assert.equal(dailyQuota(5), 10_700);
    // One poll: the device list plus one status per switched-on device.
    assert.equal(dailyRequests(60, 2), 1440 * 3);
  });

  it("keeps the configured interval (default 60, clamped to 30…3600) while a day of polling fits", () => {
    assert.deepEqual(pollPlan(undefined, 0, 0), { interval: 60, configured: 60, minimum: 27, raised: false, quota: 3200 });
    assert.equal(pollPlan("often", 3, 1).interval, 60);
    assert.equal(pollPlan(10, 0, 0).interval, 30, "never below 30 s");
    assert.equal(pollPlan(99_999, 0, 0).interval, 3600, "never above 3600 s");
    assert.equal(pollPlan(45.4, 1, 1).interval, 45);
  });

  it("raises the interval to the smallest one whose day of polling fits the quota", () => {
    // 5 devices, all switched on: 6 requests a poll against 10 700 a day → ceil(86 400 × 6 / 10 700) = 49 s.
    const plan = pollPlan(30, 5, 5);
    assert.deepEqual(plan, { interval: 49, configured: 30, minimum: 49, raised: true, quota: 10_700 });
    assert.ok(dailyRequests(plan.interval, 5) <= plan.quota);
    assert.ok(dailyRequests(plan.interval - 1, 5) > plan.quota, "one second less would exceed it");
    // One device switched on: ceil(86 400 × 2 / 4 700) = 37 s.
    assert.equal(pollPlan(30, 1, 1).interval, 37);
    assert.equal(pollPlan(40, 1, 1).raised, false);
    // Devices on the account that stay switched off raise the quota without costing requests.
    assert.equal(pollPlan(30, 20, 1).interval, 30);
  });
});
