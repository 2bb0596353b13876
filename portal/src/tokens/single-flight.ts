interface Flight<T> {
  readonly version: string;
  readonly promise: Promise<T>;
}

/**
 * Shares one load in flight per key among the callers that arrive while it runs ("single flight"): 50 admin pages
 * asking for the same list at once cost one load. Nothing is kept after the load settles, so this never answers
 * with data older than a load that started after the caller arrived or, at worst, shortly before.
 *
 * `end(key)` stops callers from joining the load in flight: a writer calls it once its write is done, so that a
 * read arriving after the write starts a new load, which sees the write. Callers already waiting keep their load.
 */
export class SingleFlight<T> {
  private readonly flights = new Map<string, Flight<T>>();

  /**
   * The load in flight for `key` if it was started for the same `version` (e.g. the server's URL and credentials:
   * a changed server must not be answered from a load against the old one), otherwise a new `load()`.
   * A failed load fails every caller that joined it; the next caller starts afresh.
   */
  run(key: string, version: string, load: () => Promise<T>): Promise<T> {
    const current = this.flights.get(key);
    if (current && current.version === version) return current.promise;
    const settled = () => {
      if (this.flights.get(key) === flight) this.flights.delete(key);
    };
    const flight: Flight<T> = { version, promise: load().finally(settled) };
    this.flights.set(key, flight);
    return flight.promise;
  }

  /** Callers arriving from now on start a new load for `key`. */
  end(key: string): void {
    this.flights.delete(key);
  }

  /** How many keys have a load in flight (for tests). */
  get size(): number {
    return this.flights.size;
  }
}
