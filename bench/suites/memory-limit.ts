/**
 * Suite 5 (issue 22): the smallest `--max-old-space-size` at which the subject starts a bridge of `entities`
 * entities, is commissioned and subscribed, and holds `rate` changes per second for `durationS` seconds without
 * dying, for the hub and for the reference, each probe a fresh process (scenarios/memory-limit.ts). Found by
 * bisection to `stepMb`: the first search doubles its upper end until a probe holds; each later repeat searches
 * one step either side of the previous answer (widening while that does not bracket it). Repeats alternate hub and
 * reference. Target: the hub needs no more heap than the reference (medians of the repeats). Full: 1,000 entities,
 * 1,000/s for 60 s, 16 MB steps, 3 searches (about 12 probes of 1.5 minutes per subject on a quiet machine).
 */
import { runJob } from "../lib/jobs.ts";
import { type Row, row } from "../lib/report.ts";
import { median } from "../lib/stats.ts";
import type { MemoryLimitJob, MemoryLimitResult } from "../scenarios/memory-limit.ts";
import type { SuiteContext, SuiteOutput } from "./context.ts";

interface Plan {
  entities: number;
  rate: number;
  durationS: number;
  /** Where the first search starts: a size expected to fail and one expected to hold. */
  lowMb: number;
  highMb: number;
  stepMb: number;
  repeats: number;
  stageTimeoutMs: number;
}

const FULL: Omit<Plan, "repeats"> = {
  entities: 1000,
  rate: 1000,
  durationS: 60,
  lowMb: 128,
  highMb: 512,
  stepMb: 16,
  stageTimeoutMs: 3 * 60_000,
};
const QUICK: Omit<Plan, "repeats"> = {
  entities: 50,
  rate: 1000,
  durationS: 5,
  lowMb: 32,
  highMb: 96,
  stepMb: 32,
  stageTimeoutMs: 2 * 60_000,
};
/** Never search above this: a subject that needs more has a problem this scenario is not about. */
const CEILING_MB = 4096;

type Subject = "hub" | "reference";

export async function memoryLimitSuite(ctx: SuiteContext): Promise<SuiteOutput> {
  const base = ctx.quick ? QUICK : FULL;
  const plan: Plan = {
    ...base,
    entities: ctx.entities?.[0] ?? base.entities,
    repeats: ctx.repeats ?? (ctx.quick ? 1 : 3),
  };
  let exposed: MemoryLimitResult["exposed"];
  const probes: Record<Subject, MemoryLimitResult[]> = { hub: [], reference: [] };
  const probe = async (subject: Subject, heapMb: number): Promise<boolean> => {
    ctx.log(`memory-limit: ${subject}, ${plan.entities} entities, --max-old-space-size=${heapMb}`);
    const job: MemoryLimitJob = {
      subject,
      entities: plan.entities,
      runtime: ctx.runtime,
      heapMb,
      rate: plan.rate,
      durationS: plan.durationS,
      stageTimeoutMs: plan.stageTimeoutMs,
      ...(subject === "reference" ? { exposed } : {}),
      verbose: ctx.verbose,
    };
    const result = await runJob<MemoryLimitResult>(
      "memory-limit",
      job,
      4 * plan.stageTimeoutMs + plan.durationS * 1000,
      ctx.verbose,
    );
    if (subject === "hub" && result.exposed) exposed ??= result.exposed;
    probes[subject].push({ ...result, exposed: undefined });
    ctx.log(`memory-limit: ${subject} at ${heapMb} MB ${result.held ? "held" : `failed (${result.stage}: ${result.reason})`}`);
    return result.held;
  };

  const smallest: Record<Subject, number[]> = { hub: [], reference: [] };
  for (let r = 0; r < plan.repeats; r++) {
    // The hub first: the reference copies the hub's devices.
    for (const subject of ctx.subjects) {
      const previous = smallest[subject].at(-1);
      const window =
        previous === undefined
          ? { low: plan.lowMb, high: plan.highMb, checkLow: false }
          : { low: Math.max(plan.stepMb, previous - plan.stepMb), high: previous + plan.stepMb, checkLow: true };
      smallest[subject].push(await search((mb) => probe(subject, mb), window, plan.stepMb));
    }
  }

  const hubMb = median(smallest.hub);
  const refMb = median(smallest.reference);
  const kase = `${plan.entities} entities, ${plan.rate}/s for ${plan.durationS} s, ${plan.repeats} search${plan.repeats === 1 ? "" : "es"} to ${plan.stepMb} MB`;
  const warnedBeforeFailing = probes.hub.filter((p) => !p.held && p.warned).length;
  const hubFailures = probes.hub.filter((p) => !p.held).length;
  const rows: Row[] = [
    row("memory-limit", kase, "smallest --max-old-space-size that holds", "MB", hubMb, refMb, {
      text: "≤ reference",
      pass: hubMb <= refMb,
    }),
    row("memory-limit", kase, "… largest of the searches", "MB", Math.max(...smallest.hub), Math.max(...smallest.reference)),
    row("memory-limit", kase, "probes that failed", "probes", hubFailures, probes.reference.filter((p) => !p.held).length),
    row("memory-limit", kase, "… of them with the hub's low-memory warning logged first", "probes", warnedBeforeFailing, null),
  ];
  return { rows, data: { plan, smallest, probes } };
}

/**
 * The smallest size (a multiple of `step`) for which `holds` is true, assuming bigger always holds. The upper end
 * doubles until it holds; with `checkLow` the lower end is tested too and lowered until it fails.
 */
async function search(
  holds: (mb: number) => Promise<boolean>,
  window: { low: number; high: number; checkLow: boolean },
  step: number,
): Promise<number> {
  let { low, high } = window;
  while (!(await holds(high))) {
    low = high;
    if (high >= CEILING_MB) return Number.POSITIVE_INFINITY;
    high = Math.min(CEILING_MB, high * 2);
  }
  if (window.checkLow) {
    while (low > step && (await holds(low))) {
      high = low;
      low = Math.max(step, low - 2 * step);
    }
  }
  while (high - low > step) {
    const middle = Math.round((low + high) / 2 / step) * step;
    const mid = middle <= low ? low + step : middle >= high ? high - step : middle;
    if (await holds(mid)) high = mid;
    else low = mid;
  }
  return high;
}
