import { createHash } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { HttpError } from "../../../lib/http-error.ts";
import type { Logger } from "../../../lib/logger.ts";
import type { Leases } from "../db/leases.ts";
import { KeyedMutex } from "./keyed-mutex.ts";

/** How sign-ups with one token wait for each other across instances (tests shorten them). */
export interface ClaimTimings {
  /** A claim lasts this long unless renewed: how long a token stays blocked after its holder died mid-sign-up. */
  ttlMs: number;
  /** The holder renews its claim this often while the sign-up runs (a sign-up may take longer than `ttlMs`). */
  renewEveryMs: number;
  /** A waiting sign-up asks again after this long, doubling up to `maxPollMs`. */
  firstPollMs: number;
  maxPollMs: number;
  /** A sign-up that waited this long for the token gives up with a 503 (the visitor may simply try again). */
  maxWaitMs: number;
}

export const CLAIM_TIMINGS: ClaimTimings = {
  ttlMs: 15_000,
  renewEveryMs: 5_000,
  firstPollMs: 20,
  maxPollMs: 250,
  maxWaitMs: 60_000,
};

/** The lease of a token: its hash, so that no second table holds invitation tokens in clear. */
export const leaseName = (serverId: string, token: string) =>
  `sign-up:${serverId}:${createHash("sha256").update(token).digest("hex")}`;

/**
 * One sign-up at a time per registration token, across every portal instance on the database (issue 24): the
 * portal's check of a token's remaining uses and the homeserver's accounting must not interleave, or two visitors
 * could both pass the check of a one-use token. Within a process, sign-ups queue on a mutex in arrival order; the
 * one at the head then takes the token's lease in the database (db/leases.ts), waiting while another instance holds
 * it, and renews it until its sign-up ends. A holder killed mid-sign-up blocks the token for at most `ttlMs`.
 */
export class TokenClaims {
  private readonly local = new KeyedMutex();

  constructor(
    private readonly leases: Leases,
    private readonly log: Logger,
    private readonly timings: ClaimTimings = CLAIM_TIMINGS,
  ) {}

  /** Runs `task` while holding the claim on (`serverId`, `token`). */
  run<T>(serverId: string, token: string, task: () => Promise<T>): Promise<T> {
    const name = leaseName(serverId, token);
    return this.local.run(name, async () => {
      await this.acquire(name);
      const renewal = setInterval(() => void this.renew(name), this.timings.renewEveryMs);
      renewal.unref();
      try {
        return await task();
      } finally {
        clearInterval(renewal);
        await this.leases.release(name);
      }
    });
  }

  private async acquire(name: string): Promise<void> {
    const started = performance.now();
    let poll = this.timings.firstPollMs;
    while (!(await this.leases.acquire(name, this.timings.ttlMs))) {
      if (performance.now() - started > this.timings.maxWaitMs) {
        throw new HttpError(503, "Too many sign-ups with this token at once. Please try again in a minute.", "M_UNKNOWN", {
          "Retry-After": "60",
        });
      }
      await sleep(poll);
      poll = Math.min(this.timings.maxPollMs, poll * 2);
    }
  }

  private async renew(name: string): Promise<void> {
    try {
      if (!(await this.leases.renew(name, this.timings.ttlMs))) {
        this.log.warn("a sign-up outlived its token claim (a stalled process?): another may now run with the token");
      }
    } catch (error) {
      this.log.warn({ err: error }, "could not renew a sign-up's token claim");
    }
  }
}
