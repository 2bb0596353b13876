/**
 * Counts consecutive failures of one plugin on one bridge (docs/plugins.md "Errors": 3 consecutive failures trip the
 * breaker and auto-disable the plugin; the reset endpoint re-enables it). Any successful call resets the count.
 * The count is persisted by the slot, so failures across bridge restarts are consecutive too.
 */

/** Failures in a row that trip the breaker. */
export const BREAKER_THRESHOLD = 3;

export class CircuitBreaker {
  #failures: number;
  #tripped: boolean;

  constructor(
    initial: { failures: number; tripped: boolean } = { failures: 0, tripped: false },
    readonly threshold = BREAKER_THRESHOLD,
  ) {
    this.#failures = initial.failures;
    this.#tripped = initial.tripped;
  }

  get failures(): number {
    return this.#failures;
  }

  /** True once the threshold was reached, until {@link reset}. */
  get tripped(): boolean {
    return this.#tripped;
  }

  /** Records a failure; returns true when this one tripped the breaker. */
  failure(): boolean {
    this.#failures++;
    if (this.#tripped || this.#failures < this.threshold) return false;
    this.#tripped = true;
    return true;
  }

  success(): void {
    this.#failures = 0;
  }

  reset(): void {
    this.#failures = 0;
    this.#tripped = false;
  }
}
