import { setTimeout as sleep } from "node:timers/promises";
import { limitExceeded } from "./errors.ts";
import type { RateLimitSettings } from "./options.ts";

/**
 * Synapse's `Ratelimiter` (synapse/api/ratelimiting.py): a leaky bucket per key (the client IP here). The bucket
 * drains at `perSecond`; an action is refused once `burst` actions are pending. `update: false` checks without
 * counting, which is how `/register` checks `rc_registration` on every request but only counts a created account.
 * Refusals are 429 `M_LIMIT_EXCEEDED` with `retry_after_ms` (truncated to an integer) and `Retry-After`.
 * Not simulated: the 0.5 s pause Synapse takes before answering a refused request.
 */
export class LeakyBucketLimiter {
  private readonly actions = new Map<string, { count: number; start: number }>();

  constructor(
    private readonly settings: () => RateLimitSettings | false,
    private readonly now: () => number,
  ) {}

  check(key: string, update = true): void {
    const settings = this.settings();
    if (!settings) return;
    const nowS = this.now() / 1000;
    const previous = this.actions.get(key);
    let count = previous?.count ?? 0;
    let start = previous?.start ?? nowS;
    let performed = count - (nowS - start) * settings.perSecond;
    if (performed < 0) {
      // The bucket has drained: forgive everything and restart the window now.
      performed = 0;
      count = 0;
      start = nowS;
    }
    const allowed = !(performed > settings.burst - 1);
    if (allowed) count += 1;
    if (update) this.actions.set(key, { count, start });
    if (allowed) return;
    let allowedAt = -1;
    if (settings.perSecond > 0) allowedAt = Math.max(start + (count - settings.burst + 1) / settings.perSecond, nowS);
    throw limitExceeded(Math.trunc(1000 * (allowedAt - nowS)));
  }
}

/** The fixed settings Synapse gives `/register/available` (synapse/rest/client/register.py). */
const AVAILABILITY = { windowMs: 2000, sleepLimit: 1, sleepMs: 1000, rejectLimit: 1 };

/**
 * `FederationRateLimiter` as `UsernameAvailabilityRestServlet` configures it, per client IP: more than one request
 * in a 2 s window is delayed by 1 s, and a request that finds more than one request already delayed is refused with
 * 429 and `retry_after_ms: 2000` (window / sleep limit). Synapse also serialises the requests (`concurrent=1`); the
 * simulator's handler is synchronous, so that queue is never observable and is not modelled.
 */
export class SleepingLimiter {
  private readonly hosts = new Map<string, { times: number[]; sleeping: number }>();

  constructor(
    private readonly enabled: () => boolean,
    private readonly now: () => number,
  ) {}

  async enter(key: string): Promise<void> {
    if (!this.enabled()) return;
    const host = this.hosts.get(key) ?? { times: [], sleeping: 0 };
    this.hosts.set(key, host);
    const now = this.now();
    host.times = host.times.filter((time) => now - time < AVAILABILITY.windowMs);
    if (host.sleeping > AVAILABILITY.rejectLimit)
      throw limitExceeded(Math.trunc(AVAILABILITY.windowMs / AVAILABILITY.sleepLimit));
    host.times.push(now);
    if (host.times.length <= AVAILABILITY.sleepLimit) return;
    host.sleeping += 1;
    try {
      await sleep(AVAILABILITY.sleepMs);
    } finally {
      host.sleeping -= 1;
    }
  }
}

/** The limiters of one simulated server. */
export interface Limiters {
  /** `rc_registration`, keyed by IP. */
  readonly registration: LeakyBucketLimiter;
  /** `rc_registration_token_validity`, keyed by IP. */
  readonly validity: LeakyBucketLimiter;
  readonly availability: SleepingLimiter;
}

export function createLimiters(
  registration: () => RateLimitSettings | false,
  validity: RateLimitSettings,
  now: () => number,
): Limiters {
  return {
    registration: new LeakyBucketLimiter(registration, now),
    validity: new LeakyBucketLimiter(() => (registration() === false ? false : validity), now),
    availability: new SleepingLimiter(() => registration() !== false, now),
  };
}
