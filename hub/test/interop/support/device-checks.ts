/**
 * What drives a row of the device-type matrix: read an endpoint, apply a change at the source, run an action, wait
 * for its effect in HA or the cloud, and see what a failed action answered.
 */
import assert from "node:assert/strict";
import { isDeepStrictEqual } from "node:util";
import type { RecordedCall } from "../../../../simulators/home-assistant/types.ts";
import { eventually } from "../../support/test-context.ts";
import { ChipCallError, type RawReadResult, type ReadResult } from "./chip-controller.ts";
import type { EndpointRead } from "./conformance.ts";
import type { Action, DeviceCase, Effect, SourceChange } from "./device-case.ts";
import { isEntitySource } from "./device-case.ts";
import { CONTROLLER, type DeviceWorld, NODE } from "./device-world.ts";

/** The endpoint as read twice: raw (by ids, every attribute) and decoded by the SDK (by names). */
export async function readEndpoint(world: DeviceWorld, endpoint: number): Promise<EndpointRead> {
  const raw: RawReadResult = await world.chip.readRaw(CONTROLLER, NODE, [[endpoint]]);
  const typed: ReadResult = await world.chip.read(CONTROLLER, NODE, [[endpoint]]);
  return { raw: raw[String(endpoint)] ?? {}, typed: typed[String(endpoint)] ?? {} };
}

/** Makes the change at the row's source: an HA state, or a cloud status the appliance plugin then reads. */
export async function applyChange(world: DeviceWorld, row: DeviceCase, change: SourceChange): Promise<void> {
  if ("cloud" in change) {
    world.cloud.setStatus(change.cloud, change.status);
    await world.resave("appliance-cloud");
    return;
  }
  const entityId = change.entityId ?? (isEntitySource(row.source) ? row.source.entityId : undefined);
  assert.ok(entityId, `${row.key}: a state change needs an entity`);
  world.sim.setState(entityId, change.state, change.attributes);
}

/** Runs the action; resolves with the response (commands) or the attribute status (writes), rejects with ChipCallError. */
export async function runAction(world: DeviceWorld, endpoint: number, action: Action): Promise<unknown> {
  if ("write" in action) return world.chip.write(CONTROLLER, NODE, endpoint, action.write, action.attribute, action.value);
  return world.chip.call("invoke", {
    controller: CONTROLLER,
    node: NODE,
    endpoint,
    cluster: action.invoke,
    command: action.command,
    args: action.args ?? {},
    timedRequestTimeoutMs: action.timedMs,
    largePayload: action.large === true,
  });
}

/** What an action left behind, watched from the moment {@link watchSideEffects} ran. */
export interface SideEffects {
  haCalls(): readonly RecordedCall[];
  cloudCommands(): readonly { cid: string; method: string; data: Record<string, unknown> }[];
}

/** Starts watching what an action leaves behind: HA calls (the record is cleared) and cloud commands from now. */
export function watchSideEffects(world: DeviceWorld): SideEffects {
  const cloudSince = world.cloud.commands.length;
  world.sim.clearCalls();
  return { haCalls: () => world.sim.calls, cloudCommands: () => world.cloud.commands.slice(cloudSince) };
}

function contains(actual: Record<string, unknown> | undefined, expected: Record<string, unknown> | undefined): boolean {
  return Object.entries(expected ?? {}).every(([key, value]) => isDeepStrictEqual(actual?.[key], value));
}

const describeCalls = (calls: readonly RecordedCall[]) =>
  calls.map((c) => `${c.domain}.${c.service} ${c.entityIds.join(",")} ${JSON.stringify(c.serviceData)}`).join("; ") || "nothing";

/**
 * Waits for the effects in order (each after the one before) and checks their data; `none` asserts that nothing
 * reached HA or the cloud since the action.
 */
export async function expectEffects(row: DeviceCase, effects: Effect[], seen: SideEffects) {
  let haNext = 0;
  let cloudNext = 0;
  for (const effect of effects) {
    if ("none" in effect) {
      assert.deepEqual([describeCalls(seen.haCalls()), seen.cloudCommands()], ["nothing", []], effect.none);
    } else if ("cloud" in effect) {
      const match = (c: { cid: string; method: string }) => c.cid === effect.cloud && c.method === effect.method;
      const index = await eventually(() => {
        const found = seen.cloudCommands().findIndex((c, i) => i >= cloudNext && match(c));
        return found === -1 ? undefined : found + 1;
      }, 5000).catch(() => {
        throw new Error(`no cloud ${effect.method} for ${effect.cloud}; got ${JSON.stringify(seen.cloudCommands())}`);
      });
      const command = seen.cloudCommands()[index - 1];
      assert.ok(contains(command?.data, effect.data), `${effect.method} data ${JSON.stringify(command?.data)}`);
      cloudNext = index;
    } else {
      const [domain, service] = effect.ha.split(".");
      const entityId = effect.entityId ?? (isEntitySource(row.source) ? row.source.entityId : "");
      const match = (c: RecordedCall) => c.domain === domain && c.service === service && c.entityIds.includes(entityId);
      const index = await eventually(() => {
        const found = seen.haCalls().findIndex((c, i) => i >= haNext && match(c));
        return found === -1 ? undefined : found + 1;
      }, 5000).catch(() => {
        throw new Error(`no ${effect.ha} for ${entityId}; HA got: ${describeCalls(seen.haCalls())}`);
      });
      const recorded = seen.haCalls()[index - 1];
      assert.ok(contains(recorded?.serviceData, effect.data), `${effect.ha} data ${JSON.stringify(recorded?.serviceData)}`);
      haNext = index;
    }
  }
}

/** The status a failed action came back with: the IM status of a command, or the attribute status of a write. */
export async function failureStatus(world: DeviceWorld, endpoint: number, action: Action): Promise<unknown> {
  try {
    return await runAction(world, endpoint, action);
  } catch (error) {
    if (error instanceof ChipCallError) return error.detail.status ?? `${error.detail.type}: ${error.detail.message}`;
    throw error;
  }
}
