// The suite, run by `npm test` inside scripts/isolate.sh: lint, type-check, import rules, build the web UIs, then
// every *.test.ts through node:test with tsx except the browser suites, which `npm run test:ui` runs (`--ui`). It
// ends by naming every suite it did not run and why (never silently). `--postgres` (`npm run test:postgres`): the
// portal's shared database suite again on PostgreSQL (a throwaway cluster, scripts/with-postgres.mjs); it is not
// part of `npm test` because the two together pass 15 minutes on 2 cores. .ci/run runs all of them. Exits non-zero
// on the first failing step.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { postgresUnavailable, startPostgres } from "./with-postgres.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const skipDirs = new Set(["node_modules", "dist", "data", ".git", "test-artifacts"]);
// `--ui`: the browser suites only (web/test/, headless Chromium against real servers; `npm run test:ui`). Without
// it they are left out: with them the whole run passed 14 minutes on 2 cores, and `npm test` must stay under 15.
const uiOnly = process.argv.includes("--ui");
const postgresOnly = process.argv.includes("--postgres");
const only = process.argv.slice(2).filter((arg) => arg !== "--ui" && arg !== "--postgres");
// The portal's tests that run on whichever database PORTAL_TEST_DATABASE_URL names: the app suites (through the
// portal harness) and the repository and schema tests (through test-database.ts).
const DATABASE_SUITE = /support\/(portal-harness|mas-harness|test-database)\.ts"/;
const UI_SUITES = "web/test/";

function findTests(dir) {
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!skipDirs.has(entry.name) && !entry.name.startsWith(".")) found.push(...findTests(join(dir, entry.name)));
    } else if (entry.name.endsWith(".test.ts") || entry.name.endsWith(".test.tsx")) found.push(join(dir, entry.name));
  }
  return found;
}

/**
 * Runs one step in its own process group, so that a time limit ends the step with everything it spawned (node --test
 * runs each file in a child process). Exits non-zero when the step fails or times out.
 */
async function step(name, command, args, timeoutMinutes, options = {}) {
  const started = Date.now();
  console.log(`\n▶ ${name}`);
  const env = { ...process.env, ...options.env };
  const child = spawn(command, args, { cwd: root, stdio: "inherit", detached: true, env });
  const killGroup = (signal) => {
    try {
      process.kill(-child.pid, signal);
    } catch {}
  };
  // The group is not the terminal's foreground group any more: pass Ctrl-C and a stop on.
  const forward = (signal) => killGroup(signal);
  process.on("SIGINT", forward).on("SIGTERM", forward);
  let timedOut = false;
  const timer =
    timeoutMinutes &&
    setTimeout(() => {
      timedOut = true;
      killGroup("SIGKILL");
    }, timeoutMinutes * 60_000);
  const [status] = await once(child, "exit");
  clearTimeout(timer);
  process.off("SIGINT", forward).off("SIGTERM", forward);
  if (timedOut) {
    // A test file whose process never exits (a handle left open after its tests passed) would otherwise hold CI
    // until its own time limit.
    console.log(`  ${name}: TIMED OUT after ${timeoutMinutes} min. A test file did not exit (a timer, socket or`);
    console.log("  storage left open): the files above without a summary line are the suspects.");
    await options.cleanup?.();
    process.exit(1);
  }
  console.log(`  ${name}: ${status === 0 ? "ok" : "FAILED"} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (status !== 0) {
    await options.cleanup?.();
    process.exit(status ?? 1);
  }
}

const bin = (name) => join(root, "node_modules", ".bin", name);
const testArgs = (files) => ["--import", "tsx", "--test", "--test-concurrency=2", "--test-reporter=spec", ...files];
const allTests = findTests(root)
  .map((file) => relative(root, file))
  .filter((file) => only.length === 0 || only.some((part) => file.includes(part)))
  .sort();

if (!postgresOnly) {
  if (only.length === 0 && !uiOnly) {
    await step("lint (biome)", bin("biome"), ["check", "."]);
    await step("type-check (tsc)", bin("tsc"), ["-p", "tsconfig.json", "--noEmit"]);
    await step("import rules (dependency-cruiser)", "npm", ["run", "--silent", "lint:imports"]);
  }
  await step("build web UIs (vite)", "npm", ["run", "--silent", "build:web"]);
  const files = allTests.filter((file) => file.startsWith(UI_SUITES) === uiOnly);
  await step(`tests (${files.length} files)`, process.execPath, testArgs(files), 14);
}
if (postgresOnly) await postgresSuite();
else if (!uiOnly && only.length === 0) notRunHere();

/** What `npm test` leaves to other commands or skipped for lack of a tool, said at the end where it is read. */
function notRunHere() {
  const postgres = postgresUnavailable();
  const nginx = existsSync(process.env.NGINX ?? "/usr/sbin/nginx") ? undefined : "nginx not found (apt-get install nginx-light)";
  console.log("\nnot run by npm test (each has its own command; .ci/run runs them all):");
  console.log("  skipped: browser suites (web/test/) — headless Chromium: npm run test:ui");
  console.log(
    `  skipped: PostgreSQL suite — with it npm test would pass 15 minutes: npm run test:postgres${postgres ? ` (cannot run here: ${postgres})` : ""}`,
  );
  console.log("  skipped: interop with the Matter SDK's controller, Home Assistant and Synapse — npm run test:interop");
  if (nginx) console.log(`  skipped: portal/test/instances-nginx.test.ts — ${nginx}`);
}

/**
 * The portal's database suite on PostgreSQL: a cluster of its own for the run, stopped and deleted afterwards
 * whatever the outcome. Never skipped silently: without PostgreSQL it says so and why, and the run still passes.
 */
async function postgresSuite() {
  const files = allTests.filter(
    (file) => file.startsWith("portal/") && DATABASE_SUITE.test(readFileSync(join(root, file), "utf8")),
  );
  const why = postgresUnavailable();
  if (why) {
    console.log(`\nskipped: PostgreSQL suite — ${why}`);
    if (postgresOnly) process.exit(1);
    return;
  }
  if (files.length === 0) {
    console.log("\nskipped: PostgreSQL suite — no portal database test matches the names given");
    return;
  }
  const cluster = await startPostgres();
  await step(`tests on PostgreSQL (${files.length} portal files)`, process.execPath, testArgs(files), 8, {
    env: { PORTAL_TEST_DATABASE_URL: cluster.url },
    cleanup: () => cluster.stop(),
  });
  await cluster.stop();
}
