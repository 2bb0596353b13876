/**
 * How light commands become as few HA calls as possible without waiting for anything (issue: "no fixed debounce;
 * merge only what arrives together").
 *
 * - Separate messages arriving together run concurrently; their calls meet in the entity's call window, which
 *   closes at the end of the event-loop turn (call-batch.ts).
 * - A batched invoke (Matter 1.3 §8.8: one InvokeRequest carrying several commands, which is what the matter.js
 *   controller and others send for "on at 50 %") is run by matter.js one command after the other, each waiting for
 *   the previous one's result. So a light command looks ahead in the InvokeRequest it came in (the context's wire
 *   message): when a later light command for the same endpoint follows, it holds the call window open, writes its
 *   state and answers at once; the last light command of the endpoint closes the window, and waits for HA for all
 *   of them. If HA refuses, that last command fails and the endpoint is re-synced to HA's state (the earlier
 *   commands' optimistic values were already committed).
 */
import type { Behavior } from "@matter/main";
import { TlvInvokeRequest } from "@matter/main/types";
import { entityOf, lockForWrite } from "./ha-entity-behavior.ts";

/** The commands whose HA calls may merge (all end in `light.turn_on`/`turn_off`), by cluster id. */
export const MERGING_COMMANDS: Readonly<Record<number, readonly number[]>> = {
  /** OnOff: Off, On, Toggle. */
  6: [0x00, 0x01, 0x02],
  /** LevelControl: MoveToLevel, MoveToLevelWithOnOff. */
  8: [0x00, 0x04],
  /** ColorControl: MoveToHue, MoveToSaturation, MoveToHueAndSaturation, MoveToColor, MoveToColorTemperature. */
  768: [0x00, 0x03, 0x06, 0x07, 0x0a],
};

interface Path {
  endpoint: number;
  cluster: number;
  command: number;
}

/** The light commands of one endpoint in one batched invoke that answered before HA did. */
interface Group {
  outstanding: Promise<void>[];
  release: () => void;
}

interface InvokeState {
  paths: Path[];
  /** Index of the first command not run yet (matter.js runs them in order). */
  next: number;
  groups: Map<number, Group>;
}

type RemoteContext = {
  message?: { payload: Uint8Array };
  exchange?: { closed?: { on(observer: () => void): void } };
};

const invokes = new WeakMap<object, InvokeState | null>();
const deferredTo = new WeakMap<Behavior, Group>();

const isMerging = (path: Path) => MERGING_COMMANDS[path.cluster]?.includes(path.command) ?? false;

/** The batched invoke `behavior` runs in, when it carries at least two light commands; decoded once per message. */
function invokeOf(behavior: Behavior): InvokeState | undefined {
  const message = (behavior.context as RemoteContext).message;
  if (!message) return undefined;
  let state = invokes.get(message);
  if (state === undefined) {
    state = decode(message.payload);
    invokes.set(message, state);
  }
  return state ?? undefined;
}

function decode(payload: Uint8Array): InvokeState | null {
  try {
    const paths: Path[] = [];
    for (const { commandPath } of TlvInvokeRequest.decode(payload).invokeRequests) {
      const { endpointId, clusterId, commandId } = commandPath;
      if (endpointId !== undefined) paths.push({ endpoint: endpointId, cluster: clusterId, command: commandId });
    }
    return paths.filter(isMerging).length >= 2 ? { paths, next: 0, groups: new Map() } : null;
  } catch {
    // Not an InvokeRequest we can read: every command simply waits for its own call.
    return null;
  }
}

/**
 * Runs the handler of a light command (one of {@link MERGING_COMMANDS}) so that it merges with the other light
 * commands for its endpoint in the same batched invoke. Outside such an invoke, `run` just runs.
 */
export async function runMerging(behavior: Behavior, cluster: number, command: number, run: () => unknown): Promise<void> {
  const invoke = invokeOf(behavior);
  const endpoint = behavior.endpoint.number;
  const index =
    invoke?.paths.findIndex(
      (path, i) => i >= invoke.next && path.endpoint === endpoint && path.cluster === cluster && path.command === command,
    ) ?? -1;
  if (!invoke || index < 0) {
    await run();
    return;
  }
  invoke.next = index + 1;
  const followed = invoke.paths.some((path, i) => i > index && path.endpoint === endpoint && isMerging(path));
  let group = invoke.groups.get(endpoint);
  if (followed) {
    if (!group) {
      const ha = entityOf(behavior);
      const release = ha.holdCalls();
      // Should the last command never reach us (matter.js refused it before its handler), the window still closes.
      (behavior.context as RemoteContext).exchange?.closed?.on(release);
      group = { outstanding: [], release };
      invoke.groups.set(endpoint, group);
    }
    deferredTo.set(behavior, group);
    try {
      await run();
    } finally {
      deferredTo.delete(behavior);
    }
    return;
  }
  if (!group) {
    await run();
    return;
  }
  // The last light command for this endpoint: the window closes at the end of this turn, with this call in it.
  invoke.groups.delete(endpoint);
  group.release();
  await run();
  for (const sent of group.outstanding) await sent;
}

/**
 * The order every command handler follows: the HA call is registered first (`sent`, so that commands arriving
 * together merge), then the handler waits for exclusive access to `behaviors` (the first is the one whose command
 * runs), writes its optimistic state with `write`, and waits for HA. A refusal fails the command and rolls `write`
 * back. In a batched invoke with more light commands to come, the wait is left to the last of them.
 */
export async function sendThenCommit(
  sent: Promise<void> | undefined,
  behaviors: [Behavior, ...Behavior[]],
  write: () => unknown,
): Promise<void> {
  // Awaited below (or by a later command); until then a refusal must not count as unhandled.
  sent?.catch(() => undefined);
  await lockForWrite(...behaviors);
  await write();
  const group = deferredTo.get(behaviors[0]);
  if (group && sent) {
    group.outstanding.push(sent);
    return;
  }
  await sent;
}
