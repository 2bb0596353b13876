import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { until } from "./polling.ts";

describe("until", () => {
  it("awaits an asynchronous check: a promise of false is not an answer", async () => {
    let calls = 0;
    const value = await until("the third call", async () => (++calls >= 3 ? "ready" : false), 1000, 1);
    assert.equal(value, "ready");
    assert.equal(calls, 3);
  });

  it("times out, naming what it waited for, when an asynchronous check never holds", async () => {
    await assert.rejects(
      until("nothing", async () => false, 30, 5),
      /timed out after 30 ms waiting for nothing/,
    );
  });

  it("returns a synchronous check's first truthy value", async () => {
    let calls = 0;
    assert.equal(await until("two calls", () => (++calls === 2 ? 42 : 0), 1000, 1), 42);
  });
});
