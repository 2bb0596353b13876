import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { countBridges, overallStatus } from "./health-status.ts";

describe("health status", () => {
  it("counts a starting bridge as stopped (not yet serving)", () => {
    const list = [{ status: "running" }, { status: "starting" }, { status: "stopped" }, { status: "failed" }];
    assert.deepEqual(countBridges(list), { total: 4, running: 1, stopped: 2, failed: 1 });
  });

  it("is unhealthy when HA refused for good or every bridge failed, degraded when HA is away or a bridge failed", () => {
    const none = { total: 0, failed: 0 };
    assert.equal(overallStatus({ connected: true }, none), "healthy");
    assert.equal(overallStatus({ connected: false }, none), "degraded");
    assert.equal(overallStatus({ connected: true }, { total: 2, failed: 1 }), "degraded");
    assert.equal(overallStatus({ connected: true }, { total: 2, failed: 2 }), "unhealthy");
    assert.equal(overallStatus({ connected: false, fatal: "invalid token" }, none), "unhealthy");
  });
});
