/** Suite 3: sustained HA state changes at fixed rates; hub and reference each in fresh processes per rate. */
import { runJob } from "../lib/jobs.ts";
import { type Row, row } from "../lib/report.ts";
import { MB, median } from "../lib/stats.ts";
import type { LoadJob, LoadResult } from "../scenarios/load.ts";
import { profileFolder, type SuiteContext, type SuiteOutput } from "./context.ts";

export async function loadSuite(ctx: SuiteContext): Promise<SuiteOutput> {
  const entities = ctx.quick ? 100 : 500;
  const rates = ctx.rates ?? (ctx.quick ? [200, 1000] : [200, 1000, 3000]);
  const durationS = ctx.quick ? 5 : 30;
  const repeats = ctx.repeats ?? 1;
  const runs: { rate: number; hub: LoadResult[]; reference: LoadResult[] }[] = [];
  let exposed: LoadResult["exposed"] | undefined;
  for (const rate of rates) {
    const entry = { rate, hub: [] as LoadResult[], reference: [] as LoadResult[] };
    runs.push(entry);
    for (let r = 0; r < repeats; r++) {
      for (const subject of ["hub", "reference"] as const) {
        ctx.log(`load: ${subject}, ${rate}/s for ${durationS} s over ${entities} entities, run ${r + 1}/${repeats}`);
        const cpuProfDir = profileFolder(ctx, `load-${rate}-${subject}-${r + 1}`);
        const job: LoadJob = {
          subject,
          entities,
          rate,
          durationS,
          runtime: ctx.runtime,
          ...(subject === "reference" ? { exposed } : {}),
          ...(cpuProfDir ? { cpuProfDir } : {}),
          verbose: ctx.verbose,
        };
        const result = await runJob<LoadResult>("load", job, 20 * 60_000, ctx.verbose);
        if (subject === "hub") exposed ??= result.exposed;
        entry[subject].push(result);
      }
    }
  }
  const rows: Row[] = [];
  for (const { rate, hub, reference } of runs) {
    const med = (results: LoadResult[], pick: (r: LoadResult) => number | null) => {
      const values = results.map(pick).filter((v): v is number => v !== null && !Number.isNaN(v));
      return values.length ? median(values) : null;
    };
    const lagWindow = (r: LoadResult, first: boolean) => {
      const window = first ? r.probeLagMs.slice(0, 5) : r.probeLagMs.slice(-5);
      return window.length ? median(window.map((p) => p.ms)) : null;
    };
    const kase = `${rate}/s over ${hub[0]?.entitiesChanged ?? entities} entities, ${durationS} s`;
    const top = rate === Math.max(...rates) && rate >= 3000;
    const hubLoop = med(hub, (r) => r.loop.p99);
    rows.push(
      row(
        "load",
        kase,
        "changes applied per second",
        "/s",
        med(hub, (r) => r.achievedRate),
        med(reference, (r) => r.achievedRate),
      ),
    );
    rows.push(
      row(
        "load",
        kase,
        "CPU (100 = one core)",
        "%",
        med(hub, (r) => r.cpuPercent),
        med(reference, (r) => r.cpuPercent),
      ),
    );
    rows.push(
      row(
        "load",
        kase,
        "driver CPU: simulated HA + controller",
        "%",
        med(hub, (r) => r.driverCpuPercent ?? null),
        med(reference, (r) => r.driverCpuPercent ?? null),
      ),
    );
    rows.push(
      row(
        "load",
        kase,
        "event-loop delay p99",
        "ms",
        hubLoop,
        med(reference, (r) => r.loop.p99),
        top && hubLoop !== null ? { text: "< 50 ms", pass: hubLoop < 50 } : undefined,
      ),
    );
    const firstLag = med(hub, (r) => lagWindow(r, true));
    const lastLag = med(hub, (r) => lagWindow(r, false));
    const drain = med(hub, (r) => r.drainMs);
    rows.push(
      row(
        "load",
        kase,
        "probe report lag, first 5 s",
        "ms",
        firstLag,
        med(reference, (r) => lagWindow(r, true)),
      ),
    );
    rows.push(
      row(
        "load",
        kase,
        "probe report lag, last 5 s",
        "ms",
        lastLag,
        med(reference, (r) => lagWindow(r, false)),
        top && firstLag !== null && lastLag !== null
          ? { text: "no growth: ≤ first 5 s + 50 ms", pass: lastLag <= firstLag + 50 }
          : undefined,
      ),
    );
    rows.push(
      row(
        "load",
        kase,
        "drain after the last change",
        "ms",
        drain,
        med(reference, (r) => r.drainMs),
        top ? { text: "≤ 1000 ms", pass: drain !== null && drain <= 1000 } : undefined,
      ),
    );
    const growth = (r: LoadResult, field: "heapUsed" | "rss") => (r.memoryAfter[field] - r.memoryBefore[field]) / MB;
    rows.push(
      row(
        "load",
        kase,
        "heap growth (after GC)",
        "MB",
        med(hub, (r) => growth(r, "heapUsed")),
        med(reference, (r) => growth(r, "heapUsed")),
      ),
    );
    rows.push(
      row(
        "load",
        kase,
        "RSS growth",
        "MB",
        med(hub, (r) => growth(r, "rss")),
        med(reference, (r) => growth(r, "rss")),
      ),
    );
  }
  return {
    rows,
    data: {
      entities,
      rates,
      durationS,
      repeats,
      runs: runs.map(({ rate, hub, reference }) => ({
        rate,
        hub: hub.map(({ exposed: _, ...rest }) => rest),
        reference: reference.map(({ exposed: _, ...rest }) => rest),
      })),
    },
  };
}
