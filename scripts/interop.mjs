// `npm run test:interop`: the hub against the Matter reference SDK's controller and a real Home Assistant, and the
// portal against a real Synapse (docs/INTEROP.md). Outside any namespace it first makes the Python environments
// (.cache/interop/, pinned, reused while their requirements file is unchanged), then enters private network and mount
// namespaces, where hub/test/interop/netns.sh gives the run its own test link, and runs hub/test/interop/*.interop.ts
// and portal/test/interop/*.interop.ts.
// Usage: node scripts/interop.mjs [part-of-file-name ...]
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const interopDir = join(root, "hub", "test", "interop");
const portalInteropDir = join(root, "portal", "test", "interop");
const cache = join(root, ".cache", "interop");
const only = process.argv.slice(2);
/** The whole run, set-up included, is cut off here (the budget is 25 minutes cold). */
const LIMIT_MINUTES = 30;

function fail(message) {
  console.error(`interop: ${message}`);
  process.exit(1);
}

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: "inherit", ...options });
  if (result.status !== 0) fail(`${command} ${args.join(" ")} failed (${result.status ?? result.signal})`);
}

/** A venv per component (the SDK, Home Assistant and Synapse pin different versions of shared packages). */
function ensureVenv(name, dir = interopDir) {
  const requirements = join(dir, `requirements-${name}.txt`);
  const wanted = createHash("sha256").update(readFileSync(requirements)).digest("hex");
  const venv = join(cache, name);
  const stamp = join(venv, ".requirements.sha256");
  if (existsSync(stamp) && readFileSync(stamp, "utf8") === wanted) return;
  console.log(`interop: preparing the ${name} environment (${relative(root, venv)})`);
  run("python3", ["-m", "venv", "--clear", venv]);
  // Every package is pinned in the file (transitive ones too), so nothing is resolved anew: --no-deps.
  run(join(venv, "bin", "pip"), ["install", "--quiet", "--disable-pip-version-check", "--no-deps", "-r", requirements]);
  writeFileSync(stamp, wanted);
}

function checkSystem() {
  const libraries = spawnSync("/sbin/ldconfig", ["-p"], { encoding: "utf8" }).stdout ?? "";
  for (const library of ["libnl-3.so.200", "libnl-route-3.so.200", "libglib-2.0.so.0"]) {
    if (!libraries.includes(library)) {
      fail(`${library} is missing: install libnl-3-200 libnl-route-3-200 libglib2.0-0 (.ci/run does)`);
    }
  }
  // The SDK's wheels write /data/chip_*.ini; netns.sh bind-mounts a private folder over /data, which must exist.
  if (!existsSync("/data")) {
    if (process.getuid?.() === 0) run("mkdir", ["-p", "/data"]);
    else fail("/data must exist as an empty mount point (sudo mkdir /data; .ci/run does)");
  }
}

function findTests() {
  return [interopDir, portalInteropDir].flatMap((dir) =>
    readdirSync(dir)
      .filter((name) => name.endsWith(".interop.ts"))
      .filter((name) => only.length === 0 || only.some((part) => name.includes(part)))
      .sort()
      .map((name) => relative(root, join(dir, name))),
  );
}

checkSystem();
ensureVenv("chip");
ensureVenv("ha");
ensureVenv("synapse", portalInteropDir);
const files = findTests();
if (files.length === 0) fail(`no interop test matches ${only.join(" ")}`);

const work = mkdtempSync(join(tmpdir(), "hub-interop-"));
const flags = process.getuid?.() === 0 ? "-nm" : "-rnm";
const started = Date.now();
console.log(`\n▶ interop (${files.length} files) in a private test network`);
const child = spawn(
  "unshare",
  [
    flags,
    "--",
    "sh",
    join(interopDir, "netns.sh"),
    process.execPath,
    "--import",
    "tsx",
    "--test",
    "--test-concurrency=1",
    "--test-reporter=spec",
    ...files,
  ],
  { cwd: root, stdio: "inherit", detached: true, env: { ...process.env, INTEROP_WORK: work } },
);
const killGroup = (signal) => {
  try {
    process.kill(-child.pid, signal);
  } catch {}
};
process.on("SIGINT", () => killGroup("SIGINT")).on("SIGTERM", () => killGroup("SIGTERM"));
let timedOut = false;
const timer = setTimeout(() => {
  timedOut = true;
  killGroup("SIGKILL");
}, LIMIT_MINUTES * 60_000);
child.on("exit", (status) => {
  clearTimeout(timer);
  rmSync(work, { recursive: true, force: true });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (timedOut) fail(`TIMED OUT after ${LIMIT_MINUTES} min (logs in test-artifacts/interop/)`);
  console.log(`  interop: ${status === 0 ? "ok" : "FAILED"} in ${seconds} s (logs in test-artifacts/interop/)`);
  process.exit(status ?? 1);
});
