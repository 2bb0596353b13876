import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { freePort, type Spawned, spawnCaptured, waitForHttp } from "../lib/testing/processes.ts";
import { RawHttpConnection } from "../lib/testing/raw-http.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function startRunSh(
  extraEnv: Record<string, string> = {},
): Promise<{ run: Spawned; hub: number; portal: number; dataDir: string }> {
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
    ...extraEnv,
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

/** A stand-in for the Supervisor's API: `/addons/self/info` with the ingress port and the network (port mappings). */
async function fakeSupervisor(ingressPort: number, network: Record<string, number | null>) {
  const supervisor = createServer((request, response) => {
    const authorised = request.headers.authorization === "Bearer supervisor-secret-token";
    response.writeHead(authorised ? 200 : 401, { "content-type": "application/json" });
    response.end(JSON.stringify({ result: "ok", data: { ingress_port: ingressPort, network } }));
  });
  supervisor.listen(0, "127.0.0.1");
  await new Promise((resolve) => supervisor.once("listening", resolve));
  return { port: (supervisor.address() as { port: number }).port, close: () => supervisor.close() };
}

/** GET `path` from 127.0.0.2: a LAN client as the hub sees it (not loopback, not the ingress proxy). */
async function getFromLan(port: number, path: string, headers: Record<string, string> = {}): Promise<number> {
  const connection = await RawHttpConnection.open(port, { localAddress: "127.0.0.2" });
  try {
    const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
    await connection.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${lines.join("")}Connection: close\r\n\r\n`);
    return (await connection.response()).status;
  } finally {
    connection.destroy();
  }
}

/** `run.sh --heap-limit-mb` on a host with this /proc/meminfo MemTotal and these cgroup files. */
async function heapLimitFor(memTotalKb: number, cgroup: Record<string, string>, env: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), "run-sh-heap-"));
  dirs.push(dir);
  writeFileSync(join(dir, "meminfo"), `MemTotal:       ${memTotalKb} kB\nMemFree:          123456 kB\n`);
  for (const [path, content] of Object.entries(cgroup)) {
    mkdirSync(join(dir, "cgroup", path, ".."), { recursive: true });
    writeFileSync(join(dir, "cgroup", path), `${content}\n`);
  }
  const run = spawnCaptured(join(root, "run.sh"), ["--heap-limit-mb"], {
    cwd: root,
    env: { ...process.env, HEAP_MEMINFO: join(dir, "meminfo"), HEAP_CGROUP_DIR: join(dir, "cgroup"), ...env },
  });
  assert.equal(await run.exited, 0, run.output());
  return run.output().trim().split("\n").at(-1);
}

describe("run.sh", () => {
  it("gives the hub a heap limit of a quarter of the memory it may use, 256 to 1536 MB, or heap_size_mb", async () => {
    const GB = 1024 * 1024;
    assert.equal(await heapLimitFor(2 * GB, {}), "512", "a 2 GB board, no cgroup limit");
    assert.equal(await heapLimitFor(4 * GB, { "memory.max": "max" }), "1024", "cgroup v2 without a limit");
    assert.equal(await heapLimitFor(8 * GB, { "memory.max": String(1536 * 1024 * 1024) }), "384", "cgroup v2 limit");
    assert.equal(
      await heapLimitFor(8 * GB, { "memory/memory.limit_in_bytes": "9223372036854771712" }),
      "1536",
      "cgroup v1 'unlimited': the RAM counts, capped",
    );
    assert.equal(await heapLimitFor(8 * GB, { "memory/memory.limit_in_bytes": String(2 * GB * 1024) }), "512");
    assert.equal(await heapLimitFor(GB / 2, {}), "256", "never below 256 MB");
    assert.equal(await heapLimitFor(32 * GB, {}), "1536", "never above 1536 MB");
    assert.equal(await heapLimitFor(2 * GB, {}, { HUB_HEAP_SIZE_MB: "900" }), "900", "the option wins");
    assert.equal(await heapLimitFor(2 * GB, {}, { HUB_HEAP_SIZE_MB: "0" }), "512", "0 means automatic");
  });

  it("brings both servers to healthy, each with only its own secrets, and SIGTERM stops both with exit 0", async () => {
    const secrets = { HA_TOKEN: "ha-token-x", SUPERVISOR_TOKEN: "supervisor-token-x", PORTAL_SECRET_KEY: "ab".repeat(32) };
    const { run, hub, portal } = await startRunSh(secrets);
    const health = (await (await fetch(`http://127.0.0.1:${hub}/api/health`)).json()) as { version: string };
    assert.match(health.version, /^\d+\.\d+\.\d+/);
    assert.deepEqual(await (await fetch(`http://127.0.0.1:${portal}/api/health`)).json(), { status: "ok" });
    const pids = childPids(run.output());
    const environment = (pid: number | undefined) => readFileSync(`/proc/${pid}/environ`, "utf8").split("\0");
    try {
      const hubEnv = environment(pids.hub);
      const portalEnv = environment(pids.portal);
      assert.ok(hubEnv.includes("HA_TOKEN=ha-token-x"), "the hub has its HA token");
      assert.ok(!hubEnv.some((line) => line.startsWith("PORTAL_SECRET_KEY=")), "the hub never sees the portal's key");
      assert.ok(portalEnv.includes(`PORTAL_SECRET_KEY=${secrets.PORTAL_SECRET_KEY}`), "the portal has its key");
      for (const name of ["HA_TOKEN", "SUPERVISOR_TOKEN"]) {
        assert.ok(!portalEnv.some((line) => line.startsWith(`${name}=`)), `the portal never sees ${name}`);
      }
    } catch (error) {
      run.child.kill("SIGTERM");
      await run.exited;
      throw error;
    }
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
    const [ingressPort, lanPort] = [await freePort(), await freePort()];
    // The LAN port is mapped, but without hub credentials the hub must not open it.
    const supervisor = await fakeSupervisor(ingressPort, { "8483/tcp": null, "8484/tcp": lanPort });
    const supervisorPort = supervisor.port;
    writeFileSync(
      join(dataDir, "options.json"),
      JSON.stringify({ log_level: "debug", portal_enabled: false, hub_username: null, mdns_interface: "lo", heap_size_mb: 384 }),
    );
    const lockDir = join(dataDir, "hub", "matter", "bridge-1");
    mkdirSync(lockDir, { recursive: true });
    writeFileSync(join(lockDir, "matter.lock"), "");
    writeFileSync(join(lockDir, "matter.pid"), "12345 abc");
    const env = {
      ...process.env,
      ADDON_OPTIONS_FILE: join(dataDir, "options.json"),
      ADDON_CONFIG_DIR: dataDir,
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
      // heap_size_mb: the hub's heap limit, and the hub says which limit it runs with.
      assert.match(run.output(), /hub heap limit: 384 MB/);
      const hubPid = childPids(run.output()).hub;
      assert.ok(readFileSync(`/proc/${hubPid}/cmdline`, "utf8").split("\0").includes("--max-old-space-size=384"));
      // log_level debug took effect: the health request above is logged at debug (written just after its answer), in
      // the readable format that the add-on's Log tab shows.
      const debugLine = / DEBUG hub \[http\] request method=GET path=\/api\/health status=200 ms=\d+\n/;
      const deadline = Date.now() + 5000;
      while (!debugLine.test(run.output()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      assert.match(run.output(), debugLine);
      assert.doesNotMatch(run.output(), /"level":/, "no JSON lines by default");
      // The add-on's config folder keeps the log too, readable, for after a restart.
      const logFile = readFileSync(join(dataDir, "logs", "hub.log"), "utf8");
      assert.match(logFile, / INFO {2}hub Matter Hub \S+ started /);
      assert.doesNotMatch(logFile, /supervisor-secret-token/);
      assert.match(run.output(), new RegExp(`not opening the LAN port ${lanPort}: it requires authentication`));
      await assert.rejects(getFromLan(lanPort, "/api/health/live"), "nothing listens on the LAN port");
    } finally {
      run.child.kill("SIGTERM");
      assert.equal(await run.exited, 0, run.output());
      supervisor.close();
    }
    assert.doesNotMatch(run.output(), /supervisor-secret-token/);
  });

  it("in the add-on opens the hub's LAN port (Network 8484/tcp) with hub credentials, which every request there needs", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "run-sh-lan-"));
    dirs.push(dataDir);
    const [ingressPort, lanPort] = [await freePort(), await freePort()];
    const supervisor = await fakeSupervisor(ingressPort, { "8483/tcp": null, "8484/tcp": lanPort });
    writeFileSync(
      join(dataDir, "options.json"),
      JSON.stringify({ log_level: "info", portal_enabled: false, hub_username: "scraper", hub_password: "lan secret 42" }),
    );
    const env = {
      ...process.env,
      ADDON_OPTIONS_FILE: join(dataDir, "options.json"),
      SUPERVISOR_TOKEN: "supervisor-secret-token",
      SUPERVISOR_API: `http://127.0.0.1:${supervisor.port}`,
      HUB_PORT_FILE: join(dataDir, "hub.port"),
    };
    const run = spawnCaptured(join(root, "run.sh"), [], { cwd: root, env });
    try {
      await waitForHttp(`http://127.0.0.1:${ingressPort}/api/health/live`, 30_000);
      const credentials = { Authorization: `Basic ${Buffer.from("scraper:lan secret 42").toString("base64")}` };
      assert.equal(await getFromLan(ingressPort, "/api/metrics/prometheus", credentials), 403, "ingress port: proxy only");
      assert.equal(await getFromLan(lanPort, "/api/metrics/prometheus"), 401);
      assert.equal(await getFromLan(lanPort, "/api/metrics/prometheus", credentials), 200);
    } finally {
      run.child.kill("SIGTERM");
      assert.equal(await run.exited, 0, run.output());
      supervisor.close();
    }
    assert.doesNotMatch(run.output(), /lan secret 42/);
  });
});
