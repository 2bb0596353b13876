/**
 * DoorLock → `lock.lock` / `lock.unlock`. Built on the bare DoorLockBehavior: matter.js's DoorLockServer keeps its
 * own users, encrypted credentials and auto-relock timers, while here HA is the lock and PINs are checked by the
 * hub's credentials feature through the {@link PinCheck} hook (research complaint #18).
 *
 * Unlock asks the hook first; unless it answers `not_required` or `valid`, the command fails with FAILURE, a
 * LockOperationError (InvalidCredential) event is emitted and HA is not called. Lock never needs a PIN (a lock
 * command cannot open anything). HA's `lock.open` (unlatch) is deliberately not exposed: Matter's Unbolting
 * feature would make every controller "unlock" pull the latch and open the door.
 */

import { Bytes } from "@matter/main";
import { DoorLockBehavior } from "@matter/main/behaviors/door-lock";
import { DoorLock } from "@matter/main/clusters/door-lock";
import { Status, StatusResponseError } from "@matter/main/types";
import { entityOf, lockForWrite } from "./ha-entity-behavior.ts";

/** DoorLock whose lock/unlock commands are HA calls, unlock gated by the PIN hook. */
export class HaDoorLockServer extends DoorLockBehavior {
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
