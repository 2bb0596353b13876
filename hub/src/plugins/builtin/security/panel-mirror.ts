/**
 * `sourceAlarmPanel`: the four mode switches and the Alarm sensor mirror an HA alarm panel instead of running the
 * local alarm (docs/plugins.md "Security plugin alarm"). Switch writes become `alarm_arm_*` / `alarm_disarm` on the
 * panel, without a code; when HA refuses (a panel that needs a code), the failure is logged and the switches go back
 * to the panel's real state. `armed_custom_bypass` (and transitional states) leave the Matter view unchanged.
 */
import type { PluginLogger } from "../../api.ts";
import type { HaAccess } from "../../builtin-services.ts";
import type { AlarmView } from "./alarm-machine.ts";
import type { Mode } from "./security-settings.ts";

const ARMED: Record<string, Mode> = {
  armed_home: "home",
  armed_away: "away",
  armed_night: "night",
  armed_vacation: "vacation",
};

export class PanelMirror {
  #view: AlarmView = { mode: null, tripped: false };
  #off: (() => void) | undefined;

  constructor(
    private readonly panelId: string,
    private readonly ha: HaAccess,
    private readonly show: (view: AlarmView) => void,
    private readonly log: PluginLogger,
  ) {}

  /** Shows the panel's current state and follows its state changes. */
  start(): void {
    this.#follow(this.ha.state(this.panelId)?.state);
    this.#off = this.ha.onState(this.panelId, (state) => this.#follow(state?.state));
  }

  stop(): void {
    this.#off?.();
    this.#off = undefined;
  }

  /** A controller flipped a mode switch. */
  async switchChanged(mode: Mode, on: boolean): Promise<void> {
    if (!on && this.#view.mode !== mode) return this.show(this.#view);
    const service = on ? `alarm_arm_${mode}` : "alarm_disarm";
    try {
      await this.ha.call(`alarm_control_panel.${service}`, this.panelId);
    } catch (error) {
      this.log.warn(`${service} on ${this.panelId} failed (${(error as Error).message}); switches show the panel's state again`);
      this.#follow(this.ha.state(this.panelId)?.state, true);
    }
  }

  /** The Matter view for a panel state; undefined where the spec keeps the view as it is. */
  static viewFor(state: string | undefined, current: AlarmView): AlarmView | undefined {
    if (state === undefined) return undefined;
    const mode = ARMED[state];
    if (mode) return { mode, tripped: false };
    if (state === "disarmed") return { mode: null, tripped: false };
    if (state === "triggered") return { mode: current.mode, tripped: true };
    return undefined;
  }

  #follow(state: string | undefined, force = false): void {
    const next = PanelMirror.viewFor(state, this.#view);
    if (next) this.#view = next;
    if (next || force) this.show(this.#view);
  }
}
