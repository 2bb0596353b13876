/**
 * Suite 2: latency with a subscribed controller, hub then reference in fresh processes, `samples` each. The targets
 * are judged on every run (each hub run against the reference run beside it), and the pooled percentiles of all
 * runs are shown as well.
 */
import { runJob } from "../lib/jobs.ts";
import { type Row, row } from "../lib/report.ts";
import { distribution, median } from "../lib/stats.ts";
import type { LatencyJob, LatencyResult } from "../scenarios/latency.ts";
import { profileFolder, type SuiteContext, type SuiteOutput } from "./context.ts";

export async function latencySuite(ctx: SuiteContext): Promise<SuiteOutput> {
  const entities = ctx.quick ? 50 : 500;
  const samples = ctx.quick ? 30 : 300;
  const repeats = ctx.repeats ?? 1;
  const runs: { hub: LatencyResult[]; reference: LatencyResult[] } = { hub: [], reference: [] };
  let exposed: LatencyResult["exposed"] | undefined;
  for (let r = 0; r < repeats; r++) {
    for (const subject of ctx.subjects) {
      ctx.log(`latency: ${subject}, ${entities} entities, ${samples} samples, run ${r + 1}/${repeats}`);
      const cpuProfDir = profileFolder(ctx, `latency-${subject}-${r + 1}`);
      const job: LatencyJob = {
        subject,
        entities,
        samples,
        runtime: ctx.runtime,
        nodeArgs: ctx.nodeArgs,
        ...(subject === "reference" ? { exposed } : {}),
        ...(cpuProfDir ? { cpuProfDir } : {}),
        verbose: ctx.verbose,
      };
      const result = await runJob<LatencyResult>("latency", job, 20 * 60_000, ctx.verbose);
      if (subject === "hub") exposed ??= result.exposed;
      runs[subject].push(result);
    }
  }
  // All samples of all runs pooled: percentiles need the samples, not medians of percentiles.
  const pooled = (results: LatencyResult[], key: "stateToReportMs" | "commandToCallMs" | "invokeMs") =>
    distribution(results.flatMap((r) => r[key]));
  const hubState = pooled(runs.hub, "stateToReportMs");
  const refState = pooled(runs.reference, "stateToReportMs");
  const hubCommand = pooled(runs.hub, "commandToCallMs");
  const refCommand = pooled(runs.reference, "commandToCallMs");
  const hubInvoke = pooled(runs.hub, "invokeMs");
  const refInvoke = pooled(runs.reference, "invokeMs");
  const kase = `1 bridge, ${entities} entities, ${hubState.count} samples, ${runs.hub.length} run${runs.hub.length === 1 ? "" : "s"}`;
  const p50 = (samples: number[]) => distribution(samples).p50;
  const stateOk = runs.hub.filter((r, i) => {
    const reference = runs.reference[i];
    return reference !== undefined && p50(r.stateToReportMs) <= p50(reference.stateToReportMs) + 10;
  }).length;
  const commandOk = runs.hub.filter((r) => p50(r.commandToCallMs) < 15).length;
  const all = runs.hub.length;
  const rows: Row[] = [
    row("latency", kase, "runs with state change → report p50 ≤ the reference run's + 10 ms", "runs", stateOk, null, {
      text: `all ${all}`,
      pass: all > 0 && stateOk === all,
    }),
    row("latency", kase, "runs with command → service call p50 < 15 ms", "runs", commandOk, null, {
      text: `all ${all}`,
      pass: all > 0 && commandOk === all,
    }),
    row("latency", kase, "state change → report p50", "ms", hubState.p50, refState.p50),
    row("latency", kase, "state change → report p95", "ms", hubState.p95, refState.p95),
    row("latency", kase, "state change → report p99", "ms", hubState.p99, refState.p99),
    row("latency", kase, "command → service call p50", "ms", hubCommand.p50, refCommand.p50),
    row("latency", kase, "command → service call p95", "ms", hubCommand.p95, refCommand.p95),
    row("latency", kase, "command → service call p99", "ms", hubCommand.p99, refCommand.p99),
    row("latency", kase, "invoke round trip p50", "ms", hubInvoke.p50, refInvoke.p50),
  ];
  return {
    rows,
    data: {
      entities,
      samples,
      repeats,
      summary: {
        hub: { stateToReport: hubState, commandToCall: hubCommand, invoke: hubInvoke },
        reference: { stateToReport: refState, commandToCall: refCommand, invoke: refInvoke },
        runMedians: {
          hubStateP50: median(runs.hub.map((r) => distribution(r.stateToReportMs).p50)),
          referenceStateP50: median(runs.reference.map((r) => distribution(r.stateToReportMs).p50)),
        },
      },
      runs: {
        hub: runs.hub.map(({ exposed: _, ...rest }) => rest),
        reference: runs.reference.map(({ exposed: _, ...rest }) => rest),
      },
    },
  };
}
