/**
 * The non-cluster behavior every HA-backed endpoint carries: it holds the entity snapshot, the ActionSink and the
 * PIN hook, and turns a cluster command into an HA action call whose failure fails the Matter command.
 *
 * The binding is per endpoint. matter.js builds behaviors from their type, so {@link HaEntityBehavior.forEntity} makes a
 * subclass whose static `binding` holds this endpoint's data; everything else on the endpoint reaches it through
 * `this.agent.get(HaEntityBehavior)`. The binding lives outside matter.js state on purpose: it is not Matter data,
 * must not be persisted, and holds functions.
 */
import { Behavior, type Endpoint } from "@matter/main";
import { Status, StatusResponseError } from "@matter/main/types";
import type { HassEntity } from "../../home-assistant/types.ts";
import type { ActionSink, Companions, DeviceTypeKey, EntitySnapshot, PinCheck, UnitSystem } from "../model/contract.ts";
import { type CallSender, holdWindow, isPending, rideAlong, sendMerged } from "./call-batch.ts";

/** Everything an endpoint needs to know about its entity; mutable fields change with HA state. */
export interface EntityBinding {
  readonly key: DeviceTypeKey;
  readonly actions: ActionSink;
  readonly pinCheck: PinCheck;
  readonly unitSystem: UnitSystem;
  /** The latest snapshot, replaced by `updateDeviceEndpoint` only. */
  snapshot: EntitySnapshot;
  /** The companion entities composed into the endpoint (facets), replaced by `updateDeviceEndpoint` only. */
  companions: Companions;
  /**
   * Light values a controller set while the light was off with ExecuteIfOff (Matter 1.3 §1.6.4.1.1, §3.2.8.2):
   * HA cannot store them on an off light, so the next On carries them. Cleared when HA reports the light on.
   */
  staged: Record<string, unknown>;
  /**
   * Re-syncs the endpoint to {@link snapshot} soon (outside the refused command's transaction). Set by
   * `createDeviceEndpoint`; called when HA refused a call.
   */
  afterRefusal?: () => void;
  /** Pending momentary reset (button/scene/automation), so a second press restarts it and close can cancel it. */
  momentaryTimer?: ReturnType<typeof setTimeout> | undefined;
}

/** Holds the entity behind an endpoint and calls HA for the cluster behaviors. */
export class HaEntityBehavior extends Behavior {
  static override readonly id = "haEntity";

  /** Set on the per-endpoint subclass made by {@link forEntity}. */
  static readonly binding: EntityBinding | undefined = undefined;

  /** A subclass bound to one endpoint's entity; use it in the endpoint type in place of this class. */
  static forEntity(binding: EntityBinding): typeof HaEntityBehavior {
    return class BoundHaEntityBehavior extends HaEntityBehavior {
      static override readonly binding = binding;
    };
  }

  get binding(): EntityBinding {
    const binding = (this.constructor as typeof HaEntityBehavior).binding;
    if (!binding) throw new Error(`${this.endpoint} uses an unbound HaEntityBehavior`);
    return binding;
  }

  get entityId(): string {
    return this.binding.snapshot.entityId;
  }

  get domain(): string {
    return this.binding.snapshot.domain;
  }

  /** The current HA state object (undefined while HA has none). */
  get entity(): HassEntity | undefined {
    return this.binding.snapshot.state;
  }

  /**
   * Calls an HA action for this entity. Resolves when HA accepted it; otherwise rejects with a StatusResponseError
   * (FAILURE), which fails the Matter command and rolls its transaction back, so the attributes keep HA's state.
   *
   * The call is registered at once and leaves at the end of this event-loop turn, merged with the calls of the same
   * action that other commands for this entity make in the same turn (see call-batch.ts). So call it BEFORE awaiting
   * anything (locks included), and await the promise after writing the optimistic state; `sendThenCommit`
   * (command-merge.ts) does exactly that. After a refusal the endpoint is re-synced to HA's state, for the values
   * that commands merged into the call may already have committed.
   */
  call(action: string, data?: Record<string, unknown>): Promise<void> {
    const binding = this.binding;
    return sendMerged(binding, this.#sender(), action, data).catch((error: unknown) => {
      binding.afterRefusal?.();
      const reason = error instanceof Error ? error.message : String(error);
      throw new StatusResponseError(`Home Assistant refused ${action} for ${this.entityId}: ${reason}`, Status.Failure);
    });
  }

  /** Adds `data` to a call of `action` made for this entity in the current turn; nothing is sent without one. */
  rideAlong(action: string, data: Record<string, unknown>): void {
    rideAlong(this.binding, this.#sender(), action, data);
  }

  /** Keeps this entity's calls from leaving until the returned function runs (a batched invoke, command-merge.ts). */
  holdCalls(): () => void {
    return holdWindow(this.binding, this.#sender());
  }

  /** Whether a call of `action` for this entity waits to leave in the current turn (an On a level may join). */
  isPending(action: string): boolean {
    return isPending(this.binding, action);
  }

  #sender(): CallSender {
    const { actions } = this.binding;
    const entityId = this.entityId;
    return (action, data) => actions.call({ action, entityId, ...(Object.keys(data).length > 0 ? { data } : {}) });
  }

  override [Symbol.asyncDispose]() {
    const binding = (this.constructor as typeof HaEntityBehavior).binding;
    if (binding?.momentaryTimer) clearTimeout(binding.momentaryTimer);
    if (binding) binding.momentaryTimer = undefined;
    return super[Symbol.asyncDispose]();
  }
}

/** The entity behavior of the endpoint a cluster behavior runs on. */
export function entityOf(behavior: Behavior): HaEntityBehavior {
  return behavior.agent.get(HaEntityBehavior);
}

/** The binding of an endpoint built by `createDeviceEndpoint`, or undefined for any other endpoint. */
export function bindingOfEndpoint(endpoint: Endpoint): EntityBinding | undefined {
  const type = endpoint.behaviors.supported[HaEntityBehavior.id] as typeof HaEntityBehavior | undefined;
  return type?.binding;
}

/**
 * Waits for exclusive write access to `behaviors` in the current transaction. Command handlers call this before
 * writing optimistic state: an automatic (synchronous) lock would throw if an HA state update held it.
 */
export async function lockForWrite(first: Behavior, ...others: Behavior[]): Promise<void> {
  const transaction = first.context.transaction;
  await transaction.begin();
  await transaction.addResources(first, ...others);
}

/** Fails a command the entity cannot carry out, before anything is sent to HA. */
export function unsupportedCommand(message: string): never {
  throw new StatusResponseError(message, Status.UnsupportedCommand);
}

/** Fails a command whose arguments the entity cannot accept (e.g. a mode it lacks). */
export function constraintError(message: string): never {
  throw new StatusResponseError(message, Status.ConstraintError);
}
