import assert from "node:assert/strict";
import { access, mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { tempDir } from "../../../lib/testing/fixtures.ts";
import { loadPluginPackage } from "./plugin-loader.ts";
import { writePluginFolder } from "./testing/plugin-fixtures.ts";

const PLUGIN = "export default class P { onStart() {} }\n";

describe("plugin loader: the main file must be inside the package", () => {
  let work: Awaited<ReturnType<typeof tempDir>>;
  let marker: string;
  let evil: string;
  before(async () => {
    work = await tempDir("plugin-loader");
    marker = join(work.path, "evil-ran");
    // Code outside any package: importing it leaves a marker file.
    evil = join(work.path, "evil.js");
    await writeFile(
      evil,
      `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(marker)}, "ran");\n${PLUGIN}`,
    );
  });
  after(() => work.remove());

  const ran = () =>
    access(marker).then(
      () => true,
      () => false,
    );

  it("loads a package whose main is inside it", async () => {
    const dir = await writePluginFolder(join(work.path, "pkgs"), "fine-plugin", PLUGIN, { main: "./index.js" });
    const loaded = await loadPluginPackage(dir);
    assert.equal(loaded.name, "fine-plugin");
  });

  it('refuses "main": "../evil.js" without running it', async () => {
    const dir = await writePluginFolder(work.path, "escaping-main", PLUGIN, { main: "../evil.js" });
    await assert.rejects(loadPluginPackage(dir), /"main" \(\.\.\/evil\.js\) must name a file inside the package/);
    assert.equal(await ran(), false);
  });

  it("refuses an absolute main", async () => {
    const dir = await writePluginFolder(join(work.path, "pkgs"), "absolute-main", PLUGIN, { main: evil });
    await assert.rejects(loadPluginPackage(dir), /must name a file inside the package/);
    assert.equal(await ran(), false);
  });

  it("refuses a main that is a symlink inside the package pointing out of it", async () => {
    const dir = await writePluginFolder(join(work.path, "pkgs"), "linked-main", PLUGIN, { main: "lib/main.js" });
    await mkdir(join(dir, "lib"));
    await symlink(evil, join(dir, "lib", "main.js"));
    await assert.rejects(loadPluginPackage(dir), /its main file lib\/main\.js leads outside the package/);
    assert.equal(await ran(), false);
  });

  it("refuses a main inside a linked folder of the package that points out of it", async () => {
    const dir = await writePluginFolder(join(work.path, "pkgs"), "linked-dir", PLUGIN, { main: "dist/evil.js" });
    await symlink(work.path, join(dir, "dist"));
    await assert.rejects(loadPluginPackage(dir), /leads outside the package/);
    assert.equal(await ran(), false);
  });

  it("refuses an installed package whose folder resolves outside the plugins folder", async () => {
    const nodeModules = join(work.path, "prefix", "node_modules");
    await mkdir(nodeModules, { recursive: true });
    const outside = await writePluginFolder(join(work.path, "elsewhere"), "outside-plugin", PLUGIN);
    await symlink(outside, join(nodeModules, "outside-plugin"));
    await assert.rejects(
      loadPluginPackage(join(nodeModules, "outside-plugin"), { within: nodeModules }),
      /its folder leads outside the plugins folder/,
    );
  });
});
