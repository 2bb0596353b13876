import type { HassContext } from "../../../hub/src/home-assistant/types.ts";
import { type Clock, isoFromEpoch, newContext } from "./time.ts";

/** HA's `MATCH_ALL`: `subscribe_events` without an `event_type` listens to every event. */
export const MATCH_ALL = "*";

/** HA keeps these out of MATCH_ALL listeners (`EVENTS_EXCLUDED_FROM_MATCH_ALL` in core.py). */
const EXCLUDED_FROM_MATCH_ALL = new Set(["state_reported", "homeassistant_close"]);

/** One event on the bus. `data` may hold `State` objects, which serialise through their `toJSON`. */
export class BusEvent {
  private json: string | undefined;
  /** Per-event memo for derived payloads (e.g. the compressed state diff), shared by every subscriber. */
  readonly memo = new Map<string, unknown>();

  constructor(
    readonly eventType: string,
    readonly data: Record<string, unknown>,
    readonly timeFired: number,
    readonly context: HassContext,
  ) {}

  /** The event as HA's `Event.as_dict()` JSON, computed once however many subscriptions forward it. */
  toJsonString(): string {
    this.json ??= JSON.stringify({
      event_type: this.eventType,
      data: this.data,
      origin: "LOCAL",
      time_fired: isoFromEpoch(this.timeFired),
      context: this.context,
    });
    return this.json;
  }
}

export type BusListener = (event: BusEvent) => void;

export interface EventBus {
  /** Listens to one event type, or to MATCH_ALL; returns the unsubscribe function. */
  listen(eventType: string, listener: BusListener): () => void;
  fire(eventType: string, data?: Record<string, unknown>, context?: HassContext, timeFired?: number): BusEvent;
}

export function createEventBus(clock: Clock): EventBus {
  const listeners = new Map<string, Set<BusListener>>();
  return {
    listen(eventType, listener) {
      let set = listeners.get(eventType);
      if (!set) {
        set = new Set();
        listeners.set(eventType, set);
      }
      set.add(listener);
      return () => {
        set.delete(listener);
      };
    },
    fire(eventType, data = {}, context, timeFired) {
      const fired = timeFired ?? clock.now();
      const event = new BusEvent(eventType, data, fired, context ?? newContext(fired));
      const targeted = [...(listeners.get(eventType) ?? [])];
      const all = EXCLUDED_FROM_MATCH_ALL.has(eventType) ? [] : [...(listeners.get(MATCH_ALL) ?? [])];
      for (const listener of [...targeted, ...all]) listener(event);
      return event;
    },
  };
}
