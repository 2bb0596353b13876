import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { assertNetworkIsolated } from "../../lib/testing/isolation.ts";
import { freePort, type Spawned, spawnCaptured, waitForHttp } from "../../lib/testing/processes.ts";
import { createDemoHome, type HaSimulator, startHaSimulator } from "../../simulators/home-assistant/index.ts";
import { writePluginFolder } from "../src/plugins/testing/plugin-fixtures.ts";
import { freeUdpPort } from "./support/matter-fixtures.ts";
import { eventually } from "./support/test-context.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));

/** A plugin that leaves rejected promises nobody awaits: at start and from a timer later. */
const STRAY = `
export default class Stray {
  name = "stray-plugin"; version = "0.1.0";
  async onStart(context) {
    Promise.reject(new Error("stray rejection at start"));
    this.timer = setTimeout(() => void Promise.reject(new Error("stray rejection from a timer")), 50);
    await context.registerDevice({ id: "lamp", name: "Stray lamp", deviceType: "on_off_light" });
  }
  onShutdown() { clearTimeout(this.timer); }
}
`;

describe("the hub process with a plugin that leaves unhandled rejections", { timeout: 90_000 }, () => {
  let sim: HaSimulator;
  let work: string;
  let run: Spawned | undefined;

  before(async () => {
    assertNetworkIsolated();
    work = await mkdtemp(join(tmpdir(), "plugins-process-"));
    sim = await startHaSimulator({ token: "t", home: createDemoHome(), motionMs: 0 });
  });
  after(async () => {
    if (run && run.child.exitCode === null) run.child.kill("SIGKILL");
    await sim?.close();
    await rm(work, { recursive: true, force: true });
  });

  it("logs them through main.ts's guard and keeps running", async () => {
    const port = await freePort();
    run = spawnCaptured(process.execPath, ["--import", "tsx", "hub/src/main.ts"], {
      cwd: root,
      env: {
        ...process.env,
        HUB_HOST: "127.0.0.1",
        HUB_PORT: String(port),
        HUB_DATA_DIR: join(work, "data"),
        HA_URL: sim.url,
        HA_TOKEN: "t",
      },
    });
    const base = `http://127.0.0.1:${port}`;
    const request = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${base}${path}`, {
        method,
        headers: body === undefined ? {} : { "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    await waitForHttp(`${base}/api/health`);
    const created = await request("POST", "/api/matter/bridges", {
      name: "Process bridge",
      port: await freeUdpPort(),
      filter: { include: [{ type: "entity_id", value: "switch.garden_pump" }] },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const bridgeId = String(created.body.id);
    const dir = await writePluginFolder(work, "stray-plugin", STRAY);
    assert.equal((await request("POST", "/api/plugins/install-local", { path: dir })).status, 201);
    const enable = async () => (await request("POST", `/api/plugins/${bridgeId}/stray-plugin/enable`)).status;
    // The bridge may still be starting: enabling works at any time, the plugin starts with the running bridge.
    assert.equal(await enable(), 200);

    await eventually(() => /stray rejection from a timer/.test(run?.output() ?? ""), 30_000);
    const output = run.output();
    assert.match(output, /unhandled promise rejection \(a plugin's, most likely\); logged, the hub keeps running/);
    assert.match(output, /stray rejection at start/);
    assert.equal(run.child.exitCode, null, "the process is still running");
    const { body } = await request("GET", "/api/plugins");
    const plugin = (body.bridges as { bridgeId: string; plugins: { name: string; state: string; failures: number }[] }[])
      .find((b) => b.bridgeId === bridgeId)
      ?.plugins.find((p) => p.name === "stray-plugin");
    assert.equal(plugin?.state, "running", "a stray rejection is not a failed lifecycle call");
    assert.equal(plugin?.failures, 0);
    assert.equal((await fetch(`${base}/api/health/live`)).status, 200);

    run.child.kill("SIGTERM");
    assert.equal(await run.exited, 0, run.output().slice(-2000));
  });
});
