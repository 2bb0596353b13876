import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createLogger } from "../../../lib/logger.ts";
import { tempDir } from "../../../lib/testing/fixtures.ts";
import type { BridgeConfig } from "./bridge-config.ts";
import type { BridgeRuntime, BridgeStatus } from "./bridge-runtime.ts";
import { BridgeService } from "./bridge-service.ts";
import { BridgeStore } from "./bridge-store.ts";

/** A runtime whose starts take as long as the test says: `release()` lets the pending start finish. */
function fakeRuntime(config: BridgeConfig, journal: string[], gate: { wait?: Promise<void> }): BridgeRuntime {
  let status: BridgeStatus = "stopped";
  const runtime: Partial<BridgeRuntime> = {
    get status() {
      return status;
    },
    statusReason: null,
    async start() {
      journal.push(`start ${config.name}`);
      status = "starting";
      await gate.wait;
      status = "running";
      journal.push(`running ${config.name}`);
    },
    async stop() {
      journal.push(`stop ${config.name}`);
      status = "stopped";
    },
    deviceCount: () => 0,
    commissioning: () => ({}) as ReturnType<BridgeRuntime["commissioning"]>,
  };
  return runtime as BridgeRuntime;
}

describe("bridge service while the hub stops", () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  before(async () => {
    dir = await tempDir("bridge-service");
  });
  after(() => dir.remove());

  it("lets a start in flight finish, then stops it; starts no further bridge and refuses actions with 503", async () => {
    const journal: string[] = [];
    let release = () => {};
    const gate: { wait?: Promise<void> } = {};
    const log = createLogger({ name: "test", level: "silent" });
    const serviceOver = (store: BridgeStore) =>
      new BridgeService(
        store,
        (config) => fakeRuntime(config, journal, gate),
        log,
        async () => {},
      );
    // Two stored bridges meant to run (created by an earlier hub), then the hub starts again.
    const stored = {
      filter: { include: [], exclude: [], includeHidden: false },
      serverMode: false,
      composeDevices: true,
      autoStart: true,
    };
    const earlier = serviceOver(new BridgeStore(dir.path));
    await earlier.load();
    await earlier.create({ ...stored, name: "One", port: 5541, priority: 0 });
    await earlier.create({ ...stored, name: "Two", port: 5542, priority: 1 });
    journal.length = 0;
    const service = serviceOver(new BridgeStore(dir.path));
    await service.load();

    gate.wait = new Promise((resolve) => {
      release = resolve;
    });
    const starting = service.start();
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(journal, ["start One"], "the first bridge is starting");

    const stopping = service.stop();
    release();
    await Promise.all([starting, stopping]);
    const of = (name: string) => journal.filter((line) => line.endsWith(` ${name}`));
    assert.deepEqual(of("One"), ["start One", "running One", "stop One"], "One stopped after its start finished");
    assert.deepEqual(of("Two"), ["stop Two"], "Two never started");

    const [first] = service.list();
    assert.ok(first);
    await assert.rejects(service.act(first.id, "start"), { status: 503, message: "The hub is shutting down" });
    assert.equal(service.record(first.id).status, "stopped");
  });
});
