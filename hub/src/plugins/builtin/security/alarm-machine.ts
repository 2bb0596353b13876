/**
 * The local alarm of the security plugin: the state table of docs/plugins.md "Security plugin alarm", driven by a
 * Clock. The arm state (disarmed, arming in a mode during the exit delay, armed in a mode) and the trip (which
 * alerts fired, until when) are separate: a trip returns to exactly the arm state it interrupted, and a trip that
 * holds (trigger time 0) outlives arming and ends with the next disarm. Effects leave through {@link AlarmEffects};
 * every change is persisted as an {@link AlarmSnapshot} with absolute times, so a restart resumes the timers.
 */
import type { CancelTimer, Clock } from "../../builtin-services.ts";
import { CLEARABLE_ALERT_DOMAINS, type Mode, type SecuritySettings } from "./security-settings.ts";

export interface AlarmSnapshot {
  phase: "disarmed" | "arming" | "armed";
  mode: Mode | null;
  /** End of the exit delay while arming. */
  armUntil: number | null;
  /** End of a running entry delay while armed. */
  entryUntil: number | null;
  trip: { tier: Mode | "24h"; fired: string[]; until: number | null } | null;
}

/** What the Matter side shows: which mode switch is on, and whether the Alarm contact sensor is open. */
export interface AlarmView {
  mode: Mode | null;
  tripped: boolean;
}

export interface AlarmEffects {
  /** Setters (with the mode they belong to) and alerts: each entity's `<domain>.turn_on`. */
  turnOn(entities: readonly string[], setterOf?: Mode | "off"): void;
  /** Siren, switch and light alerts when the alarm clears. */
  turnOff(entities: readonly string[]): void;
  view(view: AlarmView): void;
  persist(snapshot: AlarmSnapshot): void;
}

export const DISARMED: AlarmSnapshot = { phase: "disarmed", mode: null, armUntil: null, entryUntil: null, trip: null };

export class AlarmMachine {
  #state: AlarmSnapshot;
  readonly #timers: { arm?: CancelTimer; entry?: CancelTimer; trip?: CancelTimer } = {};

  constructor(
    private readonly settings: SecuritySettings,
    private readonly clock: Clock,
    private readonly effects: AlarmEffects,
    restored: AlarmSnapshot = DISARMED,
  ) {
    this.#state = structuredClone(restored);
  }

  get snapshot(): AlarmSnapshot {
    return structuredClone(this.#state);
  }

  /** The mode whose setters are due: armed (not arming) in it. */
  get armedMode(): Mode | null {
    return this.#state.phase === "armed" ? this.#state.mode : null;
  }

  /** Shows the restored state and resumes its timers; due ones fire now. */
  resume(): void {
    const { armUntil, entryUntil, trip } = this.#state;
    this.#emit();
    if (this.#state.phase === "arming" && armUntil !== null) this.#timers.arm = this.#at(armUntil, () => this.#armed());
    if (entryUntil !== null) this.#timers.entry = this.#at(entryUntil, () => this.#entryElapsed());
    if (trip?.until != null) this.#timers.trip = this.#at(trip.until, () => this.#clearTrip());
  }

  /** A mode switch turned on: exit delay, then armed in that mode (the other switches go off at once). */
  switchOn(mode: Mode): void {
    if (this.#state.mode === mode && this.#state.phase !== "disarmed") {
      this.#emit();
      return;
    }
    this.#cancel("arm", "entry");
    const delay = this.settings.exitDelayMs;
    this.#state = { ...this.#state, phase: "arming", mode, armUntil: this.clock.now() + delay, entryUntil: null };
    if (delay === 0) {
      this.#armed();
      return;
    }
    this.#timers.arm = this.clock.setTimeout(() => this.#armed(), delay);
    this.#changed();
  }

  /** A mode switch turned off: when it is the active one, the alarm is disarmed (and a trip clears). */
  switchOff(mode: Mode): void {
    if (this.#state.phase === "disarmed" || this.#state.mode !== mode) {
      this.#emit();
      return;
    }
    this.#cancel("arm", "entry");
    this.#state = { ...this.#state, phase: "disarmed", mode: null, armUntil: null, entryUntil: null };
    if (this.#state.trip) this.#clearTrip(false);
    this.effects.turnOn(this.settings.setters.off, "off");
    this.#changed();
  }

  /** A trigger sensor became active. `perimeter`: a door, window, garage door or opening binary sensor. */
  sensorTriggered(entityId: string, perimeter: boolean): void {
    if (this.#state.trip) return;
    if (this.settings.triggers24h.includes(entityId)) {
      this.#trip("24h");
      return;
    }
    const mode = this.#state.mode;
    if (this.#state.phase !== "armed" || !mode || !this.settings.triggers[mode].includes(entityId)) return;
    const delay = this.settings.entryDelayMs;
    if (!perimeter || delay === 0) {
      this.#trip(mode);
      return;
    }
    if (this.#state.entryUntil !== null) return;
    this.#state = { ...this.#state, entryUntil: this.clock.now() + delay };
    this.#timers.entry = this.clock.setTimeout(() => this.#entryElapsed(), delay);
    this.#changed();
  }

  dispose(): void {
    this.#cancel("arm", "entry", "trip");
  }

  #armed(): void {
    const mode = this.#state.mode;
    if (!mode) return;
    this.#timers.arm = undefined;
    this.#state = { ...this.#state, phase: "armed", armUntil: null };
    this.effects.turnOn(this.settings.setters[mode], mode);
    this.#changed();
  }

  #entryElapsed(): void {
    this.#timers.entry = undefined;
    this.#state = { ...this.#state, entryUntil: null };
    if (this.#state.phase === "armed" && this.#state.mode) this.#trip(this.#state.mode);
    else this.#changed();
  }

  #trip(tier: Mode | "24h"): void {
    this.#cancel("entry");
    const tierAlerts = tier === "24h" ? this.settings.alerts24h : this.settings.alerts[tier];
    const fired = [...new Set([...tierAlerts, ...this.settings.alwaysAlerts])];
    const hold = this.settings.triggerTimeMs;
    this.#state = { ...this.#state, entryUntil: null, trip: { tier, fired, until: hold > 0 ? this.clock.now() + hold : null } };
    if (hold > 0) this.#timers.trip = this.clock.setTimeout(() => this.#clearTrip(), hold);
    this.effects.turnOn(fired);
    this.#changed();
  }

  /** Back to the arm state the trip interrupted; siren, switch and light alerts are turned off. */
  #clearTrip(emit = true): void {
    this.#cancel("trip");
    const fired = this.#state.trip?.fired ?? [];
    this.#state = { ...this.#state, trip: null };
    this.effects.turnOff(fired.filter((id) => CLEARABLE_ALERT_DOMAINS.has(id.slice(0, id.indexOf(".")))));
    if (emit) this.#changed();
  }

  #at(when: number, run: () => void): CancelTimer {
    return this.clock.setTimeout(run, Math.max(0, when - this.clock.now()));
  }

  #cancel(...names: ("arm" | "entry" | "trip")[]): void {
    for (const name of names) {
      this.#timers[name]?.();
      this.#timers[name] = undefined;
    }
  }

  #emit(): void {
    this.effects.view({ mode: this.#state.phase === "disarmed" ? null : this.#state.mode, tripped: this.#state.trip !== null });
  }

  #changed(): void {
    this.effects.persist(this.snapshot);
    this.#emit();
  }
}
