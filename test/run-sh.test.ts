import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
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

  it("in the add-on reads options.json and the Supervisor, clears stale Matter locks, and keeps secrets out of logs", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "run-sh-addon-"));
    dirs.push(dataDir);
    const ingressPort = await freePort();
    const supervisor = createServer((request, response) => {
      const authorised = request.headers.authorization === "Bearer supervisor-secret-token";
      response.writeHead(authorised ? 200 : 401, { "content-type": "application/json" });
      response.end(JSON.stringify({ result: "ok", data: { ingress_port: ingressPort, network: { "8483/tcp": null } } }));
    });
    supervisor.listen(0, "127.0.0.1");
    await new Promise((resolve) => supervisor.once("listening", resolve));
    const supervisorPort = (supervisor.address() as { port: number }).port;
    writeFileSync(
      join(dataDir, "options.json"),
      JSON.stringify({ log_level: "debug", portal_enabled: false, hub_username: null, mdns_interface: "lo" }),
    );
    const lockDir = join(dataDir, "hub", "matter", "bridge-1");
    mkdirSync(lockDir, { recursive: true });
    writeFileSync(join(lockDir, "matter.lock"), "");
    writeFileSync(join(lockDir, "matter.pid"), "12345 abc");
    const env = {
      ...process.env,
      ADDON_OPTIONS_FILE: join(dataDir, "options.json"),
      SUPERVISOR_TOKEN: "supervisor-secret-token",
      SUPERVISOR_API: `http://127.0.0.1:${supervisorPort}`,
      HUB_PORT_FILE: join(dataDir, "hub.port"),
    };
    const run = spawnCaptured(join(root, "run.sh"), [], { cwd: root, env });
    try {
      const health = (await (await waitForHttp(`http://127.0.0.1:${ingressPort}/api/health`, 30_000)).json()) as {
        demo: boolean;
      };
      assert.equal(health.demo, false, "a real Home Assistant (the Supervisor's proxy) is configured");
      assert.equal(readFileSync(join(dataDir, "hub.port"), "utf8").trim(), String(ingressPort));
      assert.ok(!existsSync(join(lockDir, "matter.lock")) && !existsSync(join(lockDir, "matter.pid")));
      assert.match(run.output(), /removed stale lock/);
      assert.doesNotMatch(run.output(), /started portal/);
      // log_level debug took effect: the health request above is logged at debug (written just after its answer).
      const deadline = Date.now() + 5000;
      while (!/"level":"debug"/.test(run.output()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      assert.match(run.output(), /"level":"debug"/);
    } finally {
      run.child.kill("SIGTERM");
      assert.equal(await run.exited, 0, run.output());
      supervisor.close();
    }
    assert.doesNotMatch(run.output(), /supervisor-secret-token/);
  });
});
