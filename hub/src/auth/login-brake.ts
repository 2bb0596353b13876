/** The hub's login backoff (docs/decisions.md, "Authentication"). */
export const LOGIN_POLICY = {
  /** Wrong passwords a client may send before the backoff starts. */
  freeFailures: 5,
  /** Refusal after the `freeFailures`-th failure; it doubles with each further one… */
  firstDelayMs: 1000,
  /** …up to this. */
  maxDelayMs: 5 * 60_000,
  /**
   * A client's failures are forgotten after this long without a new one. A right password does not reset them:
   * where clients share a key (a NAT, a reverse proxy, ingress without a user id) a user's logins would give an
   * attacker at the same address fresh guesses.
   */
  forgetAfterMs: 60 * 60_000,
  /** Clients remembered at most; the least recently failing are forgotten first. */
  maxClients: 10_000,
} as const;

export type LoginPolicy = { [K in keyof typeof LOGIN_POLICY]: number };

interface ClientRecord {
  failures: number;
  lastFailureAt: number;
  lockedUntil: number;
}

/**
 * Per-client backoff for HTTP Basic logins: after `freeFailures` wrong passwords a client's new attempts are
 * refused unchecked (no KDF work) for 1 s, then 2 s, 4 s… up to 5 min per further failure. One client's failures
 * never slow another client down. In memory only: a restart forgets, which an attacker cannot cause.
 */
export class LoginBrake {
  readonly #policy: LoginPolicy;
  readonly #now: () => number;
  readonly #clients = new Map<string, ClientRecord>();

  constructor(options: { policy?: Partial<LoginPolicy>; now?: () => number } = {}) {
    this.#policy = { ...LOGIN_POLICY, ...options.policy };
    this.#now = options.now ?? Date.now;
  }

  /** Milliseconds until this client may try again, or undefined when it may now. */
  retryAfterMs(client: string): number | undefined {
    const record = this.#current(client);
    if (!record) return undefined;
    const wait = record.lockedUntil - this.#now();
    return wait > 0 ? wait : undefined;
  }

  /** Counts a wrong password; returns the refusal it starts (ms), or undefined while the client is still free. */
  recordFailure(client: string): number | undefined {
    const now = this.#now();
    const record = this.#current(client) ?? { failures: 0, lastFailureAt: now, lockedUntil: 0 };
    record.failures++;
    record.lastFailureAt = now;
    const over = record.failures - this.#policy.freeFailures;
    const delay = over < 0 ? undefined : Math.min(this.#policy.firstDelayMs * 2 ** over, this.#policy.maxDelayMs);
    if (delay !== undefined) record.lockedUntil = now + delay;
    // Re-inserted so that the Map's order is the order of last failure: the oldest go first when full.
    this.#clients.delete(client);
    if (this.#clients.size >= this.#policy.maxClients) this.#clients.delete(this.#clients.keys().next().value as string);
    this.#clients.set(client, record);
    return delay;
  }

  #current(client: string): ClientRecord | undefined {
    const record = this.#clients.get(client);
    if (record && this.#now() - record.lastFailureAt > this.#policy.forgetAfterMs) {
      this.#clients.delete(client);
      return undefined;
    }
    return record;
  }
}
