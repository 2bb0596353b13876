/**
 * Preloaded (`node --import`) into every process the benchmark measures: the hub and the reference bridge. It
 * answers the benchmark driver over the IPC channel, so neither the hub nor the reference carries benchmark code:
 * memory (optionally after a forced GC, which needs `--expose-gc`), CPU time, and the event-loop delay measured
 * with perf_hooks.monitorEventLoopDelay. The channel is unref'd (it never keeps the process alive), and when the
 * driver goes away the process is told to stop (SIGTERM) so that no measured process outlives its benchmark.
 */
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { writeHeapSnapshot } from "node:v8";

/** Sampling interval of the delay histogram. Node 20 records whole intervals, so the probe subtracts it. */
const RESOLUTION_MS = 10;

export type ProbeRequest =
  | { probe: "memory"; id: number; gc: boolean }
  | { probe: "cpu"; id: number }
  | { probe: "loop-reset"; id: number }
  | { probe: "loop"; id: number }
  | { probe: "heap-profile"; id: number; path: string }
  | { probe: "heap-snapshot"; id: number; path: string };

export interface ProbeMemory {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
}

export interface ProbeLoop {
  /** Event-loop delay beyond the sampling interval, in ms. */
  p50: number;
  p99: number;
  max: number;
  samples: number;
}

const send = process.send?.bind(process);
if (send) {
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  histogram.enable();
  const delay = (ns: number) => Math.max(0, ns / 1e6 - RESOLUTION_MS);
  const gc = (globalThis as { gc?: () => void }).gc;
  const sampling = startHeapSampling();

  process.on("message", (message: ProbeRequest) => {
    if (typeof message !== "object" || message === null || !("probe" in message)) return;
    const { id } = message;
    switch (message.probe) {
      case "memory": {
        if (message.gc) {
          if (!gc) {
            send({ id, error: "start the process with --expose-gc" });
            return;
          }
          // Twice: the first full GC can leave objects whose finalizers free more in the second.
          gc();
          gc();
        }
        const { rss, heapUsed, heapTotal, external, arrayBuffers } = process.memoryUsage();
        send({ id, value: { rss, heapUsed, heapTotal, external, arrayBuffers } satisfies ProbeMemory });
        return;
      }
      case "cpu": {
        const { user, system } = process.cpuUsage();
        send({ id, value: { userMs: user / 1000, systemMs: system / 1000, uptimeMs: process.uptime() * 1000 } });
        return;
      }
      case "heap-profile":
        if (!sampling) {
          send({ id, error: "start the process with BENCH_HEAP_SAMPLING=1" });
          return;
        }
        sampling.post("HeapProfiler.stopSampling", (error, result) => {
          if (error) send({ id, error: String(error) });
          else {
            writeFileSync(message.path, JSON.stringify(result.profile));
            send({ id, value: message.path });
          }
        });
        return;
      case "heap-snapshot":
        send({ id, value: writeHeapSnapshot(message.path) });
        return;
      case "loop-reset":
        histogram.reset();
        send({ id, value: null });
        return;
      case "loop":
        send({
          id,
          value: {
            p50: delay(histogram.percentile(50)),
            p99: delay(histogram.percentile(99)),
            max: delay(histogram.max),
            samples: histogram.count,
          } satisfies ProbeLoop,
        });
        return;
    }
  });
  process.channel?.unref();
  process.on("disconnect", () => {
    process.kill(process.pid, "SIGTERM");
    setTimeout(() => process.exit(1), 10_000).unref();
  });
}

/**
 * With BENCH_HEAP_SAMPLING=1: V8's sampling heap profiler from the first moment (this file is preloaded), keeping
 * the samples of objects collected since, so the profile shows every allocation site by volume (what drives the
 * heap's size during start-up), not only what is still alive. One sample per 128 KB allocated on average.
 */
function startHeapSampling(): Session | undefined {
  if (process.env.BENCH_HEAP_SAMPLING !== "1") return undefined;
  const session = new Session();
  session.connect();
  session.post("HeapProfiler.startSampling", {
    samplingInterval: 128 * 1024,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  } as never);
  return session;
}
