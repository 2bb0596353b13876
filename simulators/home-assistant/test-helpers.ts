/** Test support: a home-assistant-js-websocket client against a simulator, and polling helpers. */
import { type Connection, createConnection, createLongLivedTokenAuth } from "home-assistant-js-websocket";
import { WebSocket } from "ws";
import type { HomeSnapshot } from "../../hub/src/home-assistant/types.ts";
import { until as pollUntil } from "../../lib/testing/polling.ts";
import type { HaSimulator } from "./types.ts";

/** Connects the real client library, as the hub does; Node 20 has no global WebSocket, so `ws` stands in. */
export async function connectClient(sim: Pick<HaSimulator, "url" | "token">, token = sim.token): Promise<Connection> {
  const global = globalThis as { WebSocket?: unknown };
  global.WebSocket ??= WebSocket;
  return createConnection({ auth: createLongLivedTokenAuth(sim.url, token) });
}

/** Polls until `check` returns true (or a truthy value), failing after `timeoutMs` (the simulator tests' order). */
export const until = <T>(check: () => T | undefined | false, timeoutMs = 2000, what = "condition"): Promise<T> =>
  pollUntil(what, check, timeoutMs, 5) as Promise<T>;

/** A raw `ws` client that authenticates and collects every message (arrays from coalescing flattened). */
export async function rawClient(sim: Pick<HaSimulator, "url" | "token">, options: { coalesce?: boolean } = {}) {
  const socket = new WebSocket(`${sim.url.replace(/^http/, "ws")}/api/websocket`);
  const received: Record<string, unknown>[] = [];
  const frames: unknown[] = [];
  socket.on("message", (data) => {
    const parsed = JSON.parse(String(data)) as unknown;
    frames.push(parsed);
    received.push(...((Array.isArray(parsed) ? parsed : [parsed]) as Record<string, unknown>[]));
  });
  await new Promise((resolve, reject) => {
    socket.once("open", resolve);
    socket.once("error", reject);
  });
  await until(() => received.some((m) => m.type === "auth_required"), 2000, "auth_required");
  socket.send(JSON.stringify({ type: "auth", access_token: sim.token }));
  await until(() => received.some((m) => m.type === "auth_ok"), 2000, "auth_ok");
  if (options.coalesce) socket.send(JSON.stringify({ id: 1, type: "supported_features", features: { coalesce_messages: 1 } }));
  return {
    socket,
    received,
    frames,
    send: (message: Record<string, unknown>) => socket.send(JSON.stringify(message)),
    /** The result (or pong) for `id`, once it arrived. */
    reply: (id: number) => until(() => received.find((m) => m.id === id && m.type !== "event"), 2000, `reply ${id}`),
    close: () => socket.close(),
  };
}

/** Every way a home can contradict itself (HA would never serve such a home); empty when consistent. */
export function homeProblems(home: HomeSnapshot): string[] {
  const problems: string[] = [];
  const states = new Map(home.states.map((s) => [s.entity_id, s]));
  const devices = new Set(home.devices.map((d) => d.id));
  const areas = new Set(home.areas.map((a) => a.area_id));
  const labels = new Set(home.labels.map((l) => l.label_id));
  if (states.size !== home.states.length) problems.push("duplicate state entity ids");
  if (new Set(home.entities.map((e) => e.entity_id)).size !== home.entities.length)
    problems.push("duplicate registry entity ids");
  if (new Set(home.entities.map((e) => e.id)).size !== home.entities.length) problems.push("duplicate registry ids");
  for (const entry of home.entities) {
    const hasState = states.has(entry.entity_id);
    if (entry.disabled_by === null && !hasState) problems.push(`${entry.entity_id}: enabled but without a state`);
    if (entry.disabled_by !== null && hasState) problems.push(`${entry.entity_id}: disabled but with a state`);
    if (entry.device_id !== null && !devices.has(entry.device_id)) problems.push(`${entry.entity_id}: unknown device`);
    if (entry.area_id !== null && !areas.has(entry.area_id)) problems.push(`${entry.entity_id}: unknown area ${entry.area_id}`);
    for (const label of entry.labels) if (!labels.has(label)) problems.push(`${entry.entity_id}: unknown label ${label}`);
  }
  for (const device of home.devices) {
    if (device.area_id !== null && !areas.has(device.area_id))
      problems.push(`device ${device.name}: unknown area ${device.area_id}`);
    if (device.via_device_id !== null && !devices.has(device.via_device_id))
      problems.push(`device ${device.name}: unknown via device`);
    for (const label of device.labels) if (!labels.has(label)) problems.push(`device ${device.name}: unknown label ${label}`);
  }
  for (const state of home.states) {
    if (!/^[a-z0-9_]+\.[a-z0-9_]+$/.test(state.entity_id)) problems.push(`${state.entity_id}: invalid entity id`);
    if (typeof state.attributes.friendly_name !== "string") problems.push(`${state.entity_id}: no friendly_name`);
    if (Number.isNaN(Date.parse(state.last_changed)) || Number.isNaN(Date.parse(state.last_updated)))
      problems.push(`${state.entity_id}: bad timestamps`);
  }
  return problems;
}
