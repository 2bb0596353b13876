import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { memoryLogger } from "../../lib/testing/fixtures.ts";
import { restartable } from "../src/backup/restartable.ts";

describe("restartable (in-process restart after a restore)", () => {
  const instances = () => {
    const events: string[] = [];
    let next = 0;
    let failNext = false;
    const create = async () => {
      if (failNext) throw new Error("port in use");
      const id = ++next;
      events.push(`create ${id}`);
      return { id, stop: async () => void events.push(`stop ${id}`) };
    };
    return { events, create, fail: () => (failNext = true) };
  };

  it("stops the old instance before creating the new one; concurrent requests share one restart", async () => {
    const { events, create } = instances();
    const hub = restartable(create, { log: memoryLogger().log });
    await hub.start();
    const [a, b] = await Promise.all([hub.restart("restore"), hub.restart("again")]);
    assert.equal(a, b);
    assert.equal(hub.current?.id, 2);
    await hub.stop();
    assert.deepEqual(events, ["create 1", "stop 1", "create 2", "stop 2"]);
    assert.equal(hub.current, undefined);
    await assert.rejects(hub.restart("late"), /stopped/);
  });

  it("reports a failed re-creation (main.ts exits non-zero then, so the Supervisor restarts the add-on)", async () => {
    const { create, fail } = instances();
    const failures: unknown[] = [];
    const hub = restartable(create, { log: memoryLogger().log, onRestartFailed: (error) => failures.push(error) });
    await hub.start();
    fail();
    await assert.rejects(hub.restart("restore"), /port in use/);
    assert.equal(failures.length, 1);
    assert.equal(hub.current, undefined);
  });
});
