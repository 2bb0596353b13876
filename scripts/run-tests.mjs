// The whole suite, run by `npm test` inside scripts/isolate.sh: lint, type-check, build the web UIs, then every
// *.test.ts through node:test with tsx. Exits non-zero on the first failing step.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const skipDirs = new Set(["node_modules", "dist", "data", ".git", "test-artifacts"]);
const only = process.argv.slice(2);

function findTests(dir) {
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!skipDirs.has(entry.name) && !entry.name.startsWith(".")) found.push(...findTests(join(dir, entry.name)));
    } else if (entry.name.endsWith(".test.ts") || entry.name.endsWith(".test.tsx")) found.push(join(dir, entry.name));
  }
  return found;
}

function step(name, command, args) {
  const started = Date.now();
  console.log(`\n▶ ${name}`);
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit" });
  console.log(`  ${name}: ${result.status === 0 ? "ok" : "FAILED"} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const bin = (name) => join(root, "node_modules", ".bin", name);
if (only.length === 0) {
  step("lint (biome)", bin("biome"), ["check", "."]);
  step("type-check (tsc)", bin("tsc"), ["-p", "tsconfig.json", "--noEmit"]);
}
step("build web UIs (vite)", "npm", ["run", "--silent", "build:web"]);

const files = findTests(root)
  .map((file) => relative(root, file))
  .filter((file) => only.length === 0 || only.some((part) => file.includes(part)))
  .sort();
step(`tests (${files.length} files)`, process.execPath, [
  "--import",
  "tsx",
  "--test",
  "--test-concurrency=2",
  "--test-reporter=spec",
  ...files,
]);
