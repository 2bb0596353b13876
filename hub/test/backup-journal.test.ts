import assert from "node:assert/strict";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { memoryLogger, tempDir } from "../../lib/testing/fixtures.ts";
import { JOURNAL_FILE, recoverInterruptedRestore } from "../src/backup/restore-journal.ts";
import { backupApp, put, storedBridge, tree } from "./support/backup-fixtures.ts";
import { createTestHub } from "./support/test-context.ts";

/** The hub's data at backup time. */
function seedBackupTime(dir: string): void {
  put(dir, "bridges.json", { version: 1, bridges: [storedBridge("b1", 5601)] });
  put(dir, "entity-mappings.json", { version: 1, bridges: { b1: {} } });
  put(dir, "settings.json", { autoRecoveryEnabled: true });
  put(dir, "plugins/b1/camera/config.json", { cameras: "camera.old" });
  put(dir, "matter/b1/fabrics", "[1]");
  put(dir, "matter/b1.controllers.json", "[]");
  put(dir, "identities/b1.json", { version: 1, next: 2, endpoints: {} });
}

/** The hub later, when the backup is restored: a second bridge, other settings, a newer fabric, a plugin password. */
function moveOn(dir: string): void {
  put(dir, "bridges.json", { version: 1, bridges: [storedBridge("b1", 5601), storedBridge("b2", 5602)] });
  put(dir, "settings.json", { autoRecoveryEnabled: false });
  put(dir, "plugins/b1/camera/config.json", { cameras: "camera.new" });
  put(dir, "plugins/b1/camera/secrets.json", { haToken: "kept" });
  put(dir, "matter/b1/fabrics", "[9]");
  put(dir, "matter/b1/matter.lock", "");
  put(dir, "matter/b2/fabrics", "[2]");
}

const withoutCopies = (picture: Record<string, string>) =>
  Object.fromEntries(Object.entries(picture).filter(([path]) => !path.startsWith("backups/")));

/** A step hook that lets `allowed` steps through, then freezes the swap forever (a kill: nothing after it runs). */
function killAfter(allowed: number) {
  const state = { seen: 0, killed: false };
  const hook = async () => {
    state.seen++;
    if (state.seen > allowed) {
      state.killed = true;
      await new Promise(() => undefined);
    }
  };
  return { state, hook };
}

