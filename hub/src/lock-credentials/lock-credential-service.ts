import { badRequest, notFound } from "../../../lib/http-error.ts";
import type { Logger } from "../../../lib/logger.ts";
import { hashPassword, type ScryptParams } from "../auth/password-hash.ts";
import { isWellFormedPin, LOCK_ENTITY_ID, PIN_RULE } from "../matter/model/pin-policy.ts";
import { CredentialStore, type StoredCredential } from "./credential-store.ts";
import { PinBrake, type PinBrakeOptions } from "./pin-brake.ts";
import { createPinCheck, type PinCheckWithRequirement } from "./pin-check.ts";

/** A credential as the API shows it: never the PIN, never its hash. */
export interface LockCredentialView {
  entityId: string;
  enabled: boolean;
  hasPin: true;
  createdAt: string;
  updatedAt: string;
  lastUsedAt: string | null;
  /** Wrong PINs since the last right one or the last PIN change. */
  failedAttempts: number;
  /** While the brute-force brake refuses remote unlocks of this lock, until when (ISO 8601); else null. */
  lockedOutUntil: string | null;
}

export interface LockCredentialServiceOptions {
  dataDir: string;
  log: Logger;
  /** scrypt cost; the shared default unless a test wants it cheaper. */
  scrypt?: ScryptParams;
  brake?: PinBrakeOptions;
}

/**
 * PIN credentials per lock entity. The hub, not HA, holds them: a lock with an enabled credential needs its PIN
 * for every remote unlock through Matter ({@link LockCredentialService.pinCheck}); lock never needs one.
 */
export class LockCredentialService {
  readonly #store: CredentialStore;
  readonly #brake: PinBrake;
  readonly #log: Logger;
  readonly #scrypt: ScryptParams | undefined;
  readonly #listeners = new Set<(entityId: string) => void>();
  /** The hook for MatterBridgeDeps.pinCheck; also tells DoorLock endpoints whether to advertise a required PIN. */
  readonly pinCheck: PinCheckWithRequirement;

  constructor(options: LockCredentialServiceOptions) {
    this.#store = new CredentialStore(options.dataDir);
    this.#brake = new PinBrake(options.brake);
    this.#log = options.log;
    this.#scrypt = options.scrypt;
    this.pinCheck = createPinCheck({
      store: this.#store,
      brake: this.#brake,
      log: options.log,
      required: (entityId) => this.requiresPin(entityId),
      onChange: (listener) => this.onChange(listener),
    });
  }

  /** Where the credentials live (for backups). */
  get path(): string {
    return this.#store.path;
  }

  /**
   * Reads the file. Also usable again after a restore replaced the file: every lock whose credential may have
   * changed is then announced, so that running DoorLock endpoints advertise the restored requirement.
   */
  async load(): Promise<void> {
    const affected = new Set(this.#store.list().map((credential) => credential.entityId));
    await this.#store.load();
    for (const credential of this.#store.list()) affected.add(credential.entityId);
    for (const entityId of affected) this.#notify(entityId);
  }

  /** True when a remote unlock of this lock needs its PIN. */
  requiresPin(entityId: string): boolean {
    return this.#store.get(entityId)?.enabled === true;
  }

  /** Called with the lock's entity id after its credential was created, changed, enabled, disabled or deleted. */
  onChange(listener: (entityId: string) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  list(): LockCredentialView[] {
    return this.#store.list().map((credential) => this.#view(credential));
  }

  /** One credential; 404 when the lock has none. */
  get(entityId: string): LockCredentialView {
    return this.#view(this.#existing(entityId));
  }

  /**
   * Creates or replaces a lock's PIN (hashed off the event loop). `enabled` defaults to true for a new credential
   * and to the current value for an existing one. A new PIN clears the wrong-PIN count and any lockout.
   */
  async put(
    entityId: string,
    input: { pin: string; enabled?: boolean | undefined },
  ): Promise<{ credential: LockCredentialView; created: boolean }> {
    if (!LOCK_ENTITY_ID.test(entityId)) {
      throw badRequest(`Not a lock entity id: ${entityId} (PIN credentials are for lock.* entities)`);
    }
    if (!isWellFormedPin(input.pin)) throw badRequest(PIN_RULE);
    const { credential, created } = await this.#store.update(async (credentials) => {
      const pinHash = await hashPassword(input.pin, this.#scrypt);
      const previous = Object.hasOwn(credentials, entityId) ? credentials[entityId] : undefined;
      const now = new Date().toISOString();
      const next: StoredCredential = {
        entityId,
        enabled: input.enabled ?? previous?.enabled ?? true,
        pinHash,
        createdAt: previous?.createdAt ?? now,
        updatedAt: now,
        ...(previous?.lastUsedAt ? { lastUsedAt: previous.lastUsedAt } : {}),
        failedAttempts: 0,
      };
      credentials[entityId] = next;
      return { credential: next, created: previous === undefined };
    });
    this.#brake.reset(entityId);
    this.#log.info(
      { entityId, enabled: credential.enabled },
      `PIN credential ${created ? "created" : "replaced"} for ${entityId}`,
    );
    this.#notify(entityId);
    return { credential: this.#view(credential), created };
  }

  /** Enables or disables a lock's credential; 404 when it has none. */
  async setEnabled(entityId: string, enabled: boolean): Promise<LockCredentialView> {
    const credential = await this.#store.update((credentials) => {
      const existing = this.#existing(entityId);
      const next = { ...existing, enabled, updatedAt: new Date().toISOString() };
      credentials[entityId] = next;
      return next;
    });
    this.#log.info({ entityId, enabled }, `PIN credential for ${entityId} ${enabled ? "enabled" : "disabled"}`);
    this.#notify(entityId);
    return this.#view(credential);
  }

  /** Deletes a lock's credential (its unlocks no longer need a PIN); 404 when it has none. */
  async delete(entityId: string): Promise<void> {
    await this.#store.update((credentials) => {
      this.#existing(entityId);
      delete credentials[entityId];
    });
    this.#brake.reset(entityId);
    this.#log.info({ entityId }, `PIN credential for ${entityId} deleted`);
    this.#notify(entityId);
  }

  #existing(entityId: string): StoredCredential {
    const credential = this.#store.get(entityId);
    if (!credential) throw notFound(`No lock credential for ${entityId}`);
    return credential;
  }

  #view(credential: StoredCredential): LockCredentialView {
    const until = this.#brake.lockedUntil(credential.entityId);
    return {
      entityId: credential.entityId,
      enabled: credential.enabled,
      hasPin: true,
      createdAt: credential.createdAt,
      updatedAt: credential.updatedAt,
      lastUsedAt: credential.lastUsedAt ?? null,
      failedAttempts: credential.failedAttempts ?? 0,
      lockedOutUntil: until === undefined ? null : new Date(until).toISOString(),
    };
  }

  #notify(entityId: string): void {
    for (const listener of this.#listeners) {
      try {
        listener(entityId);
      } catch (error) {
        this.#log.warn({ err: error, entityId }, "a lock credential listener failed");
      }
    }
  }
}
