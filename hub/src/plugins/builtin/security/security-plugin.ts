/**
 * The built-in Security plugin (experimental local alarm, docs/plugins.md "Security plugin"): four mutually
 * exclusive mode switches (Home, Away, Night, Vacation) and an Alarm contact sensor that opens when the alarm trips,
 * so controller automations can react. No devices until the settings are saved. Either runs the local
 * {@link AlarmMachine} over HA trigger sensors, setters and alerts, or mirrors an HA alarm panel
 * ({@link PanelMirror}). There is no PIN: anything that can flip the switches can disarm.
 */
import type { HubPlugin, PluginConfig, PluginContext, PluginDeviceRegistration } from "../../api.ts";
import type { BuiltinServices, HaAccess } from "../../builtin-services.ts";
import { AlarmMachine, type AlarmSnapshot, type AlarmView, DISARMED } from "./alarm-machine.ts";
import { PanelMirror } from "./panel-mirror.ts";
import { SecurityActions } from "./security-actions.ts";
import { MODES, type Mode, parseSecuritySettings, SECURITY_SCHEMA } from "./security-settings.ts";

export const SECURITY_PLUGIN = "security";
const TITLES: Record<Mode, string> = { home: "Home", away: "Away", night: "Night", vacation: "Vacation" };
const PERIMETER_CLASSES = new Set(["door", "window", "garage_door", "opening"]);
const ACTIVE_STATES = new Set(["on", "open", "opening", "unlocked"]);

export class SecurityPlugin implements HubPlugin {
  readonly name = SECURITY_PLUGIN;
  readonly version = "1.0.0";
  #context: PluginContext | undefined;
  #ha: HaAccess | undefined;
  #machine: AlarmMachine | undefined;
  #mirror: PanelMirror | undefined;
  #offs: (() => void)[] = [];
  #registered = false;
  #warnings: string[] = [];
  #pushes: Promise<unknown> = Promise.resolve();

  constructor(private readonly services: BuiltinServices) {}

  onStart(context: PluginContext): void {
    this.#context = context;
    this.services.setStatus("not configured: no devices until the settings are saved", undefined, { needsSettings: true });
  }

  async onConfigChanged(config: PluginConfig): Promise<void> {
    const context = this.#context;
    if (!context) return;
    this.#warnings = [];
    const settings = parseSecuritySettings(config, (warning) => {
      this.#warnings.push(warning);
      context.log.warn(warning);
    });
    await this.#teardown();
    const ha = this.services.openHa(settings.ha ?? undefined);
    this.#ha = ha;
    await this.#registerDevices(context);
    if (settings.sourceAlarmPanel) {
      this.#mirror = new PanelMirror(settings.sourceAlarmPanel, ha, (view) => this.#show(view), context.log);
      this.#mirror.start();
      return;
    }
    const actions = new SecurityActions(ha, context.storage, context.log, () => {
      const machine = this.#machine;
      if (!machine) return null;
      return machine.armedMode ?? (machine.snapshot.phase === "disarmed" ? "off" : null);
    });
    const machine = new AlarmMachine(
      settings,
      this.services.clock,
      {
        turnOn: (entities, setterOf) => void actions.turnOn(entities, setterOf),
        turnOff: (entities) => void actions.turnOff(entities),
        view: (view) => this.#show(view),
        persist: (snapshot) => void context.storage.set("alarm", snapshot).catch(() => undefined),
      },
      context.storage.get<AlarmSnapshot>("alarm") ?? DISARMED,
    );
    this.#machine = machine;
    for (const entityId of new Set([...Object.values(settings.triggers).flat(), ...settings.triggers24h])) {
      this.#offs.push(
        ha.onState(entityId, (state, previous) => {
          if (!ACTIVE_STATES.has(state?.state ?? "") || ACTIVE_STATES.has(previous?.state ?? "")) return;
          const perimeter =
            entityId.startsWith("binary_sensor.") && PERIMETER_CLASSES.has(String(state?.attributes.device_class));
          machine.sensorTriggered(entityId, perimeter);
        }),
      );
    }
    this.#offs.push(ha.onReconnect(() => void actions.replay()));
    machine.resume();
    await actions.replay();
  }

  onConfigure(): void {}

  async onShutdown(): Promise<void> {
    await this.#teardown();
    await this.#pushes;
    this.#context = undefined;
  }

  getConfigSchema() {
    return SECURITY_SCHEMA;
  }

  async #registerDevices(context: PluginContext): Promise<void> {
    if (this.#registered) return;
    for (const mode of MODES) {
      const device: PluginDeviceRegistration = {
        id: `mode-${mode}`,
        name: TITLES[mode],
        deviceType: "on_off_plugin_unit",
        clusters: [{ clusterId: "onOff", attributes: { onOff: false } }],
        onAttributeWrite: (clusterId, attribute, value) => this.#switched(mode, clusterId, attribute, value),
      };
      await context.registerDevice(device);
    }
    await context.registerDevice({
      id: "alarm",
      name: "Alarm",
      deviceType: "contact_sensor",
      clusters: [{ clusterId: "booleanState", attributes: { stateValue: true } }],
    });
    this.#registered = true;
  }

  async #switched(mode: Mode, clusterId: string, attribute: string, value: unknown): Promise<void> {
    if (clusterId !== "onOff" || attribute !== "onOff") return;
    if (this.#mirror) return this.#mirror.switchChanged(mode, value === true);
    if (value === true) this.#machine?.switchOn(mode);
    else this.#machine?.switchOff(mode);
  }

  /** Pushes a view to the switches and the sensor, in order; the status line follows. */
  #show(view: AlarmView): void {
    const context = this.#context;
    if (!context) return;
    const phase = this.#machine?.snapshot.phase;
    const where = this.#mirror ? "mirroring the panel" : phase === "arming" ? "arming" : view.mode ? "armed" : "disarmed";
    const line = `${view.tripped ? "TRIPPED, " : ""}${where}${view.mode ? ` (${TITLES[view.mode]})` : ""}`;
    this.services.setStatus(line, this.#warnings.length > 0 ? { warnings: this.#warnings } : undefined);
    this.#pushes = this.#pushes.then(async () => {
      try {
        for (const mode of MODES) await context.updateDeviceState(`mode-${mode}`, "onOff", { onOff: view.mode === mode });
        await context.updateDeviceState("alarm", "booleanState", { stateValue: !view.tripped });
      } catch (error) {
        context.log.debug(`could not show the alarm state: ${(error as Error).message}`);
      }
    });
  }

  async #teardown(): Promise<void> {
    for (const off of this.#offs.splice(0)) off();
    this.#machine?.dispose();
    this.#machine = undefined;
    this.#mirror?.stop();
    this.#mirror = undefined;
    await this.#ha?.close();
    this.#ha = undefined;
  }
}