describe("a restore killed at any point is finished or undone at the next start", { timeout: 120_000 }, () => {
  let work: Awaited<ReturnType<typeof tempDir>>;
  let zip: Buffer;
  let beforeRestore: Record<string, string>;
  let restored: Record<string, string>;
  let steps = 0;
  const data = () => join(work.path, "data");

  /** The data dir as the restore finds it: the hub moved on since the backup. */
  const reset = () => {
    rmSync(data(), { recursive: true, force: true });
    cpSync(join(work.path, "before"), data(), { recursive: true });
  };
  const recover = () => recoverInterruptedRestore(data(), memoryLogger().log);
  const leftovers = () => readdirSync(data()).filter((name) => name.startsWith(".restore"));

  before(async () => {
    work = await tempDir("backup-journal");
    mkdirSync(data());
    seedBackupTime(data());
    const backupTime = tree(data());
    ({ zip } = await backupApp(data()).download("?includeIdentity=true"));
    moveOn(data());
    cpSync(data(), join(work.path, "before"), { recursive: true });
    beforeRestore = tree(data());
    // The reference: a restore that runs to its end, counting its durable steps.
    const counting = killAfter(Number.POSITIVE_INFINITY);
    const { upload } = backupApp(data(), { swapStepHook: counting.hook });
    const response = await upload("restore", zip, { includeIdentity: true });
    assert.equal(response.status, 200, await response.text());
    steps = counting.state.seen;
    restored = withoutCopies(tree(data()));
    assert.equal(restored["settings.json"], backupTime["settings.json"], "the backup's settings are in place");
    assert.equal(restored["matter/b1/fabrics"], backupTime["matter/b1/fabrics"], "the backup's fabric is in place");
  });
  after(() => work.remove());

  it("kill during staging: the staging folder is removed, nothing else changes", async () => {
    reset();
    put(data(), ".restore-staging-2025-01-01T00-00-00-000Z/bridges.json", "{half");
    put(data(), ".restore-staging-2025-01-01T00-00-00-000Z/plugins/b1/x/state.json.abc.tmp", "");
    await recover();
    assert.deepEqual(leftovers(), []);
    assert.deepEqual(tree(data()), beforeRestore);
  });

  it("kill after each durable step of the swap: the next start completes the restore, keeping the copy", async () => {
    assert.ok(steps >= 8, `journal, moves and commit are steps (${steps})`);
    for (let allowed = 0; allowed < steps; allowed++) {
      reset();
      const kill = killAfter(allowed);
      const { upload } = backupApp(data(), { swapStepHook: kill.hook });
      void upload("restore", zip, { includeIdentity: true });
      await waitFor(() => kill.state.killed);
      await recover();
      assert.deepEqual(leftovers(), [], `after step ${allowed}: no journal, no staging`);
      assert.deepEqual(withoutCopies(tree(data())), restored, `after step ${allowed}: the backup is in place`);
      assertCopyHoldsReplaced(data(), beforeRestore, restored, `after step ${allowed}`);
      await recover(); // a second start finds nothing left to do
      assert.deepEqual(withoutCopies(tree(data())), restored);
    }
  });

  it("a move failing at any point is undone; a kill during the undo is undone at the next start", async () => {
    const moves = steps - 2; // without "journal" and "committed"
    // Every failing point is undone in process; kills during the undo are tried at the first, a middle and the
    // last failing point, after each undo step (each restore costs fsyncs: all pairs would take minutes).
    const killed = new Set([1, Math.ceil(moves / 2), moves]);
    for (let failing = 1; failing <= moves; failing++) {
      reset();
      const failed = backupApp(data(), { swapStepHook: failAt(failing) });
      const response = await failed.upload("restore", zip, { includeIdentity: true });
      assert.equal(response.status, 500);
      assert.deepEqual(leftovers(), []);
      assert.deepEqual(tree(data()), beforeRestore, `failing at move ${failing}: everything is back`);

      for (let undone = 0; killed.has(failing) && undone < failing + 1; undone++) {
        reset();
        const state = { seen: 0, killed: false };
        const hook = async () => {
          state.seen++;
          if (state.seen === failing + 1) throw new Error("disk full");
          if (state.seen > failing + 1 + undone) {
            state.killed = true;
            await new Promise(() => undefined);
          }
        };
        void backupApp(data(), { swapStepHook: hook }).upload("restore", zip, { includeIdentity: true });
        await waitFor(() => state.killed);
        assert.ok(existsSync(join(data(), JOURNAL_FILE)));
        await recover();
        assert.deepEqual(leftovers(), []);
        assert.deepEqual(tree(data()), beforeRestore, `failing at move ${failing}, killed after undo step ${undone}`);
      }
    }
  });

  it("an undo that fails too keeps the journal and the staging folder; the next start completes the undo", async () => {
    reset();
    const failing = Math.ceil((steps - 2) / 2);
    let seen = 0;
    const hook = async () => {
      seen++;
      // The move after `failing` moves fails, and so does the first move of the undo.
      if (seen === failing + 1 || seen === failing + 3) throw new Error("disk full");
    };
    const response = await backupApp(data(), { swapStepHook: hook }).upload("restore", zip, { includeIdentity: true });
    assert.equal(response.status, 500);
    assert.equal(leftovers().length, 2, "journal and staging are kept for the next start");
    await recover();
    assert.deepEqual(leftovers(), []);
    assert.deepEqual(tree(data()), beforeRestore);
  });

  it("a damaged journal stops the start with what to do, and touches nothing", async () => {
    reset();
    put(data(), JOURNAL_FILE, '{"version":1,"direction":"sideways"}');
    const picture = tree(data());
    await assert.rejects(recover(), /restore-journal\.json is damaged.*delete the journal/);
    assert.deepEqual(tree(data()), picture);
  });

  it("the hub finishes an interrupted restore before it reads its data dir", async () => {
    reset();
    const kill = killAfter(3);
    void backupApp(data(), { swapStepHook: kill.hook }).upload("restore", zip, { includeIdentity: true });
    await waitFor(() => kill.state.killed);
    put(data(), ".restore-staging-old/settings.json", "{}");
    const hub = await createTestHub({ dataDir: data() });
    try {
      const bridges = (await (await hub.app.request("/api/matter/bridges")).json()) as { id: string }[];
      assert.deepEqual(
        bridges.map((bridge) => bridge.id),
        ["b1"],
        "the backup's bridges",
      );
      assert.deepEqual(leftovers(), []);
      assert.ok(hub.logLines().some((line) => line.includes("interrupted restore completed")));
    } finally {
      await hub.stop();
    }
  });
});

/** A hook that fails the n-th step with an I/O error (the swap must then undo itself). */
function failAt(n: number) {
  let seen = 0;
  return async () => {
    seen++;
    if (seen === n + 1) throw new Error("disk full");
  };
}

/** Every file the restore replaced or removed is in the copy folder, byte for byte. */
function assertCopyHoldsReplaced(
  dir: string,
  beforeRestore: Record<string, string>,
  restored: Record<string, string>,
  context: string,
): void {
  const copies = readdirSync(join(dir, "backups"));
  assert.equal(copies.length, 1, context);
  const copy = join(dir, "backups", copies[0] ?? "");
  const kept = tree(copy);
  assert.ok(readFileSync(join(copy, "restore.json"), "utf8").includes('"direction": "forward"'), context);
  for (const [path, hash] of Object.entries(beforeRestore)) {
    if (restored[path] === hash) continue;
    assert.equal(kept[path], hash, `${context}: ${path} kept in the copy`);
  }
}

async function waitFor(check: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.ok(check(), "the swap reached the step");
}
