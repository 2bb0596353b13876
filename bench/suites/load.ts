/**
 * Suite 3: sustained HA state changes at fixed rates; hub and reference each in fresh processes per rate. The top
 * rate (3,000/s) runs 5 times per subject by default and is judged run by run (issue 22: event-loop delay p99 under
 * 50 ms in 5 of 5 runs, with no growing lag); lower rates run once.
 */
import { runJob } from "../lib/jobs.ts";
import { type Row, row } from "../lib/report.ts";
import { MB, median, trend } from "../lib/stats.ts";
import type { LoadJob, LoadResult } from "../scenarios/load.ts";
import { profileFolder, type SuiteContext, type SuiteOutput } from "./context.ts";

/** The rate whose runs are judged, and the event-loop delay each run must stay under (issue 22). */
const JUDGED_RATE = 3000;
const LOOP_P99_MS = 50;
/**
 * "No growing lag": the probe's lag may rise by at most this much per second of load (Theil–Sen slope over every
 * probe of the run), i.e. under 1 s over a 30-s run. A steady run's lag scatters by hundreds of ms from one probe to
 * the next (the write queue and the 50-ms report cycle), so comparing two 5-probe medians judged noise; the slope of
 * a steady run stays within about ±10 ms/s, and a building backlog (the reference: seconds more every few seconds)
 * climbs by hundreds (docs/PERFORMANCE.md "3. Load").
 */
const LAG_TREND_MS_PER_S = 30;
const DRAIN_MS = 1000;
/** Fewer probes than this (a quick run's 5 s) give no trend worth judging. */
const MIN_TREND_PROBES = 10;

export async function loadSuite(ctx: SuiteContext): Promise<SuiteOutput> {
  const entities = ctx.quick ? 100 : 500;
  // The quick run keeps only the judged rate, at a small home and for a few seconds.
  const rates = ctx.rates ?? (ctx.quick ? [3000] : [200, 1000, 3000]);
  const durationS = ctx.quick ? 5 : 30;
  const repeatsOf = (rate: number) => ctx.repeats ?? (rate >= JUDGED_RATE && !ctx.quick ? 5 : 1);
  const runs: { rate: number; hub: LoadResult[]; reference: LoadResult[] }[] = [];
  let exposed: LoadResult["exposed"] | undefined;
  for (const rate of rates) {
    const entry = { rate, hub: [] as LoadResult[], reference: [] as LoadResult[] };
    runs.push(entry);
    const repeats = repeatsOf(rate);
    for (let r = 0; r < repeats; r++) {
      for (const subject of ctx.subjects) {
        ctx.log(`load: ${subject}, ${rate}/s for ${durationS} s over ${entities} entities, run ${r + 1}/${repeats}`);
        const cpuProfDir = profileFolder(ctx, `load-${rate}-${subject}-${r + 1}`);
        const job: LoadJob = {
          subject,
          entities,
          rate,
          durationS,
          // The quick run gives up on a probe after 15 s (a lag of at least that): the reference lags for longer.
          ...(ctx.quick ? { probeTimeoutMs: 15_000 } : {}),
          runtime: ctx.runtime,
          nodeArgs: ctx.nodeArgs,
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
    /** ms of lag gained per second of load (`at` is in ms). */
    const lagTrend = (r: LoadResult) => {
      const slope = trend(r.probeLagMs.map((p) => ({ x: p.at / 1000, y: p.ms })));
      return Number.isNaN(slope) ? null : slope;
    };
    const kase = `${rate}/s over ${hub[0]?.entitiesChanged ?? entities} entities, ${durationS} s, ${hub.length} run${hub.length === 1 ? "" : "s"}`;
    const top = rate === Math.max(...rates) && rate >= JUDGED_RATE;
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
      ),
    );
    const worstOf = (results: LoadResult[], pick: (r: LoadResult) => number | null) => {
      const values = results.map(pick).filter((v): v is number => v !== null);
      return values.length ? Math.max(...values) : null;
    };
    const worst = (results: LoadResult[]) => worstOf(results, (r) => r.loop.p99);
    rows.push(row("load", kase, "event-loop delay p99, worst run", "ms", worst(hub), worst(reference)));
    if (top) {
      // Judged run by run: every run must stay under 50 ms, and none may build a backlog.
      const loopOk = (r: LoadResult) => r.loop.p99 < LOOP_P99_MS;
      // A quick run's handful of probes gives no trend worth judging: its verdict rests on the drain.
      const lagOk = (r: LoadResult) => {
        const slope = r.probeLagMs.length < MIN_TREND_PROBES ? 0 : lagTrend(r);
        return slope !== null && slope <= LAG_TREND_MS_PER_S && r.drainMs !== null && r.drainMs <= DRAIN_MS;
      };
      const count = (results: LoadResult[], ok: (r: LoadResult) => boolean) => results.filter(ok).length;
      rows.push(
        row(
          "load",
          kase,
          `runs with event-loop delay p99 < ${LOOP_P99_MS} ms`,
          "runs",
          count(hub, loopOk),
          count(reference, loopOk),
          {
            text: `all ${hub.length}`,
            pass: hub.length > 0 && count(hub, loopOk) === hub.length,
          },
        ),
      );
      rows.push(
        row(
          "load",
          kase,
          `runs without a growing lag (lag trend ≤ ${LAG_TREND_MS_PER_S} ms/s, drain ≤ ${DRAIN_MS / 1000} s)`,
          "runs",
          count(hub, lagOk),
          count(reference, lagOk),
          {
            text: `all ${hub.length}`,
            pass: hub.length > 0 && count(hub, lagOk) === hub.length,
          },
        ),
      );
    }
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
      ),
    );
    rows.push(
      row(
        "load",
        kase,
        "probe lag trend (Theil–Sen, ms of lag per s of load), worst run",
        "ms/s",
        worstOf(hub, lagTrend),
        worstOf(reference, lagTrend),
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
      repeats: rates.map(repeatsOf),
      runs: runs.map(({ rate, hub, reference }) => ({
        rate,
        hub: hub.map(({ exposed: _, ...rest }) => rest),
        reference: reference.map(({ exposed: _, ...rest }) => rest),
      })),
    },
  };
}
