import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

const PREFIX = "portal_";

/** How a homeserver call ended: its HTTP status class, or why no answer came (homeserver-client.ts). */
export type HomeserverOutcome = "2xx" | "3xx" | "4xx" | "5xx" | "timeout" | "network" | "denied";

/** A sign-up's end as `POST /api/register` answered it. */
export type SignUpResult = "created" | "refused" | "failed";

/** An administrator's change to registration tokens (`/api/admin/tokens`). */
export type TokenOperation = "create" | "batch" | "update" | "disable" | "enable" | "delete";

/** The status class of an HTTP status (`2xx` …), for the homeserver outcome label. */
export function statusClass(status: number): HomeserverOutcome {
  if (status >= 500) return "5xx";
  if (status >= 400) return "4xx";
  if (status >= 300) return "3xx";
  return "2xx";
}

/**
 * The portal's Prometheus metrics, in its own registry (never prom-client's global one): Node's process metrics with
 * the `portal_` prefix, sign-ups, token operations, and homeserver calls (latency by outcome, failures). Counters
 * count since the process started. No label carries a user, a token or a path: the series stay few and say nothing
 * about who signed up. One per portal; the default metrics it installs (GC observer, event-loop monitor) live as
 * long as the process.
 */
export class PortalMetrics {
  readonly registry = new Registry();
  readonly #signUps: Counter<"result">;
  readonly #tokenOperations: Counter<"operation" | "result">;
  readonly #homeserverDuration: Histogram<"outcome">;
  readonly #homeserverFailures: Counter<"kind">;

  constructor(startedAt: number = Date.now(), now: () => number = Date.now) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: PREFIX });
    const uptime: Gauge = new Gauge({
      name: `${PREFIX}uptime_seconds`,
      help: "Portal uptime in seconds.",
      registers,
      collect: () => uptime.set((now() - startedAt) / 1000),
    });
    this.#signUps = new Counter({
      name: `${PREFIX}signups_total`,
      help: "Sign-ups answered by POST /api/register: created (an account was made), refused (4xx: bad input, token, limits), failed (5xx).",
      labelNames: ["result"],
      registers,
    });
    this.#tokenOperations = new Counter({
      name: `${PREFIX}token_operations_total`,
      help: "Registration token changes made by administrators, by operation and result (ok, refused: 4xx, failed: 5xx).",
      labelNames: ["operation", "result"],
      registers,
    });
    this.#homeserverDuration = new Histogram({
      name: `${PREFIX}homeserver_request_duration_seconds`,
      help: "Calls to managed homeservers: time until the answer was read, by outcome (status class, timeout, network, denied).",
      labelNames: ["outcome"],
      buckets: [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.#homeserverFailures = new Counter({
      name: `${PREFIX}homeserver_errors_total`,
      help: "Calls to managed homeservers that failed: no answer (timeout, network), refused by the outbound rules (denied), or a 5xx answer.",
      labelNames: ["kind"],
      registers,
    });
    // Every known series from the start, at 0: a dashboard sees "no failures" rather than "no data".
    for (const result of ["created", "refused", "failed"] as const) this.#signUps.inc({ result }, 0);
    for (const operation of ["create", "batch", "update", "disable", "enable", "delete"] as const) {
      for (const result of ["ok", "refused", "failed"] as const) this.#tokenOperations.inc({ operation, result }, 0);
    }
    for (const kind of ["timeout", "network", "denied", "5xx"] as const) this.#homeserverFailures.inc({ kind }, 0);
  }

  /** One homeserver call: called by HomeserverClient with its outcome and duration. */
  homeserverCall(outcome: HomeserverOutcome, seconds: number): void {
    this.#homeserverDuration.observe({ outcome }, seconds);
    if (outcome !== "2xx" && outcome !== "3xx" && outcome !== "4xx") this.#homeserverFailures.inc({ kind: outcome });
  }

  signUp(status: number): void {
    this.#signUps.inc({ result: status >= 500 ? "failed" : status >= 400 ? "refused" : "created" });
  }

  tokenOperation(operation: TokenOperation, status: number): void {
    this.#tokenOperations.inc({ operation, result: status >= 500 ? "failed" : status >= 400 ? "refused" : "ok" });
  }

  /** The text exposition format and its content type. */
  async exposition(): Promise<{ body: string; contentType: string }> {
    return { body: await this.registry.metrics(), contentType: this.registry.contentType };
  }
}
