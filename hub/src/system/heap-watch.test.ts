import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { memoryLogger } from "../../../lib/testing/fixtures.ts";
import { type HeapSource, watchHeap } from "./heap-watch.ts";

const MB = 1024 * 1024;

/** A heap whose use the test sets, and major GCs the test fires. */
function fakeHeap(limitMb: number) {
  let usedMb = 0;
  const listeners = new Set<() => void>();
  const source: HeapSource = {
    limit: () => limitMb * MB,
    used: () => usedMb * MB,
    onMajorGc(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return {
    source,
    /** A major GC after which `mb` are in use. */
    gc(mb: number) {
      usedMb = mb;
      for (const listener of listeners) listener();
    },
    listening: () => listeners.size,
  };
}

const warnings = (lines: string[]) =>
  lines.map((line) => JSON.parse(line) as { level: string; msg: string }).filter((line) => line.level === "warn");

describe("low-memory warning", () => {
  it("warns once per crossing, with the heap figures and the exposed entities", () => {
    const heap = fakeHeap(512);
    const { log, lines } = memoryLogger("info");
    let devices = 800;
    const stop = watchHeap({ source: heap.source, load: () => ({ devices, bridges: 2 }), log });
    heap.gc(300);
    heap.gc(420);
    assert.deepEqual(warnings(lines()), [], "below 85 % of the limit: quiet");
    heap.gc(440);
    const [first, ...more] = warnings(lines());
    assert.equal(more.length, 0);
    assert.match(first?.msg ?? "", /440 MB of the hub's 512 MB heap/);
    assert.match(first?.msg ?? "", /800 entities exposed on 2 bridges/);
    assert.match(first?.msg ?? "", /heap_size_mb/);
    heap.gc(460);
    heap.gc(400);
    assert.equal(warnings(lines()).length, 1, "still high, or not yet well below: no second warning");
    heap.gc(350);
    devices = 1000;
    heap.gc(450);
    assert.equal(warnings(lines()).length, 2, "back below 75 %, then over again: warned again");
    assert.match(warnings(lines())[1]?.msg ?? "", /1000 entities exposed on 2 bridges/);
    stop();
    assert.equal(heap.listening(), 0);
  });

  it("says entity and bridge in the singular for one", () => {
    const heap = fakeHeap(256);
    const { log, lines } = memoryLogger("info");
    watchHeap({ source: heap.source, load: () => ({ devices: 1, bridges: 1 }), log });
    heap.gc(250);
    assert.match(warnings(lines())[0]?.msg ?? "", /with 1 entity exposed on 1 bridge\./);
  });
});
