/** Why a recovery sweep ran. */
export type RecoveryTrigger = "interval" | "ha-reconnect";

/** One automatic restart of a failed bridge, as `/api/health/detailed` shows it. */
export interface RecoveryAttempt {
  /** ISO 8601. */
  at: string;
  ok: boolean;
  /** Why the bridge is still failed (its status reason). */
  error?: string;
  trigger: RecoveryTrigger;
}

/** How many attempts are kept per bridge. */
export const ATTEMPTS_KEPT = 10;

/** The recent recovery attempts of each bridge, oldest first, bounded per bridge; in memory only. */
export class RecoveryAttempts {
  readonly #byBridge = new Map<string, RecoveryAttempt[]>();

  add(bridgeId: string, attempt: RecoveryAttempt): void {
    const list = this.#byBridge.get(bridgeId) ?? [];
    list.push(attempt);
    if (list.length > ATTEMPTS_KEPT) list.splice(0, list.length - ATTEMPTS_KEPT);
    this.#byBridge.set(bridgeId, list);
  }

  /** A copy of the bridge's attempts, oldest first. */
  of(bridgeId: string): RecoveryAttempt[] {
    return [...(this.#byBridge.get(bridgeId) ?? [])];
  }

  /** Forgets bridges that no longer exist. */
  keepOnly(bridgeIds: ReadonlySet<string>): void {
    for (const bridgeId of this.#byBridge.keys()) if (!bridgeIds.has(bridgeId)) this.#byBridge.delete(bridgeId);
  }
}
