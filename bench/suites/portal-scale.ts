/**
 * Suite 5 (issue 24): SQLite, PostgreSQL and two instances side by side, in one run: sustained sign-ups per second
 * (p99 of a sign-up within 250 ms) and admin reads at 50 clients. PostgreSQL runs when `PORTAL_BENCH_DATABASE_URL`
 * names a database the bench may empty; otherwise its rows are left out and the log says so.
 */
import { runJob } from "../lib/jobs.ts";
import { type Row, row } from "../lib/report.ts";
import type { PortalScaleJob, PortalScaleResult } from "../scenarios/portal-scale.ts";
import type { SuiteContext, SuiteOutput } from "./context.ts";

export async function portalScaleSuite(ctx: SuiteContext): Promise<SuiteOutput> {
  const databaseUrl = process.env.PORTAL_BENCH_DATABASE_URL;
  if (!databaseUrl)
    ctx.log("portal-scale: PostgreSQL left out (set PORTAL_BENCH_DATABASE_URL to a database the bench may empty)");
  const configurations: { databaseUrl?: string; instances: number }[] = [
    { instances: 1 },
    { instances: 2 },
    ...(databaseUrl
      ? [
          { databaseUrl, instances: 1 },
          { databaseUrl, instances: 2 },
        ]
      : []),
  ];
  const base: Omit<PortalScaleJob, "instances"> = {
    runtime: ctx.runtime,
    rates: ctx.rates ?? (ctx.quick ? [2, 4] : [5, 10, 20, 30, 40, 60, 80, 100, 130, 160, 200, 250, 300]),
    stepS: ctx.quick ? 2 : 10,
    readConnections: 50,
    readDurationS: ctx.quick ? 2 : 10,
    verbose: ctx.verbose,
  };
  const results: PortalScaleResult[] = [];
  const rows: Row[] = [];
  for (const configuration of configurations) {
    const job: PortalScaleJob = { ...base, ...configuration };
    const name = `${configuration.databaseUrl ? "PostgreSQL" : "SQLite"}, ${job.instances} instance${job.instances > 1 ? "s" : ""}`;
    ctx.log(`portal-scale: ${name} (sign-up rates ${job.rates.join(", ")}/s, ${job.stepS} s each)`);
    const result = await runJob<PortalScaleResult>("portal-scale", job, 30 * 60_000, ctx.verbose);
    results.push(result);
    const sustained = result.steps.find((step) => step.ratePerS === result.sustainedSignUpsPerS);
    rows.push(row("portal-scale", name, "sustained sign-ups (p99 ≤ 250 ms)", "/s", result.sustainedSignUpsPerS, null));
    rows.push(row("portal-scale", name, "sign-up p99 at that rate", "ms", sustained?.latencyMs.p99 ?? null, null));
    for (const [what, read] of [
      ["servers list", result.serversRead],
      ["token list", result.tokenListRead],
    ] as const) {
      rows.push(row("portal-scale", name, `admin ${what} p99, 50 clients`, "ms", read.latencyMs.p99, null));
      rows.push(row("portal-scale", name, `admin ${what} throughput, 50 clients`, "req/s", read.requestsPerS, null));
    }
  }
  return { rows, data: { job: base, note: "client-side round robin over the instances; one database each run", results } };
}
