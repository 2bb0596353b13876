/** The portal scenario's load runs: one of two load generators, plus CPU, event-loop and request-log figures. */
import autocannon from "autocannon";
import { pacedLoad } from "../lib/paced-load.ts";
import { distribution } from "../lib/stats.ts";
import type { Subject } from "../lib/subject.ts";
import { sleep } from "../lib/world.ts";

export interface LoadStats {
  connections: number;
  durationS: number;
  requestsPerS: number;
  /** Whole flows per second (sign-up only). */
  flowsPerS?: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number; mean: number };
  total: number;
  non2xx: number;
  errors: number;
  statusCodes: Record<string, number>;
  /**
   * Time inside the portal per request, from its request log (`ms`, whole milliseconds, from the first
   * middleware to the response): the rest of the client-side latency was spent outside the handlers.
   */
  serverMs: { p50: number; p99: number; count: number };
  /** The portal's event-loop delay during the run (monitorEventLoopDelay). */
  portalLoopDelayMs: { p50: number; p99: number; max: number };
  /** With `logLevel: debug`: the portal's own timing of its homeserver calls. */
  homeserverCallMs?: { p50: number; p99: number; count: number };
  /** Even pacing only: how late the generator sent its requests (p99, ms). */
  sendLagP99Ms?: number;
  /** CPU of each process during the measured run (100 = one core): who is the bottleneck. */
  cpuPercent: { portal: number; homeserver: number; loadGenerator: number };
}

/**
 * How the load arrives: as fast as answered (closed loop); `bursts`: autocannon's `overallRate` (every connection
 * spends its per-second budget at the same tick, so the requests come in one burst per second); `even`: requests
 * at evenly spaced instants (bench/lib/paced-load.ts), latency counted from each one's due instant.
 */
export type Pace = { kind: "closed" } | { kind: "bursts"; ratePerS: number } | { kind: "even"; ratePerS: number };

/** What either load generator reports. */
interface Generated {
  durationS: number;
  total: number;
  latencyMs: LoadStats["latencyMs"];
  non2xx: number;
  errors: number;
  statusCodes: Record<string, number>;
  /** Even pacing only: how late the generator sent (p99, ms); small, or the latencies include the generator. */
  sendLagP99Ms?: number;
}

function generator(base: string, connections: number, requests: autocannon.Request[], pace: Pace) {
  if (pace.kind === "even") {
    const [request] = requests;
    if (!request || requests.length !== 1 || request.method !== "GET" || !request.path) {
      throw new Error("even pacing takes one GET request");
    }
    const headers = request.headers as Record<string, string> | undefined;
    return (durationS: number): Promise<Generated> =>
      pacedLoad({
        origin: base,
        method: "GET",
        path: request.path as string,
        headers,
        connections,
        ratePerS: pace.ratePerS,
        durationS,
      });
  }
  // Bursts record each response once. autocannon's coordinated-omission correction would otherwise add, for every
  // response of n ms, samples at n-1, n-2, … 1 ms: it takes `Math.ceil(1 / rate)` as the expected interval, which
  // with a rate in requests per second is 1 (ms) instead of the 500 ms between a client's requests here (autocannon
  // 9, lib/run.js). With the right interval the correction would add nothing: every answer is far below 500 ms.
  const rate = pace.kind === "bursts" ? { overallRate: pace.ratePerS, ignoreCoordinatedOmission: true } : {};
  return async (durationS: number): Promise<Generated> => {
    const result = await autocannon({ url: base, connections, duration: durationS, requests, ...rate });
    const statusCodes: Record<string, number> = {};
    for (const [code, stats] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = stats.count ?? 0;
    const { p50, p90, p99, max, average } = result.latency;
    return {
      durationS: result.duration,
      total: result.requests.total,
      latencyMs: { p50, p90, p99, max, mean: average },
      non2xx: result.non2xx,
      errors: result.errors,
      statusCodes,
    };
  };
}

export async function runCannon(
  base: string,
  connections: number,
  durationS: number,
  requests: autocannon.Request[],
  processes: {
    portal: Subject;
    homeserver: Subject;
    serverMs: () => number[];
    homeserverMs: () => number[];
    resetServerMs: () => void;
  },
  /** Counts completed flows (sign-up): read before and after the measured run. */
  flows?: () => number,
  pace: Pace = { kind: "closed" },
): Promise<LoadStats> {
  const generate = generator(base, connections, requests, pace);
  // A short warm-up at the same concurrency (JIT, connection setup), then the measured run.
  await generate(1);
  await sleep(200);
  const flowsBefore = flows?.() ?? 0;
  const cpu = async () => {
    const [portal, homeserver] = await Promise.all([processes.portal.cpu(), processes.homeserver.cpu()]);
    const own = process.cpuUsage();
    return {
      portal: portal.userMs + portal.systemMs,
      homeserver: homeserver.userMs + homeserver.systemMs,
      own: (own.user + own.system) / 1000,
    };
  };
  const cpuBefore = await cpu();
  await processes.portal.resetLoopDelay();
  processes.resetServerMs();
  const began = performance.now();
  const result = await generate(durationS);
  const wall = performance.now() - began;
  const cpuAfter = await cpu();
  const loop = await processes.portal.loopDelay();
  // Request log lines are written asynchronously: give the last ones a moment.
  await sleep(300);
  const inside = distribution(processes.serverMs());
  const share = (key: "portal" | "homeserver" | "own") => ((cpuAfter[key] - cpuBefore[key]) / wall) * 100;
  return {
    connections,
    durationS: result.durationS,
    requestsPerS: result.total / result.durationS,
    ...(flows ? { flowsPerS: (flows() - flowsBefore) / result.durationS } : {}),
    latencyMs: result.latencyMs,
    total: result.total,
    non2xx: result.non2xx,
    errors: result.errors,
    statusCodes: result.statusCodes,
    ...(result.sendLagP99Ms !== undefined ? { sendLagP99Ms: result.sendLagP99Ms } : {}),
    serverMs: { p50: inside.p50, p99: inside.p99, count: inside.count },
    portalLoopDelayMs: { p50: loop.p50, p99: loop.p99, max: loop.max },
    ...(processes.homeserverMs().length > 0
      ? { homeserverCallMs: (({ p50, p99, count }) => ({ p50, p99, count }))(distribution(processes.homeserverMs())) }
      : {}),
    cpuPercent: { portal: share("portal"), homeserver: share("homeserver"), loadGenerator: share("own") },
  };
}
