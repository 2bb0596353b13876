import assert from "node:assert/strict";
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { after, before, describe, it } from "node:test";
import { memoryLogger } from "../../../lib/testing/fixtures.ts";
import { type InstallEvent, type InstallJobMessage, InstallJobs, type InstallJobView } from "./install-jobs.ts";
import { PluginInstaller } from "./installer.ts";
import { INSTALL_PHASES } from "./npm-progress.ts";
import { createNpmRunner, type NpmRunner } from "./npm-runner.ts";
import { type PackagePaths, PackageRegistry, packagePaths } from "./package-registry.ts";
import { writeFakeNpm } from "./testing/fake-npm-cli.ts";

/** Every file under `dir` with its contents (links as their target): what "as before the install" compares. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  const walk = async (current: string) => {
    for (const entry of await readdir(current, { withFileTypes: true }).catch(() => [])) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) await walk(path);
      else files[relative(dir, path)] = await readFile(path, "utf8");
    }
  };
  await walk(dir);
  return files;
}

describe("install jobs (installer with a fake npm)", () => {
  let work: string;
  let paths: PackagePaths;
  let fakeNpm: string;
  let registry: PackageRegistry;
  const runners: NpmRunner[] = [];

  const setup = (env: Record<string, string> = {}) => {
    const npm = createNpmRunner({ command: fakeNpm, env, killGraceMs: 500 });
    runners.push(npm);
    const installer = new PluginInstaller({ paths, npm, registry, reservedNames: ["security"], log: memoryLogger().log });
    const jobs = new InstallJobs();
    const install = (spec: string) =>
      jobs.start({ type: "registry", spec }, async (watch) => ({
        package: await installer.installFromRegistry(spec, watch),
        restartRequired: false,
        warnings: [],
      }));
    return { installer, jobs, install };
  };
  /** Follows a job to its end; resolves with every message. */
  const follow = (jobs: InstallJobs, id: string, onProgress?: (event: InstallEvent) => void) =>
    new Promise<{ events: InstallEvent[]; end: InstallJobView }>((resolve) => {
      const events: InstallEvent[] = [];
      jobs.follow(id, 0, (message: InstallJobMessage) => {
        if (message.type === "progress") {
          events.push(message.event);
          onProgress?.(message.event);
        } else resolve({ events, end: message.job });
      });
    });

  before(async () => {
    work = await mkdtemp(join(tmpdir(), "install-jobs-"));
    paths = packagePaths(join(work, "data"));
    fakeNpm = await writeFakeNpm(work);
    registry = new PackageRegistry(paths.record, { reservedNames: ["security"], log: memoryLogger().log });
    await registry.load();
  });
  after(async () => {
    for (const runner of runners) runner.close();
    await rm(work, { recursive: true, force: true });
  });

  it("reports progress in order, phase by phase, and records the package", async () => {
    const { jobs, install } = setup();
    const { id, settled } = install("first-plugin@1.0.0");
    const { events, end } = await follow(jobs, id);
    await settled;
    assert.equal(end.state, "succeeded", JSON.stringify(end.error));
    assert.deepEqual(
      events.map((event) => event.seq),
      events.map((_, index) => index + 1),
      "numbered from 1, none missing",
    );
    const phases = [...new Set(events.map((event) => event.phase))];
    assert.deepEqual(phases, ["resolving", "fetching", "extracting", "checking", "recording"]);
    for (let i = 1; i < events.length; i++) {
      const [before, now] = [events[i - 1], events[i]];
      assert.ok(INSTALL_PHASES.indexOf(now?.phase ?? "queued") >= INSTALL_PHASES.indexOf(before?.phase ?? "queued"));
    }
    assert.ok(
      events.some((event) => event.message === "ADD node_modules/first-plugin"),
      "npm's own lines",
    );
    assert.ok(!events.some((event) => /config load/.test(event.message)), "npm's config noise is left out");
    assert.equal(end.result?.package.version, "1.0.0");
    assert.equal(registry.get("first-plugin")?.version, "1.0.0");
    assert.ok(await stat(join(paths.prefix, "node_modules", "first-plugin", "index.js")));
    assert.deepEqual(await readdir(join(work, "data")), ["plugin-packages", "plugin-packages.json"], "no staging left");
  });

  for (const [what, spec] of [
    ["a new package", "second-plugin@1.0.0"],
    ["an upgrade of an installed one", "first-plugin@2.0.0"],
  ] as const) {
    it(`cancels mid-install of ${what}: npm ends, the folder and the records are as before`, async () => {
      const before = await snapshot(join(work, "data"));
      const { jobs, install } = setup({ FAKE_NPM_HANG: "1" });
      const { id } = install(spec);
      let cancelled: Promise<InstallJobView | undefined> | undefined;
      // npm has written half the package when it prints the tarball line: cancel right there.
      const { end } = await follow(jobs, id, (event) => {
        if (/^tarball extracting/.test(event.message)) cancelled ??= jobs.cancel(id);
      });
      assert.ok(cancelled, "the install got as far as writing the package");
      const answer = await cancelled;
      assert.equal(answer?.state, "cancelled");
      assert.equal(end.state, "cancelled");
      assert.equal(end.error?.code, "cancelled");
      assert.match(end.error?.message ?? "", new RegExp(`^The installation of ${spec} was cancelled. Nothing was installed.$`));
      assert.deepEqual(await snapshot(join(work, "data")), before);
      assert.deepEqual(await readdir(join(work, "data")), ["plugin-packages", "plugin-packages.json"]);
      assert.equal(registry.get("first-plugin")?.version, "1.0.0");
      assert.equal(registry.get("second-plugin"), undefined);
      await assert.rejects(jobs.cancel(id), /already ended \(cancelled\)/);
    });
  }

  it("a failed install ends with the sentence and details, and changes nothing", async () => {
    const before = await snapshot(join(work, "data"));
    const stderr = join(work, "e404.txt");
    await writeFile(stderr, "npm error code E404\nnpm error 404 Not Found - GET http://registry.test/no-such-plugin\n");
    const { jobs, install } = setup({ FAKE_NPM_FAIL: stderr });
    const { id, settled } = install("no-such-plugin");
    await assert.rejects(settled, /There is no package named no-such-plugin/);
    const job = jobs.get(id);
    assert.equal(job?.state, "failed");
    assert.equal(job?.error?.code, "not-found");
    assert.match(job?.error?.details ?? "", /404 Not Found - GET http:\/\/registry.test\/no-such-plugin/);
    assert.deepEqual(await snapshot(join(work, "data")), before);
  });

  it("cancels a queued job before it runs; a second cancel is refused", async () => {
    const { jobs, install } = setup({ FAKE_NPM_HANG: "1" });
    const first = install("third-plugin@1.0.0");
    const second = install("fourth-plugin@1.0.0");
    assert.equal(jobs.get(second.id)?.state, "queued");
    const answer = await jobs.cancel(second.id);
    assert.equal(answer?.state, "cancelled");
    assert.match(answer?.error?.message ?? "", /cancelled before it started/);
    assert.deepEqual(
      jobs.list().map((job) => job.id),
      [second.id, first.id],
      "newest first",
    );
    await jobs.cancel(first.id);
    await assert.rejects(first.settled, /was cancelled/);
    await assert.rejects(second.settled, /was cancelled/);
    assert.equal(registry.get("fourth-plugin"), undefined);
    assert.equal(await jobs.cancel("no-such-job"), undefined);
  });
});
