/**
 * Every kind of diagnostic event (docs/live-channel.md describes each one and its `data`):
 * bridge lifecycle and pairing, the link to Home Assistant, service calls made for controllers, recovery attempts.
 */
export type DiagnosticType =
  | "bridge_starting"
  | "bridge_running"
  | "bridge_stopped"
  | "bridge_failed"
  | "bridge_deleted"
  | "bridge_commissioned"
  | "bridge_decommissioned"
  | "bridge_fabrics_changed"
  | "ha_connected"
  | "ha_disconnected"
  | "ha_fatal"
  | "command"
  | "recovery_attempt";

export type DiagnosticLevel = "info" | "warn" | "error";

/** One event as `diagnostic_event` carries it and `diagnostic_snapshot` lists it. */
export interface DiagnosticEvent {
  /** Increases by one per event for the life of the process: clients can order and de-duplicate by it. */
  id: number;
  /** ISO 8601. */
  time: string;
  type: DiagnosticType;
  level: DiagnosticLevel;
  bridgeId?: string;
  entityId?: string;
  /** One readable sentence, ready for a UI list. */
  message: string;
  data?: Record<string, unknown>;
}

export type DiagnosticInput = Omit<DiagnosticEvent, "id" | "time">;

export type DiagnosticListener = (event: DiagnosticEvent) => void;

/**
 * The hub's in-process diagnostics bus: sources publish, the live channel's subscribers listen, and the most recent
 * events stay in a bounded ring for the snapshot a new subscriber gets first. Nothing is persisted.
 */
export class DiagnosticBus {
  readonly #ring: DiagnosticEvent[] = [];
  readonly #listeners = new Set<DiagnosticListener>();
  readonly #counts = new Map<DiagnosticType, number>();
  #nextId = 1;

  constructor(
    /** How many recent events the snapshot keeps (200). */
    readonly capacity = 200,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Records an event and hands it to every listener; returns it with its id and time. */
  publish(input: DiagnosticInput): DiagnosticEvent {
    const event: DiagnosticEvent = { id: this.#nextId++, time: this.now().toISOString(), ...input };
    this.#ring.push(event);
    if (this.#ring.length > this.capacity) this.#ring.shift();
    this.#counts.set(event.type, (this.#counts.get(event.type) ?? 0) + 1);
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch {
        // A listener is a WebSocket client or a test: its failure is its own, the publisher (a bridge, a command) goes on.
      }
    }
    return event;
  }

  /** The most recent events, oldest first (copies of the ring, at most `limit`). */
  recent(limit = this.capacity): DiagnosticEvent[] {
    return this.#ring.slice(-Math.max(0, limit));
  }

  /** Events published since the process started, per type (the ring forgets, these do not). */
  counts(): Partial<Record<DiagnosticType, number>> {
    return Object.fromEntries(this.#counts);
  }

  /** Calls `listener` for every later event; returns the function that stops it. */
  subscribe(listener: DiagnosticListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  get listenerCount(): number {
    return this.#listeners.size;
  }
}
