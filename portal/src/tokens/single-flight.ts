interface Flight<T> {
  readonly version: string;
  readonly promise: Promise<T>;
  /** When the load succeeded (ms, the injected clock); undefined while in flight. */
  settledAt?: number;
  /** A load to replace this kept one is under way. */
  refreshing?: boolean;
}

export interface SingleFlightOptions {
  /** How long a successful load keeps answering after it settled (ms); 0 keeps nothing. */
  keepMs?: number;
  /**
   * A caller served from a kept load at least this old (ms, less than `keepMs`) also starts its replacement in the
   * background, so that steady readers never wait for a load; the kept answer's age limit stays `keepMs`.
   */
  refreshAfterMs?: number;
  /** The clock (ms); injected by tests. */
  now?: () => number;
}

/**
 * Shares one load per key among the callers that arrive while it runs ("single flight"), and for `keepMs` after it
 * succeeded: 50 admin pages asking for the same list at once, or in bursts, cost one load. An answer is thus never
 * older than `keepMs` plus the load's own time; a failed load is never kept.
 *
 * `end(key)` stops callers from joining the load in flight or reusing the kept one: a writer calls it once its write
 * is done, so that a read arriving after the write starts a new load, which sees the write. Callers already waiting
 * keep their load.
 */
export class SingleFlight<T> {
  private readonly flights = new Map<string, Flight<T>>();
  private readonly keepMs: number;
  private readonly refreshAfterMs: number;
  private readonly now: () => number;

  constructor(options: SingleFlightOptions = {}) {
    this.keepMs = options.keepMs ?? 0;
    this.refreshAfterMs = options.refreshAfterMs ?? Number.POSITIVE_INFINITY;
    this.now = options.now ?? Date.now;
  }

  /**
   * The load in flight (or kept) for `key` if it was started for the same `version` (e.g. the server's URL and
   * credentials: a changed server must not be answered from a load against the old one), otherwise a new `load()`.
   * A failed load fails every caller that joined it; the next caller starts afresh.
   */
  run(key: string, version: string, load: () => Promise<T>): Promise<T> {
    const current = this.flights.get(key);
    if (current && current.version === version && this.fresh(current)) {
      if (this.dueForRefresh(current)) this.refresh(key, current, load);
      return current.promise;
    }
    const flight = this.start(version, load, (settled) => {
      if (this.flights.get(key) === flight && !settled) this.flights.delete(key);
    });
    this.flights.set(key, flight);
    return flight.promise;
  }

  /** Callers arriving from now on start a new load for `key` (a refresh under way is not used either). */
  end(key: string): void {
    this.flights.delete(key);
  }

  /** How many keys have a load in flight or kept (for tests). */
  get size(): number {
    return this.flights.size;
  }

  /** A load; `done(kept)` runs when it settled: kept when it succeeded and loads are kept. */
  private start(version: string, load: () => Promise<T>, done: (kept: boolean) => void): Flight<T> {
    const flight: Flight<T> = {
      version,
      promise: load().then(
        (value) => {
          if (this.keepMs > 0) flight.settledAt = this.now();
          done(this.keepMs > 0);
          return value;
        },
        (error: unknown) => {
          done(false);
          throw error;
        },
      ),
    };
    return flight;
  }

  /** Loads a replacement for the kept `current` in the background; it takes over only if `current` still stands. */
  private refresh(key: string, current: Flight<T>, load: () => Promise<T>): void {
    current.refreshing = true;
    const next = this.start(current.version, load, (kept) => {
      current.refreshing = false;
      if (kept && this.flights.get(key) === current) this.flights.set(key, next);
    });
    // A failed refresh changes nothing: the kept answer serves until it is too old, then a caller loads anew.
    next.promise.catch(() => undefined);
  }

  private fresh(flight: Flight<T>): boolean {
    return flight.settledAt === undefined || this.now() - flight.settledAt < this.keepMs;
  }

  private dueForRefresh(flight: Flight<T>): boolean {
    return flight.settledAt !== undefined && !flight.refreshing && this.now() - flight.settledAt >= this.refreshAfterMs;
  }
}
