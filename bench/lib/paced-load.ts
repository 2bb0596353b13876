/**
 * An open-loop load generator: requests at evenly spaced instants (like wrk2), whatever the answers do.
 *
 * Why not autocannon's `overallRate`: it gives each connection a per-second budget that resets on one shared tick,
 * so every connection sends at the same instant and the "paced" load arrives as one burst per second. Here request
 * i is due at start + i / rate, and its latency counts from that instant (or from when it was sent, if a timer fired
 * early), not from when a late generator got round to sending it: a generator or server falling behind shows in
 * the numbers instead of silently delaying the next requests (coordinated omission).
 */
import { Pool } from "undici";
import { distribution, percentile } from "./stats.ts";

export interface PacedLoadOptions {
  /** The server's origin, e.g. `http://127.0.0.1:8080`. */
  origin: string;
  method: "GET";
  path: string;
  headers?: Record<string, string>;
  /** Keep-alive connections the requests spread over (the "clients"). */
  connections: number;
  /** Requests per second over all connections. */
  ratePerS: number;
  durationS: number;
}

export interface PacedLoadResult {
  durationS: number;
  total: number;
  /** Milliseconds from each request's due instant to the end of its answer. */
  latencyMs: { p50: number; p90: number; p99: number; max: number; mean: number };
  non2xx: number;
  errors: number;
  statusCodes: Record<string, number>;
  /** How late the generator itself sent requests (ms, p99): must stay small for the latencies to mean anything. */
  sendLagP99Ms: number;
}

export async function pacedLoad(options: PacedLoadOptions): Promise<PacedLoadResult> {
  const pool = new Pool(options.origin, { connections: options.connections, pipelining: 1 });
  const latencies: number[] = [];
  const sendLags: number[] = [];
  const statusCodes: Record<string, number> = {};
  let non2xx = 0;
  let errors = 0;
  const intervalMs = 1000 / options.ratePerS;
  const count = Math.round(options.ratePerS * options.durationS);
  const inFlight: Promise<void>[] = [];
  const began = performance.now();
  try {
    for (let i = 0; i < count; i++) {
      const due = began + i * intervalMs;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      // Late: counted from the due instant. A timer may also fire up to a millisecond early: such a request counts
      // from when it was really sent.
      const sentAt = performance.now();
      const from = Math.min(due, sentAt);
      sendLags.push(Math.max(0, sentAt - due));
      inFlight.push(
        pool
          .request({ method: options.method, path: options.path, headers: options.headers })
          .then(async (response) => {
            await response.body.dump();
            latencies.push(performance.now() - from);
            statusCodes[response.statusCode] = (statusCodes[response.statusCode] ?? 0) + 1;
            if (response.statusCode < 200 || response.statusCode > 299) non2xx++;
          })
          .catch(() => {
            errors++;
          }),
      );
    }
    await Promise.all(inFlight);
  } finally {
    await pool.close();
  }
  const spread = distribution(latencies);
  return {
    durationS: (performance.now() - began) / 1000,
    total: latencies.length,
    latencyMs: { p50: spread.p50, p90: percentile(latencies, 90), p99: spread.p99, max: spread.max, mean: spread.mean },
    non2xx,
    errors,
    statusCodes,
    sendLagP99Ms: distribution(sendLags).p99,
  };
}
