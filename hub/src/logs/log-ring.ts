import { LOG_LEVELS, type LogLevel } from "../../../lib/logger.ts";

/**
 * One stored log line, as `GET /api/logs` and the SSE stream return it (the hub spec leaves the shape open):
 *
 * - `id`: increasing integer, unique for the process' lifetime (clearing the ring does not reset it), also
 *   sent as the SSE `id:` so a reconnecting EventSource can resume with `Last-Event-ID`;
 * - `time`: ISO 8601 timestamp of the line;
 * - `level`: `trace`, `debug`, `info`, `warn`, `error` or `fatal`;
 * - `msg`: the message (empty string when the line had none);
 * - `component`: the child logger's component (`http`, `home-assistant`, …), when set;
 * - any other context fields of the line (`bridgeId`, `err: {type, message, stack}`, …), already redacted;
 *   pino's `name` is left out, and a context field called `id` is replaced by the entry id.
 */
export interface LogEntry extends LogRecord {
  id: number;
}

/** A log line before the ring gives it an id. */
export interface LogRecord {
  time: string;
  level: LogLevel;
  msg: string;
  component?: string;
  [field: string]: unknown;
}

/** A live listener (the SSE stream). `onClose` is called once when the ring closes its subscriptions. */
export interface LogSubscriber {
  onEntry(entry: LogEntry): void;
  onClose(): void;
}

export interface LogQuery {
  /** Only these levels; all when absent. */
  levels?: ReadonlySet<LogLevel> | undefined;
  /** Case-insensitive substring of `msg` or `component`. */
  search?: string | undefined;
  limit: number;
}

export const DEFAULT_LOG_CAPACITY = 2000;

const zeroCounts = (): Record<LogLevel, number> =>
  Object.fromEntries(LOG_LEVELS.map((level) => [level, 0])) as Record<LogLevel, number>;

/**
 * The most recent log entries in a fixed-size circular buffer: appending is O(1) and evicts the oldest entry
 * once full, so memory stays bounded however chatty the hub is. Per-level counts are kept incrementally.
 */
export class LogRing {
  readonly capacity: number;
  #slots: (LogEntry | undefined)[];
  /** Index of the oldest entry. */
  #start = 0;
  #size = 0;
  #nextId = 1;
  #counts = zeroCounts();
  #subscribers = new Set<LogSubscriber>();
  #closed = false;

  constructor(capacity = DEFAULT_LOG_CAPACITY) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError("capacity must be a positive integer");
    this.capacity = capacity;
    this.#slots = new Array<LogEntry | undefined>(capacity);
  }

  get size(): number {
    return this.#size;
  }

  get subscriberCount(): number {
    return this.#subscribers.size;
  }

  /** Stores a line (assigning its id) and hands it to every live subscriber. */
  append(record: LogRecord): LogEntry {
    const entry: LogEntry = { ...record, id: this.#nextId++ };
    if (this.#size === this.capacity) {
      const evicted = this.#slots[this.#start]!;
      this.#counts[evicted.level]--;
      this.#slots[this.#start] = entry;
      this.#start = (this.#start + 1) % this.capacity;
    } else {
      this.#slots[(this.#start + this.#size) % this.capacity] = entry;
      this.#size++;
    }
    this.#counts[entry.level]++;
    for (const subscriber of this.#subscribers) {
      // A failing listener must never break logging itself (this runs inside pino's write).
      try {
        subscriber.onEntry(entry);
      } catch {
        this.#subscribers.delete(subscriber);
      }
    }
    return entry;
  }

  /** Entries from newest to oldest. */
  *newestFirst(): IterableIterator<LogEntry> {
    for (let i = this.#size - 1; i >= 0; i--) yield this.#slots[(this.#start + i) % this.capacity]!;
  }

  /** Entries with an id above `id`, oldest first (an SSE client resuming after `Last-Event-ID`). */
  since(id: number): LogEntry[] {
    const newer: LogEntry[] = [];
    for (const entry of this.newestFirst()) {
      if (entry.id <= id) break;
      newer.push(entry);
    }
    return newer.reverse();
  }

  /** Matching entries, newest first, at most `limit`; `total` counts every match. */
  find(query: LogQuery): { logs: LogEntry[]; total: number } {
    const needle = query.search?.toLowerCase();
    const logs: LogEntry[] = [];
    let total = 0;
    for (const entry of this.newestFirst()) {
      if (query.levels && !query.levels.has(entry.level)) continue;
      if (needle && !entry.msg.toLowerCase().includes(needle) && !entry.component?.toLowerCase().includes(needle)) continue;
      total++;
      if (logs.length < query.limit) logs.push(entry);
    }
    return { logs, total };
  }

  /** Number of stored entries per level (every level present, zeros included). */
  counts(): Record<LogLevel, number> {
    return { ...this.#counts };
  }

  /** Drops every stored entry; returns how many there were. Ids keep increasing. */
  clear(): number {
    const cleared = this.#size;
    this.#slots = new Array<LogEntry | undefined>(this.capacity);
    this.#start = 0;
    this.#size = 0;
    this.#counts = zeroCounts();
    return cleared;
  }

  /** Adds a live listener; returns the function that removes it. After `close()` the listener is closed at once. */
  subscribe(subscriber: LogSubscriber): () => void {
    if (this.#closed) {
      subscriber.onClose();
      return () => {};
    }
    this.#subscribers.add(subscriber);
    return () => {
      this.#subscribers.delete(subscriber);
    };
  }

  /** Ends every live subscription (server shutdown: open SSE streams would hold the HTTP server open). */
  close(): void {
    this.#closed = true;
    this.endStreams();
  }

  /**
   * Ends the current live listeners (their HTTP streams finish) but keeps accepting new ones: what an in-process
   * hub restart needs, since the ring outlives the hub instance.
   */
  endStreams(): void {
    const subscribers = [...this.#subscribers];
    this.#subscribers.clear();
    for (const subscriber of subscribers) {
      try {
        subscriber.onClose();
      } catch {
        // Shutdown goes on whatever one stream does.
      }
    }
  }
}
