/**
 * The frame of a scenario driver: a fresh child process of bench/run.ts that runs ONE measurement (one subject,
 * one size), sends its result back over IPC and exits. Whatever it started is stopped on the way out, also when
 * run.ts goes away (IPC disconnect) or the measurement throws.
 */
import { assertNetworkIsolated } from "../../lib/testing/isolation.ts";

type Cleanup = () => Promise<unknown> | unknown;
const cleanups: Cleanup[] = [];

/** Registers something to undo at the end, last registered first. */
export function onCleanup(cleanup: Cleanup): void {
  cleanups.unshift(cleanup);
}

async function cleanUp(): Promise<void> {
  for (const cleanup of cleanups.splice(0)) {
    try {
      await cleanup();
    } catch (error) {
      process.stderr.write(`cleanup failed: ${String(error)}\n`);
    }
  }
}

/** Reads the job from BENCH_JOB, runs it and reports `{ result }` or `{ error }` to the parent. */
export function runDriver<J, R>(run: (job: J) => Promise<R>, options: { matter?: boolean } = {}): void {
  process.on("disconnect", () => {
    void cleanUp().finally(() => process.exit(1));
  });
  const job = JSON.parse(process.env.BENCH_JOB ?? "{}") as J;
  void (async () => {
    let exitCode = 0;
    try {
      if (options.matter !== false) assertNetworkIsolated();
      const result = await run(job);
      await cleanUp();
      process.send?.({ result });
    } catch (error) {
      exitCode = 1;
      await cleanUp();
      process.send?.({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    }
    // matter.js and sockets may hold the loop; the result is sent, so leave.
    setTimeout(() => process.exit(exitCode), 200);
  })();
}
