/**
 * `npm run bench` (inside the private network namespace): measures the hub and the portal against a reference
 * built in the same run, scenario by scenario, each measurement in fresh child processes; writes
 * bench/results/<scenario>.json and prints one table with PASS/MISS for the targets of issues 11, 19 and 22.
 *
 *   npm run bench -- [--scenario startup|latency|load|portal|portal-scale|memory-limit] [--quick] [--repeats N]
 *                    [--runtime compiled|tsx] [--entities N[,N]] [--rates N[,N]] [--heap-limit MB|none] [--profile]
 *                    [--heap] [--hub-only] [--verbose]
 *
 * --quick: small sizes and one repeat, every target still judged (a smoke run of every code path, not numbers to
 *          quote; 7.7 minutes on a quiet machine on 2026-11-27, issue 22 asks for under 8).
 * --runtime: `compiled` (default) measures the JavaScript `tsc` emits, as production runs it; `tsx` the sources.
 * --entities: start-up cases with these entities per bridge only (e.g. 500); memory-limit: its home's size.
 * --rates: load runs at these rates only (changes per second, e.g. 3000; portal-scale: sign-ups per second).
 * --heap-limit: the `--max-old-space-size` both the hub and the reference run with in the start-up, latency and load
 *          scenarios. Default: the limit the add-on gives the hub on this machine (`run.sh --heap-limit-mb`: a
 *          quarter of the memory, 256-1536 MB), so the hub is measured as users run it and the reference alike;
 *          `none` for Node's default (docs/PERFORMANCE.md "How it measures"). memory-limit sets its own.
 * portal-scale: SQLite with one and two instances, and PostgreSQL alike when PORTAL_BENCH_DATABASE_URL is set.
 * --profile: write `--cpu-prof` profiles of every measured process to bench/results/profiles/.
 * --hub-only: measure the hub alone (start-up, latency, load, memory-limit), for experiments: no reference, so no
 *          comparison and no verdict that needs one.
 * --heap: start-up only; write a sampling heap profile (every allocation until running) and a heap snapshot
 *         (once running, after GC) of every measured process to bench/results/heap/ (`bench/heap-summary.ts`).
 */
import { spawnSync } from "node:child_process";
import { parseArgs } from "node:util";
import { BUILD_DIR, REPO, RESULTS_DIR, type Runtime } from "./lib/paths.ts";
import { machine, type Row, table, writeResult } from "./lib/report.ts";
import type { SuiteContext, SuiteOutput } from "./suites/context.ts";
import { latencySuite } from "./suites/latency.ts";
import { loadSuite } from "./suites/load.ts";
import { memoryLimitSuite } from "./suites/memory-limit.ts";
import { portalSuite } from "./suites/portal.ts";
import { portalScaleSuite } from "./suites/portal-scale.ts";
import { startupSuite } from "./suites/startup.ts";

const SUITES: Record<string, (ctx: SuiteContext) => Promise<SuiteOutput>> = {
  startup: startupSuite,
  latency: latencySuite,
  load: loadSuite,
  portal: portalSuite,
  "portal-scale": portalScaleSuite,
  "memory-limit": memoryLimitSuite,
};

const { values } = parseArgs({
  options: {
    scenario: { type: "string", multiple: true },
    quick: { type: "boolean", default: false },
    repeats: { type: "string" },
    entities: { type: "string" },
    rates: { type: "string" },
    "heap-limit": { type: "string" },
    runtime: { type: "string", default: "compiled" },
    profile: { type: "boolean", default: false },
    heap: { type: "boolean", default: false },
    "hub-only": { type: "boolean", default: false },
    verbose: { type: "boolean", default: false },
    help: { type: "boolean", default: false },
  },
});
if (values.help) {
  console.log(
    "npm run bench -- [--scenario startup|latency|load|portal|portal-scale|memory-limit]... [--quick] [--repeats N] [--entities N[,N]] [--rates N[,N]] [--heap-limit MB|none] [--runtime compiled|tsx] [--profile] [--heap] [--hub-only] [--verbose]",
  );
  process.exit(0);
}
const names = values.scenario?.length ? values.scenario : Object.keys(SUITES);
for (const name of names) {
  if (!SUITES[name]) {
    console.error(`unknown scenario "${name}"; expected one of ${Object.keys(SUITES).join(", ")}`);
    process.exit(2);
  }
}
if (values.runtime !== "compiled" && values.runtime !== "tsx") {
  console.error('--runtime must be "compiled" or "tsx"');
  process.exit(2);
}
const repeats = values.repeats === undefined ? undefined : Number(values.repeats);
if (repeats !== undefined && (!Number.isInteger(repeats) || repeats < 1)) {
  console.error("--repeats must be a positive integer");
  process.exit(2);
}
if (process.env.NETNS_ISOLATED !== "1") {
  console.error("run the benchmark through `npm run bench` (it starts Matter nodes inside a private network namespace)");
  process.exit(2);
}

