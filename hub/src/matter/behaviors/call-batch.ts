/**
 * Merges the HA calls for one entity that arrive together into one call (issue: "no fixed debounce; merge only what
 * arrives together"). "Together" means: registered before the event loop's next check phase. A controller's
 * back-to-back commands (On, then MoveToLevel) reach the bridge in one poll phase and run up to their HA call in
 * microtasks, so they land in the same window; the window closes with `setImmediate`, never with a timer, so a lone
 * call leaves in the same event-loop turn it was made in. Peers wait 50-100 ms per hop instead.
 *
 * Only calls with the same action merge, and only actions that set a value (`turn_on`, `set_*`, ...): two presses
 * stay two presses. A "rider" is data that only travels with another call of the window (a level sent to an off
 * light just before its On); without that call it is dropped, as Matter drops the command it came from.
 * A batched invoke (several commands in one InvokeRequest) holds the window open across its commands, see
 * invoke-lookahead.ts.
 */

/** Sends one (merged) call to HA; rejects when HA refuses it. */
export type CallSender = (action: string, data: Record<string, unknown>) => Promise<void>;

/** Actions whose repetition is idempotent, so that calls arriving together may become one. */
const MERGEABLE = /\.(turn_on|turn_off|set_[a-z_]+|select_option|volume_set|volume_mute)$/;

interface Part {
  seq: number;
  data: Record<string, unknown>;
}

interface Batch {
  action: string;
  parts: Part[];
  done: Promise<void>;
  resolve: () => void;
  reject: (error: unknown) => void;
}

interface Window {
  batches: Batch[];
  riders: (Part & { action: string })[];
  seq: number;
  send: CallSender;
  /** Holders keeping the window open (a batched invoke whose later commands are still to come). */
  holds: number;
  flushed: boolean;
}

const windows = new WeakMap<object, Window>();

function openWindow(key: object, send: CallSender): Window {
  const existing = windows.get(key);
  if (existing) return existing;
  const opened: Window = { batches: [], riders: [], seq: 0, send, holds: 0, flushed: false };
  windows.set(key, opened);
  scheduleFlush(key, opened);
  return opened;
}

function scheduleFlush(key: object, window: Window): void {
  setImmediate(() => {
    if (window.holds > 0 || window.flushed) return;
    window.flushed = true;
    if (windows.get(key) === window) windows.delete(key);
    flush(window);
  });
}

function flush(window: Window): void {
  for (const batch of window.batches) {
    const riders = window.riders.filter((rider) => rider.action === batch.action);
    const parts = [...batch.parts, ...riders].sort((a, b) => a.seq - b.seq);
    const data = Object.assign({}, ...parts.map((part) => part.data)) as Record<string, unknown>;
    window.send(batch.action, data).then(batch.resolve, batch.reject);
  }
}

/**
 * Queues `action` with `data` for the entity keyed by `key` and resolves when HA accepted the call it became part of
 * (rejects when HA refused it: every command merged into it fails). Registration is synchronous: call it before
 * awaiting anything else, or a command arriving together may miss the window.
 */
export function sendMerged(key: object, send: CallSender, action: string, data: Record<string, unknown> = {}): Promise<void> {
  const window = openWindow(key, send);
  const seq = window.seq++;
  const open = MERGEABLE.test(action) ? window.batches.find((batch) => batch.action === action) : undefined;
  if (open) {
    open.parts.push({ seq, data });
    return open.done;
  }
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const done = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  window.batches.push({ action, parts: [{ seq, data }], done, resolve, reject });
  return done;
}

/** Adds `data` to a call of `action` if one is made in the current window; dropped otherwise. */
export function rideAlong(key: object, send: CallSender, action: string, data: Record<string, unknown>): void {
  const window = openWindow(key, send);
  window.riders.push({ action, seq: window.seq++, data });
}

/**
 * Keeps the entity's window open beyond this turn, until the returned function runs (then it closes at the end of
 * that turn). For a batched invoke, whose commands matter.js runs one after the other (invoke-lookahead.ts).
 */
export function holdWindow(key: object, send: CallSender): () => void {
  const window = openWindow(key, send);
  window.holds++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    window.holds--;
    if (window.holds === 0) scheduleFlush(key, window);
  };
}

/** Whether a call of `action` for `key` waits in the current window (e.g. an On that a level may join). */
export function isPending(key: object, action: string): boolean {
  return windows.get(key)?.batches.some((batch) => batch.action === action) ?? false;
}
