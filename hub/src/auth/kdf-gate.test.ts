import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { HttpError } from "../../../lib/http-error.ts";
import { KdfGate } from "./kdf-gate.ts";

describe("KDF gate", () => {
  const deferred = () => {
    let resolve!: (value: boolean) => void;
    const promise = new Promise<boolean>((r) => {
      resolve = r;
    });
    return { promise, resolve };
  };

  it("runs one verification at a time per client, at most maxConcurrent overall, and others' turns in between", async () => {
    const gate = new KdfGate({ maxConcurrent: 1, maxQueuedPerClient: 10 });
    const order: string[] = [];
    const jobs = new Map<string, ReturnType<typeof deferred>>();
    const job = (client: string, name: string) =>
      gate.run(client, () => {
        order.push(name);
        const d = deferred();
        jobs.set(name, d);
        return d.promise;
      });
    const results = [job("flood", "f1"), job("flood", "f2"), job("flood", "f3"), job("user", "u1")];
    const settle = () => new Promise((resolve) => setImmediate(resolve));
    await settle();
    assert.deepEqual(order, ["f1"]);
    jobs.get("f1")!.resolve(false);
    await settle();
    // The user's verification waited for one flood verification, not for the flood's whole queue.
    assert.deepEqual(order, ["f1", "u1"]);
    jobs.get("u1")!.resolve(true);
    await settle();
    assert.deepEqual(order, ["f1", "u1", "f2"]);
    jobs.get("f2")!.resolve(false);
    await settle();
    jobs.get("f3")!.resolve(false);
    assert.deepEqual(await Promise.all(results), [false, false, false, true]);
  });

  it("refuses with 429 once a client has maxQueuedPerClient waiting behind its running one", async () => {
    const gate = new KdfGate({ maxConcurrent: 2, maxQueuedPerClient: 2 });
    const d = deferred();
    const pending = [1, 2, 3].map(() => gate.run("flood", () => d.promise));
    await assert.rejects(
      gate.run("flood", async () => true),
      (error: unknown) => {
        return error instanceof HttpError && error.status === 429 && error.headers["Retry-After"] === "1";
      },
    );
    assert.equal(await gate.run("user", async () => true), true, "another client still gets a slot");
    d.resolve(false);
    await Promise.all(pending);
    assert.equal(await gate.run("flood", async () => true), true, "the lane emptied");
  });
});