const log = (message: string) => console.error(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}`);

/** Compiles hub, portal and reference to dist/bench as production's `npm run build:server` does (own outDir). */
function build(): Runtime {
  log(`compiling to ${BUILD_DIR} (bench/tsconfig.build.json)`);
  const result = spawnSync(`${REPO}node_modules/.bin/tsc`, ["-p", `${REPO}bench/tsconfig.build.json`], {
    cwd: REPO,
    encoding: "utf8",
  });
  if (result.status === 0) return "compiled";
  log(`the build failed, measuring the TypeScript sources through tsx instead:\n${result.stdout}${result.stderr}`);
  return "tsx";
}

/** The `--heap-limit` value in MB, `undefined` for none; by default the add-on's own choice for this machine. */
function heapLimit(option: string | undefined): number | undefined {
  if (option === "none") return undefined;
  if (option !== undefined) {
    const mb = Number(option);
    if (!Number.isInteger(mb) || mb < 64) {
      console.error('--heap-limit must be a number of MB (at least 64) or "none"');
      process.exit(2);
    }
    return mb;
  }
  const result = spawnSync("bash", [`${REPO}run.sh`, "--heap-limit-mb"], {
    encoding: "utf8",
    env: { ...process.env, HUB_HEAP_SIZE_MB: "" },
  });
  const mb = Number(result.stdout.trim());
  if (result.status !== 0 || !Number.isInteger(mb) || mb <= 0) {
    console.error(`run.sh --heap-limit-mb did not print a limit:\n${result.stdout}${result.stderr}`);
    process.exit(2);
  }
  return mb;
}

let runtime: Runtime = values.runtime;
if (runtime === "compiled") runtime = build();
const rates = values.rates?.split(",").map(Number);
if (rates?.some((n) => !Number.isInteger(n) || n < 1)) {
  console.error("--rates must be a comma-separated list of changes per second, e.g. 3000 or 200,1000");
  process.exit(2);
}
const entities = values.entities?.split(",").map(Number);
if (entities?.some((n) => !Number.isInteger(n) || n < 1)) {
  console.error("--entities must be a comma-separated list of entity counts per bridge, e.g. 500 or 250,500");
  process.exit(2);
}
const heapLimitMb = heapLimit(values["heap-limit"]);
log(
  heapLimitMb === undefined
    ? "subjects run with Node's default heap limit"
    : `subjects run with --max-old-space-size=${heapLimitMb}`,
);
const ctx: SuiteContext = {
  quick: values.quick,
  nodeArgs: heapLimitMb === undefined ? [] : [`--max-old-space-size=${heapLimitMb}`],
  entities,
  rates,
  runtime,
  repeats,
  profileDir: values.profile ? `${RESULTS_DIR}/profiles` : undefined,
  heapDir: values.heap ? `${RESULTS_DIR}/heap` : undefined,
  subjects: values["hub-only"] ? ["hub"] : ["hub", "reference"],
  verbose: values.verbose,
  log,
};

const allRows: Row[] = [];
let failed = false;
for (const name of names) {
  const startedAt = new Date().toISOString();
  const before = machine(runtime);
  const began = performance.now();
  try {
    const output = await (SUITES[name] as (ctx: SuiteContext) => Promise<SuiteOutput>)(ctx);
    const path = writeResult(name, {
      scenario: name,
      quick: ctx.quick,
      startedAt,
      durationS: Math.round((performance.now() - began) / 1000),
      machine: { ...before, loadAverageAfter: machine(runtime).loadAverage, heapLimitMb: heapLimitMb ?? null },
      rows: output.rows,
      data: output.data,
    });
    allRows.push(...output.rows);
    log(`${name}: done in ${Math.round((performance.now() - began) / 1000)} s → ${path}`);
    console.log(`\n## ${name}\n\n${table(output.rows)}`);
  } catch (error) {
    failed = true;
    log(`${name} FAILED: ${error instanceof Error ? error.message : String(error)}`);
  }
}

const targets = allRows.filter((r) => r.verdict !== "-");
if (targets.length > 0) {
  console.log(`\n## targets\n\n${table(targets)}`);
  const missed = targets.filter((r) => r.verdict === "MISS").length;
  console.log(
    `\n${targets.length - missed} of ${targets.length} targets met${ctx.quick ? " (quick run: sizes too small to judge)" : ""}`,
  );
}
process.exitCode = failed ? 1 : 0;
