/**
 * HA state → matter.js attribute writes, gathered per bridge node: the writes that become due in one event-loop turn
 * (one WebSocket frame from HA carries every `subscribe_entities` event of a moment, since the hub asks for
 * `coalesce_messages`) share matter.js transactions, up to {@link MAX_SHARED} endpoints each, instead of one per
 * endpoint. One group starts per event-loop turn, whichever frame queued it, so neither a large burst (a reconnect's
 * snapshot, force-sync, a backlog) nor the writes of several frames due at once hold the event loop in one stretch;
 * under an event storm writes then wait a few turns, and `updateDeviceEndpoint` lets the newest state of an
 * endpoint replace one still waiting.
 *
 * Why no more than 8 endpoints share one: matter.js 0.17 checks each participant joining a transaction against
 * every participant already in it by their `toString()` (Tx.addParticipants), so a transaction's cost grows with
 * the square of the behaviors it writes. Measured per write (dimmable lights, onOff + currentLevel): 16 endpoints per
 * transaction cost the same CPU as one transaction each; 100 took 2.3×, 400 took 4-6×. Under 3,000 changes/s groups
 * of 8 held the event loop shorter than groups of 16 (event-loop p99 31-35 ms against 39-56 ms over five runs each)
 * at about the same CPU (docs/PERFORMANCE.md, "3,000 changes/s: groups of 8, and a driver that keeps up").
 *
 * What stays as it was:
 * - Per endpoint order: `updateDeviceEndpoint` queues each endpoint's updates and hands the next one in only after
 *   the previous write committed, so two changes of one endpoint never share a transaction or swap places.
 * - Commands in flight: an endpoint whose state a command transaction holds (a command waiting for its HA call)
 *   is left out of the shared transaction and written alone once the command is done, exactly as before; the shared
 *   transaction never waits for a lock, so a slow command holds up only its own endpoint.
 * - Refused values: when matter.js refuses anything in a shared transaction it rolls all of it back; each of its
 *   writes is then made alone, so a bad value fails only its own endpoint.
 * - Newest state: a write that waited for its group takes the changes its `Refresh` gives when the group starts (the
 *   newest state HA sent meanwhile), only for an endpoint no command holds.
 */
import { type Endpoint, Transaction } from "@matter/main";
import { markOrigin } from "../behaviors/write-forwarder.ts";
import type { StatePatch } from "./kinds/index.ts";

type Agent = ReturnType<Endpoint["agentFor"]>;
type ActionContext = Parameters<Endpoint["agentFor"]>[0];
type Behavior = ReturnType<Agent["get"]>;

/** The most endpoints written in one shared transaction (see above). */
export const MAX_SHARED = 8;

/**
 * Called when a waiting write's group starts and the endpoint is free: the changes that bring it to the newest state
 * HA has sent since the write was queued (they replace the queued ones), or undefined to keep them. Under an event
 * storm a write waits a few turns for its group, and without this it would write the state of when it queued, and
 * the newest one a whole queue later.
 */
export type Refresh = () => StatePatch | undefined;

interface PendingWrite {
  endpoint: Endpoint;
  changes: StatePatch;
  refresh: Refresh | undefined;
  resolve(written: StatePatch): void;
  reject(error: unknown): void;
}

/** How the writes went so far: shared transactions, and writes that went alone (locked, refused, or no node). */
export interface StateWriterStats {
  shared: number;
  alone: number;
}

export class StateWriter {
  /** Writes waiting for their group, per node, in arrival order; nodes take turns (Map order, re-queued at the end). */
  readonly #queues = new Map<Endpoint, PendingWrite[]>();
  #scheduled = false;
  readonly #stats: StateWriterStats = { shared: 0, alone: 0 };

  /** Counters since construction, for tests and diagnostics. */
  get stats(): Readonly<StateWriterStats> {
    return { ...this.#stats };
  }

  /**
   * Writes `changes` (behavior id → attribute values) to the endpoint, tagged as HA state, together with the other
   * writes of this turn on the same node. Resolves once they are committed, with the changes written (`refresh`'s
   * when it replaced them); rejects with matter.js's error when the write failed on its own.
   */
  write(endpoint: Endpoint, changes: StatePatch, refresh?: Refresh): Promise<StatePatch> {
    return new Promise((resolve, reject) => {
      const write: PendingWrite = { endpoint, changes, refresh, resolve, reject };
      const owner = endpoint.lifecycle.isReady ? endpoint.owner : undefined;
      if (!owner) {
        this.#alone(write);
        return;
      }
      const queue = this.#queues.get(owner);
      if (queue) queue.push(write);
      else this.#queues.set(owner, [write]);
      this.#schedule();
    });
  }

  /** After the current turn: every event of the frame being handled has queued its write by then. */
  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => this.#next());
  }

