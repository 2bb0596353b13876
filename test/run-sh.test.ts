import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { freePort, type Spawned, spawnCaptured, waitForHttp } from "../lib/testing/processes.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function startRunSh(): Promise<{ run: Spawned; hub: number; portal: number; dataDir: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), "run-sh-"));
  dirs.push(dataDir);
  const [hub, portal] = [await freePort(), await freePort()];
  const env = {
    ...process.env,
    HUB_PORT: String(hub),
    PORTAL_PORT: String(portal),
    HUB_HOST: "127.0.0.1",
    PORTAL_HOST: "127.0.0.1",
    HUB_DATA_DIR: join(dataDir, "hub"),
    PORTAL_DATA_DIR: join(dataDir, "portal"),
    ADDON_OPTIONS_FILE: join(dataDir, "no-options.json"),
    HA_URL: "",
  };
  const run = spawnCaptured(join(root, "run.sh"), [], { cwd: root, env });
  await waitForHttp(`http://127.0.0.1:${hub}/api/health`, 30_000);
  await waitForHttp(`http://127.0.0.1:${portal}/api/health`, 30_000);
  return { run, hub, portal, dataDir };
}

const childPids = (output: string) =>
  Object.fromEntries([...output.matchAll(/started (\w+) \(pid (\d+)\)/g)].map((m) => [m[1], Number(m[2])]));

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe("run.sh", () => {
  it("brings both servers to healthy, and SIGTERM stops both with exit 0", async () => {
    const { run, hub, portal } = await startRunSh();
    const health = (await (await fetch(`http://127.0.0.1:${hub}/api/health`)).json()) as { version: string };
    assert.match(health.version, /^\d+\.\d+\.\d+/);
    assert.deepEqual(await (await fetch(`http://127.0.0.1:${portal}/api/health`)).json(), { status: "ok" });
    const pids = childPids(run.output());
    run.child.kill("SIGTERM");
    assert.equal(await run.exited, 0, run.output());
    assert.ok(pids.hub && !alive(pids.hub), "hub process is gone");
    assert.ok(pids.portal && !alive(pids.portal), "portal process is gone");
    assert.match(run.output(), /stopped cleanly/);
  });

  it("stops the other server and exits non-zero when one server dies", async () => {
    const { run } = await startRunSh();
    const pids = childPids(run.output());
    assert.ok(pids.portal && pids.hub);
    process.kill(pids.portal, "SIGKILL");
    const code = await run.exited;
    assert.notEqual(code, 0, run.output());
    assert.ok(!alive(pids.hub), "hub was stopped too");
    assert.match(run.output(), /portal exited unexpectedly/);
  });
});
