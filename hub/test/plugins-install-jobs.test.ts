import assert from "node:assert/strict";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { after, before, describe, it } from "node:test";
import { memoryLogger } from "../../lib/testing/fixtures.ts";
import { assertNetworkIsolated } from "../../lib/testing/isolation.ts";
import type { InstallEvent, InstallJobView } from "../src/plugins/install-jobs.ts";
import { type FakeNpmRegistry, startFakeNpmRegistry } from "../src/plugins/testing/fake-npm-registry.ts";
import { EXAMPLE_PLUGIN_DIR, offlineNpmEnv, packPlugin, writePluginFolder } from "../src/plugins/testing/plugin-fixtures.ts";
import { api } from "./support/bridge-fixture.ts";
import { createTestHub, type TestHub } from "./support/test-context.ts";

const EXAMPLE = "hub-plugin-example";

/** Reads a Server-Sent Events response to its end (the hub ends an install's stream after `end`). */
async function readSse(response: Response): Promise<{ id?: string; event: string; data: string }[]> {
  assert.equal(response.headers.get("content-type")?.split(";")[0], "text/event-stream");
  const text = await response.text();
  return text
    .split("\n\n")
    .filter((block) => block.split("\n").some((line) => line.startsWith("data:")))
    .map((block) => {
      const field = (name: string) =>
        block
          .split("\n")
          .filter((line) => line.startsWith(`${name}:`))
          .map((line) => line.slice(name.length + 1).trimStart())
          .join("\n");
      return { id: field("id") || undefined, event: field("event") || "message", data: field("data") };
    });
}

/** Every file under the data dir's plugin folders with its contents. */
async function pluginFiles(dataDir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  const walk = async (dir: string) => {
    for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (/^plugin-/.test(relative(dataDir, path))) files[relative(dataDir, path)] = await readFile(path, "utf8");
    }
  };
  await walk(dataDir);
  return files;
}

