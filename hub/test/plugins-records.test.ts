import assert from "node:assert/strict";
import { access, chmod, lstat, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { tempDir } from "../../lib/testing/fixtures.ts";
import { writePluginFolder } from "../src/plugins/testing/plugin-fixtures.ts";
import { createTestHub, type TestHub } from "./support/test-context.ts";

const TRAVERSAL = "x/../../../../escape";

interface PackageRow {
  name: string;
  status: string;
  error: string | null;
  source: Record<string, string>;
}

const record = (name: string, source: unknown) => ({
  name,
  version: "1.0.0",
  description: "",
  source,
  installedAt: "2025-01-01T00:00:00.000Z",
  hubPluginApiVersion: 1,
});

/**
 * A hub whose `plugin-packages.json` (say, from a restored backup of an older hub, or edited by hand) holds hostile
 * records: the load at start refuses each one with a reason, and never links, installs or runs anything for it.
 */
describe("plugin package records loaded at start go through the install API's checks", { timeout: 120_000 }, () => {
  let work: Awaited<ReturnType<typeof tempDir>>;
  let hub: TestHub;
  let dataDir: string;
  let marker: string;
  let npmArgs: string;
  let goodDir: string;

  const call = async <T>(method: string, path: string, body?: unknown) => {
    const response = await hub.app.request(path, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as T };
  };
  const exists = (path: string) =>
    lstat(path).then(
      () => true,
      () => false,
    );
  const packages = async () => (await call<{ packages: PackageRow[] }>("GET", "/api/plugins")).body.packages;

  before(async () => {
    work = await tempDir("plugins-records");
    dataDir = join(work.path, "a", "data");
    marker = join(work.path, "evil-ran");
    npmArgs = join(work.path, "npm-args");
    // Code that leaves a marker when imported, and an npm that records how it was called.
    const evilDir = await writePluginFolder(
      work.path,
      "evil-plugin",
      `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(marker)}, "ran");\nexport default class E { onStart() {} }\n`,
    );
    goodDir = await writePluginFolder(work.path, "good-plugin", "export default class G { onStart() {} }\n");
    const npm = join(work.path, "fake-npm.sh");
    await writeFile(npm, `#!/bin/sh\necho "$@" >> ${npmArgs}\nexit 1\n`);
    await chmod(npm, 0o755);
    await mkdir(dataDir, { recursive: true });
    const records = [
      record(TRAVERSAL, { type: "local", path: evilDir }),
      record("hub-plugin-flag", { type: "registry", spec: "--registry=http://127.0.0.1:9/ file:/etc" }),
      record("hub-plugin-upload", { type: "upload", file: "../../../etc/evil.tgz" }),
      record("security", { type: "local", path: evilDir }),
      record("good-plugin", { type: "local", path: goodDir }),
    ];
    await writeFile(
      join(dataDir, "plugin-packages.json"),
      JSON.stringify({ version: 1, packages: Object.fromEntries(records.map((r) => [r.name, r])) }),
    );
    hub = await createTestHub({ dataDir, plugins: { npm: { command: npm } } });
    await hub.ctx.plugins.catalog.idle();
  });
  after(async () => {
    await hub?.stop();
    await work?.remove();
  });

  it("creates nothing outside the plugins folder and never runs npm or the code for a refused record", async () => {
    assert.equal(await exists(join(work.path, "a", "escape")), false, "no symlink outside the data dir");
    assert.equal(await exists(npmArgs), false, "npm never ran");
    assert.equal(await exists(marker), false, "the linked code never ran");
    assert.equal(
      await exists(join(dataDir, "plugin-packages", "node_modules", "good-plugin", "package.json")),
      true,
      "a valid record is linked as before",
    );
  });

  it("lists each refused record as unavailable with the reason, and logs it", async () => {
    const rows = await packages();
    const byName = new Map(rows.map((row) => [row.name, row]));
    assert.equal(byName.get("good-plugin")?.status, "installed");
    for (const [name, reason] of [
      [TRAVERSAL, /not a valid npm package name/],
      ["hub-plugin-flag", /spec/],
      ["hub-plugin-upload", /file/],
      ["security", /built-in/],
    ] as const) {
      const row = byName.get(name);
      assert.equal(row?.status, "unavailable", name);
      assert.match(row?.error ?? "", reason, name);
      assert.match(row?.error ?? "", /refused/, name);
      assert.ok(hub.logLines().some((line) => line.includes("skipped") && line.includes(JSON.stringify(name).slice(1, -1))));
    }
  });

  it("uninstall drops a refused record without running npm on its name", async () => {
    const removed = await call<{ uninstalled: string }>("POST", "/api/plugins/uninstall", { packageName: TRAVERSAL });
    assert.equal(removed.status, 200);
    assert.deepEqual(removed.body, { uninstalled: TRAVERSAL });
    const file = JSON.parse(await readFile(join(dataDir, "plugin-packages.json"), "utf8")) as {
      packages: Record<string, unknown>;
    };
    assert.deepEqual(Object.keys(file.packages).sort(), ["good-plugin", "hub-plugin-flag", "hub-plugin-upload", "security"]);
    assert.ok(!(await packages()).some((row) => row.name === TRAVERSAL));
    assert.equal(await exists(npmArgs), false);
  });

  it('refuses to link a local package whose "main" leads out of it', async () => {
    const dir = await writePluginFolder(join(work.path, "dev"), "escaping-main", "export default class X {}", {
      main: "../../evil-plugin/index.js",
    });
    const response = await call<{ error: string }>("POST", "/api/plugins/install-local", { path: dir });
    assert.equal(response.status, 400);
    assert.match(response.body.error, /"main" \(\.\.\/\.\.\/evil-plugin\/index\.js\) must name a file inside the package/);
    assert.ok(!(await packages()).some((row) => row.name === "escaping-main"));
    await assert.rejects(access(marker));
  });
});
