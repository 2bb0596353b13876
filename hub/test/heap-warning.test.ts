import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { HeapSource } from "../src/system/heap-watch.ts";
import { createTestHub } from "./support/test-context.ts";

const MB = 1024 * 1024;

describe("the hub warns in its log when the heap runs low", () => {
  it("logs its heap limit at start, and one warning after a major GC near the limit (heap figures from the context)", async () => {
    let used = 100 * MB;
    let gc = () => {};
    const heapSource: HeapSource = {
      limit: () => 512 * MB,
      used: () => used,
      onMajorGc(listener) {
        gc = listener;
        return () => {
          gc = () => {};
        };
      },
    };
    const test = await createTestHub({ start: true, hubOptions: { heapSource } });
    try {
      assert.equal(test.ctx.heap, heapSource);
      const messages = () => test.logLines().map((line) => JSON.parse(line) as { level: string; msg: string });
      assert.ok(messages().some((line) => line.msg === "JavaScript heap limit 512 MB"));
      gc();
      used = 480 * MB;
      gc();
      gc();
      const warnings = messages().filter((line) => line.level === "warn" && line.msg.startsWith("Memory is running low"));
      assert.equal(warnings.length, 1);
      assert.match(warnings[0]?.msg ?? "", /480 MB of the hub's 512 MB heap.*0 entities exposed on 0 bridges/);
    } finally {
      await test.stop();
    }
  });
});
