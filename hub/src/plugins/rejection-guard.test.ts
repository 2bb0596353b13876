import assert from "node:assert/strict";
import { EventEmitter } from "node:events";
import { describe, it } from "node:test";
import { memoryLogger } from "../../../lib/testing/fixtures.ts";
import { installRejectionGuard } from "./rejection-guard.ts";

describe("process-level rejection guard", () => {
  it("logs every unhandled rejection with a count, and is removed again", () => {
    const source = new EventEmitter();
    const { log, lines } = memoryLogger("debug");
    const remove = installRejectionGuard(source, log);
    assert.equal(source.listenerCount("unhandledRejection"), 1);
    source.emit("unhandledRejection", new Error("cloud went away"));
    source.emit("unhandledRejection", "a plain string");
    const logged = lines().map(
      (line) => JSON.parse(line) as { level: string; msg: string; count: number; err: { message: string } },
    );
    assert.deepEqual(
      logged.map((entry) => [entry.level, entry.count, entry.err.message]),
      [
        ["error", 1, "cloud went away"],
        ["error", 2, "a plain string"],
      ],
    );
    assert.match(logged[0]?.msg ?? "", /unhandled promise rejection .* the hub keeps running/);
    remove();
    assert.equal(source.listenerCount("unhandledRejection"), 0);
  });
});
