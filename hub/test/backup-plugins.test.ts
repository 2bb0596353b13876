import assert from "node:assert/strict";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { after, before, beforeEach, describe, it } from "node:test";
import { tempDir } from "../../lib/testing/fixtures.ts";
import { backupApp, bridgesFile, craft, type Entry, put, storedBridge, tree } from "./support/backup-fixtures.ts";

const record = (name: string, source: unknown) => ({
  name,
  version: "1.0.0",
  description: "",
  source,
  installedAt: "2025-01-01T00:00:00.000Z",
  hubPluginApiVersion: 1,
});
const packagesFile = (...records: { name: string }[]) =>
  JSON.stringify({ version: 1, packages: Object.fromEntries(records.map((r) => [r.name, r])) });
const stateOf = (bridgeId: string, plugin: string, state: unknown): Entry => ({
  name: `plugins/${bridgeId}/${encodeURIComponent(plugin)}/state.json`,
  data: JSON.stringify(state),
});
const bridges: Entry = { name: "bridges.json", data: bridgesFile(storedBridge("b9", 5609), storedBridge("b8", 5608)) };

interface Preview {
  plugins: { name: string; version: string; source: Record<string, string>; enabledOn: string[] }[];
  valid: boolean;
  problems: string[];
  allowLocalPlugins: boolean;
}

