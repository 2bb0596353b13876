/**
 * Time as plugins and the plugin host see it. Everything timed (lifecycle time-outs, retries, the security plugin's
 * delays, the appliance cloud's polling) goes through a Clock, so tests drive it with a fake one instead of
 * waiting; production uses {@link systemClock}.
 */

/** Cancels a timer made by {@link Clock.setTimeout}; calling it twice is harmless. */
export type CancelTimer = () => void;

export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
  /** Runs `callback` once after `ms`; returns the function that cancels it. */
  setTimeout(callback: () => void, ms: number): CancelTimer;
}

/** The real clock: Date.now and Node timers (unref'd, so a pending plugin timer never keeps the process alive). */
export function systemClock(): Clock {
  return {
    now: () => Date.now(),
    setTimeout(callback, ms) {
      const timer = setTimeout(callback, ms);
      timer.unref?.();
      return () => clearTimeout(timer);
    },
  };
}

/** A manual clock for tests: time moves only through {@link FakeClock.advance}, firing due timers in order. */
export class FakeClock implements Clock {
  #now: number;
  #timers: { at: number; seq: number; callback: () => void }[] = [];
  #seq = 0;

  constructor(start = Date.UTC(2026, 0, 1)) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  setTimeout(callback: () => void, ms: number): CancelTimer {
    const timer = { at: this.#now + Math.max(0, ms), seq: this.#seq++, callback };
    this.#timers.push(timer);
    return () => {
      this.#timers = this.#timers.filter((t) => t !== timer);
    };
  }

  /** Pending timers (for assertions such as "no timer left behind"). */
  get pending(): number {
    return this.#timers.length;
  }

  /** Moves time forward by `ms`, running every timer that falls due (and timers those schedule) on the way. */
  async advance(ms: number): Promise<void> {
    const end = this.#now + ms;
    for (;;) {
      this.#timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
      const next = this.#timers[0];
      if (!next || next.at > end) break;
      this.#timers.shift();
      this.#now = next.at;
      next.callback();
      // Let promise chains started by the callback settle before the next timer, as real time would.
      await settle();
    }
    this.#now = end;
    await settle();
  }
}

/** Lets pending promise callbacks run (a few macrotask turns). */
export async function settle(turns = 5): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise((resolve) => setImmediate(resolve));
}
