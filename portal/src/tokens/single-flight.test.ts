import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { SingleFlight } from "./single-flight.ts";

/** A load that the test finishes by hand, counting how often it was started. */
function manualLoads() {
  const pending: { resolve(value: string): void; reject(error: Error): void }[] = [];
  return {
    started: () => pending.length,
    load: () => new Promise<string>((resolve, reject) => pending.push({ resolve, reject })),
    finish: (index: number, value: string) => pending[index]?.resolve(value),
    fail: (index: number, error: Error) => pending[index]?.reject(error),
  };
}

describe("single flight", () => {
  it("shares the load in flight per key and version, and keeps nothing once it settles", async () => {
    const flights = new SingleFlight<string>();
    const loads = manualLoads();
    const a = flights.run("s1", "v1", loads.load);
    const b = flights.run("s1", "v1", loads.load);
    const other = flights.run("s2", "v1", loads.load);
    assert.equal(loads.started(), 2, "one load per key");
    loads.finish(0, "first");
    loads.finish(1, "other");
    assert.deepEqual(await Promise.all([a, b, other]), ["first", "first", "other"]);
    assert.equal(flights.size, 0);
    const later = flights.run("s1", "v1", loads.load);
    assert.equal(loads.started(), 3, "a caller after the load settled starts a new one");
    loads.finish(2, "second");
    assert.equal(await later, "second");
  });

  it("starts anew for another version of the same key (a server whose URL or token changed)", async () => {
    const flights = new SingleFlight<string>();
    const loads = manualLoads();
    const old = flights.run("s1", "url-a", loads.load);
    const changed = flights.run("s1", "url-b", loads.load);
    assert.equal(loads.started(), 2);
    loads.finish(1, "from b");
    loads.finish(0, "from a");
    assert.deepEqual(await Promise.all([old, changed]), ["from a", "from b"]);
    assert.equal(flights.size, 0, "the older load settling last leaves no entry behind");
  });

  it("after end(), new callers start a new load while earlier callers keep theirs", async () => {
    const flights = new SingleFlight<string>();
    const loads = manualLoads();
    const before = flights.run("s1", "v", loads.load);
    flights.end("s1");
    const after = flights.run("s1", "v", loads.load);
    const alsoAfter = flights.run("s1", "v", loads.load);
    assert.equal(loads.started(), 2);
    loads.finish(0, "before the write");
    // The earlier load settling must not remove the newer one.
    assert.equal(await before, "before the write");
    assert.equal(flights.size, 1);
    loads.finish(1, "after the write");
    assert.deepEqual(await Promise.all([after, alsoAfter]), ["after the write", "after the write"]);
  });

  it("fails every caller of a failed load; the next caller tries again", async () => {
    const flights = new SingleFlight<string>();
    const loads = manualLoads();
    const a = flights.run("s1", "v", loads.load);
    const b = flights.run("s1", "v", loads.load);
    loads.fail(0, new Error("homeserver down"));
    await assert.rejects(a, /homeserver down/);
    await assert.rejects(b, /homeserver down/);
    const retry = flights.run("s1", "v", loads.load);
    assert.equal(loads.started(), 2);
    loads.finish(1, "back");
    assert.equal(await retry, "back");
  });

  it("with keepMs, answers from a successful load until it is keepMs old or ended; never keeps a failure", async () => {
    let clock = 1_000;
    const flights = new SingleFlight<string>({ keepMs: 1_000, now: () => clock });
    const loads = manualLoads();
    const first = flights.run("s1", "v", loads.load);
    loads.finish(0, "first");
    assert.equal(await first, "first");
    clock += 999;
    assert.equal(await flights.run("s1", "v", loads.load), "first", "still fresh");
    assert.equal(loads.started(), 1);
    assert.equal(flights.run("s1", "other server url", loads.load) !== first, true, "another version loads anew");
    assert.equal(loads.started(), 2);
    loads.finish(1, "second");
    flights.end("s1");
    const afterWrite = flights.run("s1", "v", loads.load);
    assert.equal(loads.started(), 3, "a write ends the kept answer");
    loads.finish(2, "third");
    assert.equal(await afterWrite, "third");
    clock += 1_000;
    const stale = flights.run("s1", "v", loads.load);
    assert.equal(loads.started(), 4, "a kept answer keepMs old is not used");
    loads.fail(3, new Error("down"));
    await assert.rejects(stale, /down/);
    const retry = flights.run("s1", "v", loads.load);
    assert.equal(loads.started(), 5, "a failure is not kept");
    loads.finish(4, "back");
    assert.equal(await retry, "back");
  });

  it("with refreshAfterMs, a caller served from an older kept load starts its replacement; writes discard it", async () => {
    let clock = 0;
    const flights = new SingleFlight<string>({ keepMs: 1_000, refreshAfterMs: 500, now: () => clock });
    const loads = manualLoads();
    const first = flights.run("s1", "v", loads.load);
    loads.finish(0, "first");
    await first;
    clock = 499;
    assert.equal(await flights.run("s1", "v", loads.load), "first");
    assert.equal(loads.started(), 1, "young enough: no refresh");
    clock = 600;
    assert.equal(await flights.run("s1", "v", loads.load), "first", "served at once from the kept load");
    assert.equal(loads.started(), 2, "and its replacement started");
    assert.equal(await flights.run("s1", "v", loads.load), "first");
    assert.equal(loads.started(), 2, "one refresh at a time");
    loads.finish(1, "refreshed");
    await new Promise((resolve) => setImmediate(resolve));
    clock = 1_050; // the first load is too old now; the refreshed one (settled at 600) is young
    assert.equal(await flights.run("s1", "v", loads.load), "refreshed");
    assert.equal(loads.started(), 2);

    clock = 1_150;
    assert.equal(await flights.run("s1", "v", loads.load), "refreshed", "a refresh starts…");
    assert.equal(loads.started(), 3);
    flights.end("s1"); // …and a write lands before it answers
    loads.finish(2, "from before the write");
    await new Promise((resolve) => setImmediate(resolve));
    const afterWrite = flights.run("s1", "v", loads.load);
    assert.equal(loads.started(), 4, "the refresh from before the write is not used");
    loads.finish(3, "after the write");
    assert.equal(await afterWrite, "after the write");

    clock = 1_700;
    assert.equal(await flights.run("s1", "v", loads.load), "after the write");
    loads.fail(4, new Error("down"));
    await new Promise((resolve) => setImmediate(resolve));
    clock = 1_750;
    assert.equal(await flights.run("s1", "v", loads.load), "after the write", "a failed refresh changes nothing");
    assert.equal(loads.started(), 6, "and the next caller tries again");
  });
});
