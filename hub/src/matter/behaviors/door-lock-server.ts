/**
 * DoorLock → `lock.lock` / `lock.unlock`. Built on the bare DoorLockBehavior: matter.js's DoorLockServer keeps its
 * own users, encrypted credentials and auto-relock timers, while here HA is the lock and PINs are checked by the
 * hub's credentials feature through the {@link PinCheck} hook (research complaint #18).
 *
 * Unlock asks the hook first; unless it answers `not_required` or `valid`, the command fails with FAILURE, a
 * LockOperationError (InvalidCredential) event is emitted and HA is not called. Lock never needs a PIN (a lock
 * command cannot open anything). HA's `lock.open` (unlatch) is deliberately not exposed: Matter's Unbolting
 * feature would make every controller "unlock" pull the latch and open the door.
 *
 * Features PinCredential + CredentialOverTheAirAccess, so that controllers learn whether to send a PIN: they add
 * RequirePINforRemoteOperation (true while the lock has an enabled hub credential, updated live), the PIN length
 * range and the wrong-code limit (model/pin-policy.ts). Not the User feature: the hub manages one PIN
 * per lock over its HTTP API, so Matter's user and credential commands (SetUser, SetCredential, …) are not offered.
 */

import { Bytes, type Endpoint } from "@matter/main";
import { DoorLockBehavior } from "@matter/main/behaviors/door-lock";
import { DoorLock } from "@matter/main/clusters/door-lock";
import { Status, StatusResponseError } from "@matter/main/types";
import type { PinCheck } from "../model/contract.ts";
import { entityOf, lockForWrite } from "./ha-entity-behavior.ts";
import { forwardWrites, markOrigin } from "./write-forwarder.ts";

/**
 * What a {@link PinCheck} may carry besides its verdicts, as its `requirement` property: whether a lock needs a
 * PIN now and when that may have changed, so the endpoint advertises RequirePINforRemoteOperation truthfully.
 */
export interface PinRequirement {
  required(entityId: string): boolean;
  /** Calls `listener` with a lock's entity id whenever its answer may have changed; returns the unsubscribe. */
  onChange(listener: (entityId: string) => void): () => void;
}

/** The {@link PinRequirement} a PinCheck carries, if any (NO_PIN_REQUIRED carries none: never required). */
export function pinRequirementOf(check: PinCheck): PinRequirement | undefined {
  return (check as PinCheck & { requirement?: PinRequirement }).requirement;
}

/** Decided by the hub's credentials; the spec lets a lock make them read-only (R[W]), so controller writes fail. */
const HUB_MANAGED = ["requirePinForRemoteOperation", "wrongCodeEntryLimit", "userCodeTemporaryDisableTime"];

const Base = DoorLockBehavior.with(DoorLock.Feature.PinCredential, DoorLock.Feature.CredentialOverTheAirAccess);

/** DoorLock whose lock/unlock commands are HA calls, unlock gated by the PIN hook. */
export class HaDoorLockServer extends Base {
  declare internal: HaDoorLockServer.Internal;

  override initialize() {
    const ha = entityOf(this);
    const requirement = pinRequirementOf(ha.binding.pinCheck);
    if (requirement) {
      this.state.requirePinForRemoteOperation = requirement.required(ha.entityId);
      const { endpoint } = this;
      const binding = ha.binding;
      this.internal.stopWatching = requirement.onChange((entityId) => {
        if (entityId === binding.snapshot.entityId) void publishRequirement(endpoint, requirement.required(entityId));
      });
    }
    forwardWrites(this, HUB_MANAGED, async () => {
      throw new StatusResponseError("set by the hub's lock credentials, not writable", Status.UnsupportedWrite);
    });
  }

  override async [Symbol.asyncDispose]() {
    this.internal.stopWatching?.();
    this.internal.stopWatching = undefined;
    await super[Symbol.asyncDispose]?.();
  }

  override async lockDoor(request: DoorLock.LockDoorRequest) {
    await this.#operate(DoorLock.LockOperationType.Lock, request.pinCode);
  }

  override async unlockDoor(request: DoorLock.UnlockDoorRequest) {
    await this.#operate(DoorLock.LockOperationType.Unlock, request.pinCode);
  }

  async #operate(operation: DoorLock.LockOperationType, pinCode: Bytes | undefined) {
    const ha = entityOf(this);
    const unlocking = operation === DoorLock.LockOperationType.Unlock;
    if (unlocking) {
      const verdict = await ha.binding.pinCheck(ha.entityId, pinCode === undefined ? undefined : Bytes.toString(pinCode));
      if (verdict !== "not_required" && verdict !== "valid") {
        this.#emitError(operation);
        throw new StatusResponseError(`PIN ${verdict} for ${ha.entityId}`, Status.Failure);
      }
    }
    await lockForWrite(this);
    this.state.lockState = unlocking ? DoorLock.LockState.Unlocked : DoorLock.LockState.Locked;
    // A lock whose integration wants a code (HA `code_format`) gets the PIN the controller sent, as HA's `code`.
    const pin = pinCode === undefined ? undefined : Bytes.toString(pinCode);
    const wantsCode = typeof ha.binding.snapshot.state?.attributes.code_format === "string";
    await ha.call(unlocking ? "lock.unlock" : "lock.lock", wantsCode && pin ? { code: pin } : undefined);
    this.events.lockOperation.emit(
      {
        lockOperationType: operation,
        operationSource: DoorLock.OperationSource.Remote,
        userIndex: null,
        fabricIndex: this.context.fabric ?? null,
        sourceNode: null,
        credentials: null,
      },
      this.context,
    );
  }

  #emitError(operation: DoorLock.LockOperationType) {
    this.events.lockOperationError.emit(
      {
        lockOperationType: operation,
        operationSource: DoorLock.OperationSource.Remote,
        operationError: DoorLock.OperationError.InvalidCredential,
        userIndex: null,
        fabricIndex: this.context.fabric ?? null,
        sourceNode: null,
        credentials: null,
      },
      this.context,
    );
  }
}

export namespace HaDoorLockServer {
  export class Internal {
    /** Ends the subscription to the credential changes of this endpoint's lock. */
    stopWatching: (() => void) | undefined;
  }
}

/** Sets RequirePINforRemoteOperation from outside a command; tagged so that it is not refused as a controller write. */
async function publishRequirement(endpoint: Endpoint, required: boolean): Promise<void> {
  try {
    await endpoint.act("pin-requirement", async (agent) => {
      const transaction = agent.context.transaction;
      markOrigin(transaction, "ha-state");
      await transaction.begin();
      const lock = agent.get(HaDoorLockServer);
      await transaction.addResources(lock);
      lock.state.requirePinForRemoteOperation = required;
    });
  } catch {
    // The endpoint is closing (entity removed, bridge stopping): nothing left to advertise on.
  }
}