describe("restoring plugin packages from a backup: every record is untrusted input", () => {
  let work: Awaited<ReturnType<typeof tempDir>>;
  const data = () => join(work.path, "data");
  let world: ReturnType<typeof backupApp>;

  before(async () => {
    work = await tempDir("backup-plugins");
  });
  after(() => work.remove());
  beforeEach(() => {
    rmSync(data(), { recursive: true, force: true });
    mkdirSync(data());
    put(data(), "bridges.json", { version: 1, bridges: [storedBridge("b1", 5601)] });
    put(data(), "plugin-packages.json", { version: 1, packages: {} });
    world = backupApp(data(), { reservedPluginNames: ["camera", "security"] });
  });

  /** Preview and restore both answer 400 `{error}` matching `message`; nothing changed, nothing stopped. */
  const refused = async (zip: Buffer, message: RegExp, options: unknown = {}) => {
    const picture = tree(data());
    for (const path of ["restore/preview", "restore"] as const) {
      const response = await world.upload(path, zip, options);
      const body = (await response.json()) as { error: string };
      assert.equal(response.status, 400, `${path}: ${JSON.stringify(body)}`);
      assert.deepEqual(Object.keys(body), ["error"]);
      assert.match(body.error, message);
    }
    assert.deepEqual(tree(data()), picture, "the data dir is byte for byte unchanged");
    assert.equal(world.counts.quiesced, 0, "no bridge was stopped");
    assert.equal(world.service.restartPending, false);
  };

  it("the issue's attack: a traversal name linking a local folder, enabled on a bridge, is refused", async () => {
    const name = "x/../../../../tmp/link";
    const zip = await craft([
      bridges,
      { name: "plugin-packages.json", data: packagesFile(record(name, { type: "local", path: "/tmp/evil" })) },
      stateOf("b9", name, { enabled: true, autoDisabled: false, failures: 0, lastError: null }),
    ]);
    await refused(
      zip,
      /plugin-packages\.json: refused package records: "x\/\.\.\/\.\.\/\.\.\/\.\.\/tmp\/link": not a valid npm package name/,
    );
    await refused(zip, /not a valid npm package name/, { allowLocalPlugins: true });
  });

  const hostile: [string, unknown, RegExp][] = [
    ["a spec that is an npm option", { type: "registry", spec: "--registry=http://127.0.0.1:9/ file:/etc" }, /spec/],
    ["a file: spec", { type: "registry", spec: "hub-plugin-x@file:/etc" }, /spec/],
    ["a spec installing another package", { type: "registry", spec: "other-plugin@1" }, /installs other-plugin/],
    ["an upload file with a path", { type: "upload", file: "../../../etc/evil.tgz" }, /file/],
    ["a relative local path", { type: "local", path: "tmp/evil" }, /absolute/],
    ["an unknown source type", { type: "git", url: "https://example.com/x.git" }, /type/],
  ];
  for (const [what, source, message] of hostile) {
    it(`refuses ${what}`, async () => {
      const zip = await craft([bridges, { name: "plugin-packages.json", data: packagesFile(record("hub-plugin-x", source)) }]);
      await refused(zip, message);
    });
  }

  it("refuses a package taking a built-in's name, and plugin state that is not a state", async () => {
    const builtin = record("security", { type: "registry", spec: "security" });
    await refused(await craft([bridges, { name: "plugin-packages.json", data: packagesFile(builtin) }]), /built-in/);
    await refused(await craft([bridges, stateOf("b9", "hub-plugin-x", { enabled: "yes" })]), /state\.json: enabled/);
    await refused(await craft([bridges, stateOf("b9", "hub-plugin-x", [true])]), /state\.json/);
    const config = { name: "plugins/b9/hub-plugin-x/config.json", data: '"not an object"' };
    await refused(await craft([bridges, config]), /config\.json: must be a JSON object/);
  });

  it("lists every plugin the restore installs and where it is enabled; a local link needs explicit consent", async () => {
    const devFolder = join(work.path, "dev-plugin");
    const zip = await craft([
      bridges,
      {
        name: "plugin-packages.json",
        data: packagesFile(
          record("hub-plugin-dev", { type: "local", path: devFolder }),
          record("@acme/hub-plugin", { type: "registry", spec: "@acme/hub-plugin@^1.0.0" }),
          record("hub-plugin-upload", { type: "upload", file: "hub-plugin-upload-1.0.0.tgz" }),
        ),
      },
      stateOf("b9", "hub-plugin-dev", { enabled: true, autoDisabled: false, failures: 0, lastError: null }),
      stateOf("b8", "hub-plugin-dev", { enabled: false, autoDisabled: false, failures: 0, lastError: null }),
      stateOf("b8", "@acme/hub-plugin", { enabled: true }),
      stateOf("b9", "@acme/hub-plugin", { enabled: true }),
    ]);
    const picture = tree(data());
    const previewed = await world.upload("restore/preview", zip);
    assert.equal(previewed.status, 200);
    const preview = (await previewed.json()) as Preview;
    assert.deepEqual(preview.plugins, [
      { name: "hub-plugin-dev", version: "1.0.0", source: { type: "local", path: devFolder }, enabledOn: ["b9"] },
      {
        name: "@acme/hub-plugin",
        version: "1.0.0",
        source: { type: "registry", spec: "@acme/hub-plugin@^1.0.0" },
        enabledOn: ["b8", "b9"],
      },
      {
        name: "hub-plugin-upload",
        version: "1.0.0",
        source: { type: "upload", file: "hub-plugin-upload-1.0.0.tgz" },
        enabledOn: [],
      },
    ]);
    assert.equal(preview.valid, false);
    assert.equal(preview.allowLocalPlugins, false);
    assert.equal(preview.problems.length, 1);
    assert.match(
      preview.problems[0] ?? "",
      /hub-plugin-dev is linked from the local folder .*dev-plugin.*"allowLocalPlugins": true/,
    );

    const refusedRestore = await world.upload("restore", zip);
    assert.equal(refusedRestore.status, 400);
    assert.match(((await refusedRestore.json()) as { error: string }).error, /allowLocalPlugins/);
    assert.deepEqual(tree(data()), picture, "nothing changed without consent");
    assert.equal(world.counts.quiesced, 0);

    const consented = await world.upload("restore/preview", zip, { allowLocalPlugins: true });
    assert.deepEqual(
      { ...((await consented.json()) as Preview), plugins: undefined },
      { ...preview, plugins: undefined, valid: true, problems: [], allowLocalPlugins: true },
    );
    const restored = await world.upload("restore", zip, { allowLocalPlugins: true });
    assert.equal(restored.status, 200, await restored.clone().text());
    const packages = JSON.parse(readFileSync(join(data(), "plugin-packages.json"), "utf8")) as {
      packages: Record<string, unknown>;
    };
    assert.deepEqual(Object.keys(packages.packages).sort(), ["@acme/hub-plugin", "hub-plugin-dev", "hub-plugin-upload"]);
  });

  it("refuses unknown restore options rather than ignoring a misspelt consent", async () => {
    const zip = await craft([bridges]);
    const response = await world.upload("restore/preview", zip, { allowLocalPlugin: true });
    assert.equal(response.status, 400);
    assert.match(((await response.json()) as { error: string }).error, /allowLocalPlugin/);
  });
});
