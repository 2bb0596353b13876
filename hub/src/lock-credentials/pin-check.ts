import type { Logger } from "../../../lib/logger.ts";
import { verifyPassword } from "../auth/password-hash.ts";
import type { PinRequirement } from "../matter/behaviors/door-lock-server.ts";
import type { PinCheck, PinVerdict } from "../matter/model/contract.ts";
import { isWellFormedPin } from "../matter/model/pin-policy.ts";
import type { CredentialStore } from "./credential-store.ts";
import type { PinBrake } from "./pin-brake.ts";

/**
 * The PinCheck handed to the bridges, carrying the {@link PinRequirement} the DoorLock endpoint reads to
 * advertise RequirePINforRemoteOperation and to update it live.
 */
export type PinCheckWithRequirement = PinCheck & { readonly requirement: PinRequirement };

interface PinCheckDeps extends PinRequirement {
  store: CredentialStore;
  brake: PinBrake;
  log: Logger;
}

/**
 * Builds the hook the DoorLock behavior asks before each remote unlock. Checks of one lock run one after the
 * other: parallel guesses cannot slip past the brake while earlier ones are still being hashed, and a flood of
 * guesses costs one scrypt at a time (32 MiB each) instead of exhausting memory and the thread pool.
 */
export function createPinCheck(deps: PinCheckDeps): PinCheckWithRequirement {
  const { store, brake, log } = deps;
  const queues = new Map<string, Promise<unknown>>();

  const serial = (entityId: string, task: () => Promise<PinVerdict>): Promise<PinVerdict> => {
    const run = (queues.get(entityId) ?? Promise.resolve()).then(task, task);
    const settled = run.catch(() => undefined);
    queues.set(entityId, settled);
    void settled.then(() => {
      if (queues.get(entityId) === settled) queues.delete(entityId);
    });
    return run;
  };

  /** Usage fields of the credential that was checked (not of one that replaced it meanwhile), then persisted. */
  const record = (
    entityId: string,
    pinHash: string,
    change: (credential: { lastUsedAt?: string; failedAttempts?: number }) => void,
  ) => {
    const current = store.get(entityId);
    if (current?.pinHash !== pinHash) return;
    change(current);
    store.persist().catch((error: unknown) => log.warn({ err: error, entityId }, "could not save lock credential usage"));
  };

  const verify = async (entityId: string, pin: string): Promise<PinVerdict> => {
    const credential = store.get(entityId);
    if (!credential?.enabled) return "not_required";
    const until = brake.lockedUntil(entityId);
    if (until !== undefined) {
      log.warn(
        { entityId },
        `remote unlock of ${entityId} refused: too many wrong PINs, locked out until ${new Date(until).toISOString()}`,
      );
      return "invalid";
    }
    // A malformed PIN can never match; not worth a slow hash, but it is a wrong guess all the same.
    const valid = isWellFormedPin(pin) && (await verifyPassword(pin, credential.pinHash));
    if (valid) {
      brake.recordSuccess(entityId);
      record(entityId, credential.pinHash, (c) => {
        c.lastUsedAt = new Date().toISOString();
        c.failedAttempts = 0;
      });
      log.info({ entityId }, `remote unlock of ${entityId} with the right PIN`);
      return "valid";
    }
    const lockedOut = brake.recordFailure(entityId);
    record(entityId, credential.pinHash, (c) => {
      c.failedAttempts = (c.failedAttempts ?? 0) + 1;
    });
    log.warn(
      { entityId, failedAttempts: store.get(entityId)?.failedAttempts },
      `remote unlock of ${entityId} refused: wrong PIN`,
    );
    const lockedOutUntil = lockedOut ? brake.lockedUntil(entityId) : undefined;
    if (lockedOutUntil !== undefined) {
      const until = new Date(lockedOutUntil).toISOString();
      log.warn({ entityId }, `too many wrong PINs for ${entityId}: remote unlocks refused until ${until}`);
    }
    return "invalid";
  };

  const check: PinCheck = async (entityId, pin) => {
    if (!store.get(entityId)?.enabled) return "not_required";
    if (pin === undefined || pin === "") {
      log.warn({ entityId }, `remote unlock of ${entityId} refused: a PIN is required and the controller sent none`);
      return "missing";
    }
    try {
      return await serial(entityId, () => verify(entityId, pin));
    } catch (error) {
      // Fail closed: whatever went wrong, the door stays locked.
      log.error({ err: error, entityId }, `could not check the PIN for ${entityId}`);
      return "invalid";
    }
  };
  const requirement: PinRequirement = { required: deps.required, onChange: deps.onChange };
  return Object.assign(check, { requirement });
}
