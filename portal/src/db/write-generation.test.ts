import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Kysely, KyselyPlugin } from "kysely";
import { openTestDatabase } from "../../test/support/test-database.ts";
import type { Database } from "./schema.ts";
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
  let db: Kysely<Database>;
  before(async () => {
    db = await openTestDatabase();
  });
  after(() => db.destroy());

  it("keeps what a read found until the next write made through any instance", async () => {
    // Two portal instances: each its own count object and kept rows, one database.
    const writesA = new WriteGeneration(db, "test-a");
    const writesB = new WriteGeneration(db, "test-a");
    const rowsB = new KeptRows<string>(writesB);
    assert.equal(await rowsB.get("a", async () => "first"), "first");
    assert.equal(await rowsB.get("a", async () => "read again"), "first", "kept");
    await writesA.around(async () => {});
    assert.equal(await rowsB.get("a", async () => "after A wrote"), "after A wrote", "A's write empties B's rows");
  });

  it("never keeps what a read found while a write was committing", async () => {
    const writes = new WriteGeneration(db, "test-b");
    const rows = new KeptRows<string>(writes);
    // The read starts (count read), then a write commits, then the read's rows arrive.
    const overlapping = pendingRead();
    const read = rows.get("a", overlapping.read);
    await new Promise((resolve) => setImmediate(resolve));
    await writes.around(async () => {});
    overlapping.answer("read while the write landed");
    assert.equal(await read, "read while the write landed", "the caller still gets what was read");
    assert.equal(await rows.get("a", async () => "fresh"), "fresh", "but it was not used again");
  });

  it("moves the count only when the write's transaction commits", async () => {
    const writes = new WriteGeneration(db, "test-c");
    const before = await writes.current();
    await assert.rejects(
      writes.around(async () => {
        throw new Error("the write failed");
      }),
    );
    assert.equal(await writes.current(), before, "rolled back with the write");
    await writes.around(async () => {});
    assert.equal(await writes.current(), before + 1);
  });

  it("starts afresh past its bound, and keeps nothing for a missing row", async () => {
    const rows = new KeptRows<string>(new WriteGeneration(db, "test-d"), 2);
    await rows.get("a", async () => "A");
    await rows.get("b", async () => "B");
    await rows.get("c", async () => "C");
    const again = (key: string) => rows.get(key, async () => `${key} read again`);
    assert.deepEqual([await again("c"), await again("a")], ["C", "a read again"]);
    assert.equal(await rows.get("gone", async () => undefined), undefined);
    assert.equal(await rows.get("gone", async () => "now there"), "now there");
  });

  it("answers the callers of one turn with one read, run after the last of them asked", async () => {
    let reads = 0;
    const counting: KyselyPlugin = {
      transformQuery: (args) => args.node,
      transformResult: async (args) => {
        reads++;
        return args.result;
      },
    };
    const writes = new WriteGeneration(db.withPlugin(counting), "test-e");
    const other = new WriteGeneration(db, "test-e");
    const before = await writes.current();
    reads = 0;
    const together = await Promise.all([writes.current(), writes.current(), writes.current()]);
    assert.deepEqual(together, [before, before, before]);
    assert.equal(reads, 1, "three callers, one read");
    // A caller that asks after a write committed counts it, whatever read the callers before it wait for.
    const earlier = writes.current();
    await other.around(async () => {});
    const later = await writes.current();
    assert.equal(later, before + 1);
    assert.ok((await earlier) >= before);
  });
});
