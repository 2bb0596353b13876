/**
 * Runs one scenario driver (bench/scenarios/<name>.ts) as a fresh child process and returns its result. The
 * harness never hosts a measured node itself; it only forks, waits and collects.
 */
import { fork } from "node:child_process";
import { REPO } from "./paths.ts";

export async function runJob<R>(driver: string, job: object, timeoutMs: number, verbose = false): Promise<R> {
  const child = fork(`${REPO}bench/scenarios/${driver}.ts`, [], {
    cwd: REPO,
    execArgv: ["--import", "tsx"],
    env: { ...process.env, BENCH_JOB: JSON.stringify(job) },
    stdio: ["ignore", verbose ? "inherit" : "ignore", "pipe", "ipc"],
  });
  const stderr: string[] = [];
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr.push(chunk.toString());
    if (stderr.length > 100) stderr.shift();
    if (verbose) process.stderr.write(chunk);
  });
  let outcome: { result?: R; error?: string } | undefined;
  child.on("message", (message: { result?: R; error?: string }) => {
    outcome = message;
  });
  const timer = setTimeout(() => {
    outcome ??= { error: `driver ${driver} timed out after ${Math.round(timeoutMs / 1000)} s` };
    child.kill("SIGTERM");
    setTimeout(() => child.kill("SIGKILL"), 30_000).unref();
  }, timeoutMs);
  const code = await new Promise<number | null>((resolve) => child.once("exit", (exitCode) => resolve(exitCode)));
  clearTimeout(timer);
  if (outcome?.result !== undefined) return outcome.result;
  const tail = stderr.join("").split("\n").slice(-25).join("\n");
  throw new Error(`${driver} ${JSON.stringify(job).slice(0, 200)} failed (exit ${code}): ${outcome?.error ?? ""}\n${tail}`);
}
