import type { Runtime } from "../lib/paths.ts";
import type { Row } from "../lib/report.ts";

/** What run.ts hands every suite. */
export interface SuiteContext {
  quick: boolean;
  runtime: Runtime;
  /**
   * Node options both subjects run with in the start-up, latency and load scenarios: the heap limit the add-on sets
   * (run.ts `--heap-limit`), or none. memory-limit sets its own.
   */
  nodeArgs: string[];
  /** Start-up only: run just the cases with these entities per bridge (e.g. [500]). */
  entities: number[] | undefined;
  /** Load only: run just these rates (changes per second). */
  rates: number[] | undefined;
  /** Overrides the suite's number of repeats. */
  repeats: number | undefined;
  /** Folder for `--cpu-prof` profiles of the measured processes, when profiling. */
  profileDir: string | undefined;
  /** Start-up only: folder for heap profiles and snapshots of the measured processes (`--heap`). */
  heapDir: string | undefined;
  /**
   * Who is measured: both (the default), or only the hub (`--hub-only`, for experiments: rows then have no
   * reference and no ratio, so no verdict that compares against it can pass).
   */
  subjects: readonly ("hub" | "reference")[];
  verbose: boolean;
  log(message: string): void;
}

export interface SuiteOutput {
  rows: Row[];
  /** Parameters and every raw measurement, for the JSON file. */
  data: object;
}

/** A profile folder per run, so profiles of different runs never mix. */
export function profileFolder(ctx: SuiteContext, name: string): string | undefined {
  return ctx.profileDir ? `${ctx.profileDir}/${name}` : undefined;
}