  /**
   * One group per event-loop turn, whoever queued it: a burst, or writes queued by several frames, never run more
   * than one shared transaction in one check phase (docs/PERFORMANCE.md, "Load at 3,000 changes/s"). Other work
   * (reports, HA frames, timers) runs in between.
   */
  #next(): void {
    this.#scheduled = false;
    const first = this.#queues.entries().next();
    if (first.done) return;
    const [owner, queue] = first.value;
    this.#queues.delete(owner);
    const group = queue.splice(0, MAX_SHARED);
    // A node with more waiting goes to the back: several bridges take turns.
    if (queue.length > 0) this.#queues.set(owner, queue);
    if (this.#queues.size > 0) this.#schedule();
    // A node that stopped since its writes queued: each write alone meets matter.js's own refusal.
    if (!owner.lifecycle.isReady) for (const write of group) this.#alone(write);
    else void this.#shared(owner, group);
  }

  /** One transaction, hosted by the devices' parent, for every write whose endpoint nobody else holds. */
  async #shared(owner: Endpoint, group: PendingWrite[]): Promise<void> {
    const joined: PendingWrite[] = [];
    const held: PendingWrite[] = [];
    try {
      await owner.act("ha-state", async (agent) => {
        const transaction = agent.context.transaction;
        markOrigin(transaction, "ha-state");
        await transaction.begin();
        const busy = (behaviors: Behavior[]) => behaviors.some((behavior) => lockedElsewhere(behavior, transaction));
        for (const write of group) {
          let behaviors = behaviorsOf(write.endpoint, agent.context, write.changes);
          if (busy(behaviors)) {
            held.push(write);
            continue;
          }
          // Only for a free endpoint: the newest changes are taken against its committed state, which a command in
          // flight is about to change (the held write then waits for the command with the changes it queued).
          const newest = write.refresh?.();
          if (newest) {
            const fresh = behaviorsOf(write.endpoint, agent.context, newest);
            if (busy(fresh)) {
              held.push(write);
              continue;
            }
            write.changes = newest;
            behaviors = fresh;
          }
          transaction.addResourcesSync(...behaviors);
          joined.push(write);
          assign(behaviors, write.changes);
        }
      });
    } catch {
      // Rolled back as a whole: each write again by itself, so only a refused one fails.
      for (const write of group) this.#alone(write);
      return;
    }
    if (joined.length > 0) this.#stats.shared++;
    for (const write of joined) write.resolve(write.changes);
    for (const write of held) this.#alone(write);
  }

  #alone(write: PendingWrite): void {
    this.#stats.alone++;
    writeAlone(write.endpoint, write.changes).then(() => write.resolve(write.changes), write.reject);
  }
}

/** The endpoint's behaviors named in `changes`, in this context (unknown ids skipped). */
function behaviorsOf(endpoint: Endpoint, context: ActionContext, changes: StatePatch): Behavior[] {
  const agent = endpoint.agentFor(context);
  const behaviors: Behavior[] = [];
  for (const id of Object.keys(changes)) {
    const type = endpoint.behaviors.supported[id];
    if (type !== undefined) behaviors.push(agent.get(type));
  }
  return behaviors;
}

function assign(behaviors: Behavior[], changes: StatePatch): void {
  for (const behavior of behaviors) {
    Object.assign(behavior.state as Record<string, unknown>, changes[behavior.type.id]);
  }
}

/** Whether another transaction holds the behavior's state (a command in flight). */
function lockedElsewhere(behavior: Behavior, transaction: Transaction): boolean {
  let resource: Transaction.Resource = behavior;
  for (let next = resource[Transaction.Resource.reference]; next; next = next[Transaction.Resource.reference]) resource = next;
  return resource.lockedBy !== undefined && resource.lockedBy !== transaction;
}

/**
 * Writes `changes` in a transaction of the endpoint's own, tagged as HA state so no write forwarder sends them back
 * to HA; waits for a command holding the endpoint to finish first.
 */
export async function writeAlone(endpoint: Endpoint, changes: StatePatch): Promise<void> {
  await endpoint.act("ha-state", async (agent) => {
    const transaction = agent.context.transaction;
    markOrigin(transaction, "ha-state");
    await transaction.begin();
    const behaviors = behaviorsOf(endpoint, agent.context, changes);
    await transaction.addResources(...behaviors);
    assign(behaviors, changes);
  });
}
