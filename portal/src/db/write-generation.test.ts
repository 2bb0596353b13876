import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { KeptRows, WriteGeneration } from "./write-generation.ts";

/** A read the test answers by hand. */
function pendingRead() {
  let answer: (value: string) => void = () => {};
  const promise = new Promise<string>((resolve) => {
    answer = resolve;
  });
  return { read: () => promise, answer };
}

describe("kept rows", () => {
  it("keeps what a read found until the next write, and nothing a read found while a write ran", async () => {
    const writes = new WriteGeneration();
    const rows = new KeptRows<string>(writes);
    assert.equal(await rows.read("a", async () => "first"), "first");
    assert.equal(rows.get("a"), "first");
    await writes.around(async () => {});
    assert.equal(rows.get("a"), undefined, "a write empties them");

    // A read that began before a write and ends after it started.
    const overlapping = pendingRead();
    const read = rows.read("a", overlapping.read);
    let finishWrite: () => void = () => {};
    const write = writes.around(() => new Promise<void>((resolve) => (finishWrite = resolve)));
    overlapping.answer("read before the write landed");
    assert.equal(await read, "read before the write landed", "the caller still gets what was read");
    assert.equal(rows.get("a"), undefined, "but it is not kept");
    finishWrite();
    await write;

    // A read that began during a write and ended before it: not kept either.
    const during = pendingRead();
    let endWrite: () => void = () => {};
    const write2 = writes.around(() => new Promise<void>((resolve) => (endWrite = resolve)));
    const read2 = rows.read("b", during.read);
    during.answer("read during the write");
    await read2;
    endWrite();
    await write2;
    assert.equal(rows.get("b"), undefined);
  });

  it("starts afresh past its bound, and keeps nothing for a missing row", async () => {
    const rows = new KeptRows<string>(new WriteGeneration(), 2);
    await rows.read("a", async () => "A");
    await rows.read("b", async () => "B");
    await rows.read("c", async () => "C");
    assert.deepEqual([rows.get("a"), rows.get("b"), rows.get("c")], [undefined, undefined, "C"]);
    assert.equal(await rows.read("gone", async () => undefined), undefined);
    assert.equal(rows.get("gone"), undefined);
  });
});
