import { HttpError } from "../../../lib/http-error.ts";

export interface KdfGateOptions {
  /** KDF runs at once across all clients (each holds one libuv thread and 32 MiB); default 2 of libuv's 4 threads. */
  maxConcurrent?: number;
  /** Verifications one client may have waiting behind its running one; more are refused with 429. Default 4. */
  maxQueuedPerClient?: number;
}

interface ClientLane {
  tail: Promise<unknown>;
  /** Verifications of this client running or queued. */
  pending: number;
}

/**
 * Schedules password-hash verifications so that a flood from one client cannot crowd out anyone else: a client's
 * verifications run one after the other (so the login brake sees each verdict before the next guess is hashed),
 * and at most `maxConcurrent` run across all clients, granted in arrival order; since each client has at most one
 * waiting for a slot, a busy client gets one turn in `n` when `n` clients want one. The rest of libuv's thread
 * pool stays free for file I/O.
 */
export class KdfGate {
  readonly #maxConcurrent: number;
  readonly #maxQueued: number;
  readonly #lanes = new Map<string, ClientLane>();
  readonly #waitingForSlot: (() => void)[] = [];
  #running = 0;

  constructor(options: KdfGateOptions = {}) {
    this.#maxConcurrent = options.maxConcurrent ?? 2;
    this.#maxQueued = options.maxQueuedPerClient ?? 4;
  }

  /** Runs `task` in `client`'s lane once a slot is free; 429 when the lane is full. */
  run<T>(client: string, task: () => Promise<T>): Promise<T> {
    const lane = this.#lanes.get(client) ?? { tail: Promise.resolve(), pending: 0 };
    if (lane.pending > this.#maxQueued) {
      return Promise.reject(
        new HttpError(429, "Too many login attempts at once from this client; try again shortly", undefined, {
          "Retry-After": "1",
        }),
      );
    }
    lane.pending++;
    this.#lanes.set(client, lane);
    const result = lane.tail.then(async () => {
      await this.#acquire();
      try {
        return await task();
      } finally {
        this.#release();
      }
    });
    lane.tail = result.then(
      () => this.#leave(client, lane),
      () => this.#leave(client, lane),
    );
    return result;
  }

  #leave(client: string, lane: ClientLane): void {
    lane.pending--;
    if (lane.pending === 0 && this.#lanes.get(client) === lane) this.#lanes.delete(client);
  }

  #acquire(): Promise<void> {
    if (this.#running < this.#maxConcurrent) {
      this.#running++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#waitingForSlot.push(resolve));
  }

  #release(): void {
    const next = this.#waitingForSlot.shift();
    // The slot passes straight to the next in line: #running stays the same.
    if (next) next();
    else this.#running--;
  }
}
