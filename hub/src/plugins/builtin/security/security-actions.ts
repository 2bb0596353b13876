/**
 * The security plugin's Home Assistant calls, made reliable across connection gaps and restarts (docs/plugins.md
 * "Security plugin alarm"): a due turn_off is persisted before it is sent and forgotten only when HA confirms it; a
 * setter HA did not confirm is held and replayed on reconnect if its mode is still armed. Alerts fire once (a siren
 * that missed its moment is not sounded later).
 */
import type { PluginLogger, PluginStorage } from "../../api.ts";
import type { HaAccess } from "../../builtin-services.ts";
import type { Mode } from "./security-settings.ts";

interface HeldSetter {
  entityId: string;
  mode: Mode | "off";
}

const PENDING_OFF = "pendingTurnOffs";
const HELD = "heldSetters";

const domainOf = (entityId: string) => entityId.slice(0, entityId.indexOf("."));

export class SecurityActions {
  constructor(
    private readonly ha: HaAccess,
    private readonly storage: PluginStorage,
    private readonly log: PluginLogger,
    /** The mode whose setters are due now (armed in it), "off" while disarmed. */
    private readonly currentSetterMode: () => Mode | "off" | null,
  ) {}

  /** Setters (with their mode) or alerts (without): `<domain>.turn_on` for each. */
  async turnOn(entities: readonly string[], setterOf?: Mode | "off"): Promise<void> {
    await Promise.all(
      entities.map(async (entityId) => {
        try {
          await this.ha.call(`${domainOf(entityId)}.turn_on`, entityId);
        } catch (error) {
          this.log.warn(`${domainOf(entityId)}.turn_on ${entityId} failed: ${(error as Error).message}`);
          if (setterOf) await this.#hold({ entityId, mode: setterOf });
        }
      }),
    );
  }

  /** Persists the turn_off calls first, then sends them; confirmed ones leave the list. */
  async turnOff(entities: readonly string[]): Promise<void> {
    if (entities.length === 0) return;
    const pending = new Set([...this.#pending(), ...entities]);
    await this.storage.set(PENDING_OFF, [...pending]);
    await this.#sendTurnOffs(entities);
  }

  /** After a reconnect or a restart: due turn_off calls, and held setters of the mode still armed. */
  async replay(): Promise<void> {
    await this.#sendTurnOffs(this.#pending());
    const held = this.storage.get<HeldSetter[]>(HELD) ?? [];
    if (held.length === 0) return;
    const mode = this.currentSetterMode();
    await this.storage.set(HELD, []);
    const due = held.filter((setter) => setter.mode === mode).map((setter) => setter.entityId);
    if (due.length > 0 && mode) await this.turnOn(due, mode);
  }

  /** Setters of other modes are obsolete once the mode changes. */
  async dropHeld(): Promise<void> {
    if ((this.storage.get<HeldSetter[]>(HELD) ?? []).length > 0) await this.storage.set(HELD, []);
  }

  #pending(): string[] {
    return this.storage.get<string[]>(PENDING_OFF) ?? [];
  }

  async #sendTurnOffs(entities: readonly string[]): Promise<void> {
    for (const entityId of entities) {
      try {
        await this.ha.call(`${domainOf(entityId)}.turn_off`, entityId);
        await this.storage.set(
          PENDING_OFF,
          this.#pending().filter((id) => id !== entityId),
        );
      } catch (error) {
        this.log.warn(`${domainOf(entityId)}.turn_off ${entityId} failed, kept for replay: ${(error as Error).message}`);
      }
    }
  }

  async #hold(setter: HeldSetter): Promise<void> {
    const held = (this.storage.get<HeldSetter[]>(HELD) ?? []).filter((h) => h.entityId !== setter.entityId);
    await this.storage.set(HELD, [...held, setter]);
  }
}
