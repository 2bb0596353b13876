import { randomBytes } from "node:crypto";
import type { HassContext } from "../../../hub/src/home-assistant/types.ts";

/** A per-simulator clock in epoch seconds (HA's `timestamp()` floats), strictly increasing at microsecond steps. */
export interface Clock {
  now(): number;
}

export function createClock(): Clock {
  let last = 0;
  return {
    now() {
      const real = Math.round((performance.timeOrigin + performance.now()) * 1000) / 1e6;
      // Two writes in the same microsecond would get equal last_updated values; HA's clock never goes back.
      last = real > last ? real : Math.round((last + 1e-6) * 1e6) / 1e6;
      return last;
    },
  };
}

const pad = (value: number, width = 2) => String(value).padStart(width, "0");

/** Python's `datetime.isoformat()` of a UTC datetime, as HA serialises every timestamp: `…T03:13:47.123456+00:00`. */
export function isoFromEpoch(seconds: number): string {
  const micros = Math.round(seconds * 1e6);
  const date = new Date(Math.floor(micros / 1000));
  const fraction = ((micros % 1e6) + 1e6) % 1e6;
  const base =
    `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}` +
    `T${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`;
  // Python leaves the fraction out entirely when the microsecond is 0.
  return `${base}${fraction === 0 ? "" : `.${pad(fraction, 6)}`}+00:00`;
}

/** Parses an ISO timestamp (with up to microsecond precision and any offset) to epoch seconds. */
export function epochFromIso(iso: string): number {
  const match = /^(.*T\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?(Z|[+-]\d{2}:\d{2})?$/.exec(iso);
  if (!match) {
    const ms = Date.parse(iso);
    if (Number.isNaN(ms)) throw new Error(`invalid timestamp: ${iso}`);
    return ms / 1000;
  }
  const whole = Date.parse(`${match[1]}${match[3] ?? "Z"}`);
  const micros = Number((match[2] ?? "").padEnd(6, "0") || "0");
  return Math.round(whole * 1000 + micros) / 1e6;
}

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** A ULID like HA's `ulid_at_time`: 10 characters of millisecond time, 16 of randomness (context ids, entry ids). */
export function ulid(seconds: number): string {
  let time = Math.floor(seconds * 1000);
  let head = "";
  for (let i = 0; i < 10; i++) {
    head = CROCKFORD[time % 32] + head;
    time = Math.floor(time / 32);
  }
  const random = randomBytes(16);
  let tail = "";
  for (const byte of random) tail += CROCKFORD[byte % 32];
  return head + tail;
}

/** A fresh HA Context; service calls from a websocket user carry that user's id, state writes without a call none. */
export function newContext(seconds: number, userId: string | null = null, parentId: string | null = null): HassContext {
  return { id: ulid(seconds), parent_id: parentId, user_id: userId };
}