describe("plugin installs as jobs over HTTP (real hub, real npm, local registry)", { timeout: 180_000 }, () => {
  let work: string;
  let registry: FakeNpmRegistry;
  let hub: TestHub;
  let offlineHub: TestHub;
  let call: ReturnType<typeof api>;

  const follow = async (target: TestHub, id: string, lastEventId?: number) => {
    const response = await target.app.request(`/api/plugins/installs/${id}/events`, {
      headers: lastEventId === undefined ? {} : { "last-event-id": String(lastEventId) },
    });
    assert.equal(response.status, 200);
    const messages = await readSse(response);
    const end = messages.at(-1);
    assert.equal(end?.event, "end", "the stream ends with the job's end");
    const events = messages.filter((m) => m.event === "progress").map((m) => JSON.parse(m.data) as InstallEvent);
    for (const [index, message] of messages.filter((m) => m.event === "progress").entries()) {
      assert.equal(message.id, String(events[index]?.seq), "each event's id is its number, for Last-Event-ID");
    }
    return { events, end: JSON.parse(end?.data ?? "{}") as InstallJobView };
  };
  const start = async (packageName: string, target = hub) => {
    const started = await api(target)<InstallJobView>("POST", "/api/plugins/installs", { packageName });
    assert.equal(started.status, 202, JSON.stringify(started.body));
    return started.body;
  };

  before(async () => {
    assertNetworkIsolated();
    work = await mkdtemp(join(tmpdir(), "plugins-install-jobs-"));
    registry = await startFakeNpmRegistry(memoryLogger().log);
    const pack = async (dir: string) => readFile(await packPlugin(dir, join(work, "packed"), join(work, "pack-cache")));
    registry.publish(await pack(EXAMPLE_PLUGIN_DIR));
    const future = await writePluginFolder(work, "future-plugin", "export default class F {}", { hubPluginApiVersion: 2 });
    registry.publish(await pack(future));
    // Installed only by the cancel test: its tarball is in no npm cache, so npm must download it.
    registry.publish(await pack(await writePluginFolder(work, "slow-plugin", "export default class S {}")));
    hub = await createTestHub({ start: true, plugins: { npm: { env: offlineNpmEnv(join(work, "npm-cache"), registry.url) } } });
    call = api(hub);
    // A second hub whose registry is a closed port: what an offline machine meets.
    offlineHub = await createTestHub({ start: true, plugins: { npm: { env: offlineNpmEnv(join(work, "npm-cache-2")) } } });
  });
  after(async () => {
    await hub?.stop();
    await offlineHub?.stop();
    await registry?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it("installs by name as a job: progress in order over SSE, resumable after a reconnect, then the result", async () => {
    const job = await start(EXAMPLE);
    assert.match(job.id, /^[0-9a-f-]{36}$/);
    assert.ok(["queued", "running"].includes(job.state));
    assert.equal(job.cancellable, true);
    const { events, end } = await follow(hub, job.id);
    assert.equal(end.state, "succeeded", JSON.stringify(end.error));
    assert.deepEqual(
      events.map((e) => e.seq),
      events.map((_, i) => i + 1),
    );
    assert.deepEqual([...new Set(events.map((e) => e.phase))], ["resolving", "fetching", "extracting", "checking", "recording"]);
    assert.ok(
      events.some((e) => e.message === `ADD node_modules/${EXAMPLE}`),
      "npm's own step lines",
    );
    assert.equal(end.result?.package.name, EXAMPLE);
    assert.deepEqual(end.result?.warnings, []);
    assert.equal(end.cancellable, false);

    // A client that lost the stream after event 3 gets the rest and the end (EventSource sends Last-Event-ID).
    const resumed = await follow(hub, job.id, 3);
    assert.deepEqual(
      resumed.events.map((e) => e.seq),
      events.slice(3).map((e) => e.seq),
    );
    const again = await call<InstallJobView>("GET", `/api/plugins/installs/${job.id}`);
    assert.equal(again.body.state, "succeeded");
    assert.equal(again.body.events.length, events.length);
    const listed = await call<{ packages: { name: string }[] }>("GET", "/api/plugins");
    assert.ok(listed.body.packages.some((p) => p.name === EXAMPLE));
  });

  it("says in one sentence what went wrong, with npm's output behind details", async () => {
    const cases: [TestHub, string, string, RegExp][] = [
      [hub, "no-such-plugin", "not-found", /^There is no package named no-such-plugin on the npm registry\./],
      [hub, `${EXAMPLE}@9.9.9`, "no-matching-version", /^hub-plugin-example has no published version matching "9\.9\.9"\./],
      [offlineHub, EXAMPLE, "registry-unreachable", /^The npm registry \(127\.0\.0\.1:9\) cannot be reached \(ECONNREFUSED\)/],
    ];
    for (const [target, spec, code, sentence] of cases) {
      const { end } = await follow(target, (await start(spec, target)).id);
      assert.equal(end.state, "failed", spec);
      assert.equal(end.error?.code, code, spec);
      assert.match(end.error?.message ?? "", sentence);
      assert.match(end.error?.details ?? "", /npm error/, "npm's raw output is kept as details");
    }
    registry.offline = true;
    try {
      const { end } = await follow(hub, (await start("another-plugin")).id);
      assert.equal(end.error?.code, "registry-error");
      assert.match(end.error?.message ?? "", /^The npm registry answered with an error \(503\)/);
    } finally {
      registry.offline = false;
    }
    // The spec's synchronous install answers 400 with the same sentence.
    const sync = await call<{ error: string }>("POST", "/api/plugins/install", { packageName: "no-such-plugin" });
    assert.equal(sync.status, 400);
    assert.match(sync.body.error, /^There is no package named no-such-plugin/);
    // The list shows each job without its lines' details.
    const list = await call<{ installs: InstallJobView[] }>("GET", "/api/plugins/installs");
    assert.ok(list.body.installs.length >= 5);
    assert.ok(list.body.installs.every((j) => j.events.length <= 1 && (j.error?.details ?? null) === null));
  });

  it("installs a plugin written for another API version, and says so", async () => {
    const { end } = await follow(hub, (await start("future-plugin")).id);
    assert.equal(end.state, "succeeded", JSON.stringify(end.error));
    assert.deepEqual(end.result?.warnings, [
      "future-plugin targets plugin API version 2, this hub implements 1; loading it anyway",
    ]);
    const sync = await call<{ warnings: string[]; restartRequired: boolean }>("POST", "/api/plugins/install", {
      packageName: "future-plugin",
    });
    assert.equal(sync.status, 201, "the spec's install keeps its 201");
    assert.equal(sync.body.warnings.length, 1);
  });

  it("cancels an install waiting for its download: npm ends, nothing of it stays, the answer says so", async () => {
    const before = await pluginFiles(hub.dataDir);
    const packagesBefore = (await call<{ packages: unknown[] }>("GET", "/api/plugins")).body.packages;
    registry.stallTarballs = true;
    try {
      const job = await start("slow-plugin@0.1.0");
      // Wait for npm to ask for the tarball: the install is then mid-way, in the fetching phase.
      const response = await hub.app.request(`/api/plugins/installs/${job.id}/events`);
      const reader = response.body?.getReader();
      assert.ok(reader);
      let seen = "";
      while (!/\.tgz/.test(seen)) {
        const { value, done } = await reader.read();
        assert.ok(!done, `the stream ended before the download started: ${seen}`);
        seen += new TextDecoder().decode(value);
      }
      assert.match(seen, /"phase":"fetching"/);
      const cancelled = await call<InstallJobView>("DELETE", `/api/plugins/installs/${job.id}`);
      assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
      assert.equal(cancelled.body.state, "cancelled");
      assert.equal(cancelled.body.error?.message, "The installation of slow-plugin@0.1.0 was cancelled. Nothing was installed.");
      let rest = "";
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
        rest += new TextDecoder().decode(chunk.value);
      assert.match(rest, /event: end\ndata: \{[^\n]*"state":"cancelled"/, "followers hear the end");

      assert.deepEqual(await pluginFiles(hub.dataDir), before, "plugin folder, archives and records as before");
      assert.deepEqual((await call<{ packages: unknown[] }>("GET", "/api/plugins")).body.packages, packagesBefore);
      const twice = await call<{ error: string }>("DELETE", `/api/plugins/installs/${job.id}`);
      assert.equal(twice.status, 409);
      assert.match(twice.body.error, /already ended \(cancelled\)/);
    } finally {
      registry.stallTarballs = false;
    }
    assert.equal((await call("DELETE", "/api/plugins/installs/no-such-job")).status, 404);
    assert.equal((await call("GET", "/api/plugins/installs/no-such-job")).status, 404);
    assert.equal((await hub.app.request("/api/plugins/installs/no-such-job/events")).status, 404);
  });

  it("refuses bad input with a clear 4xx and starts no job; uploads run as jobs too", async () => {
    const count = async () => (await call<{ installs: unknown[] }>("GET", "/api/plugins/installs")).body.installs.length;
    const before = await count();
    for (const [body, message] of [
      [{ packageName: "../etc/passwd" }, /is not a package name/],
      [{ packageName: "" }, /must not be empty/],
      [{}, /packageName/],
    ] as const) {
      const refused = await call<{ error: string }>("POST", "/api/plugins/installs", body);
      assert.equal(refused.status, 400);
      assert.match(refused.body.error, message);
    }
    const wrongType = await hub.app.request("/api/plugins/installs/upload", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    assert.equal(wrongType.status, 415);
    assert.equal(await count(), before);

    const upload = await hub.app.request("/api/plugins/installs/upload?file=broken.tgz", {
      method: "POST",
      headers: { "content-type": "application/octet-stream" },
      body: "not a tarball",
    });
    assert.equal(upload.status, 202);
    const job = (await upload.json()) as InstallJobView;
    assert.deepEqual(job.source, { type: "upload", file: "broken.tgz", bytes: 13 });
    const { end } = await follow(hub, job.id);
    assert.equal(end.state, "failed");
    assert.equal(end.error?.code, "refused");
    assert.match(end.error?.message ?? "", /not an npm package archive/);
  });
});
