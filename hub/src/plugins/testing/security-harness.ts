/**
 * The security plugin under test: fake context, fake Home Assistant and a fake clock, plus readers for what a
 * controller would see (which mode switch is on, whether the Alarm sensor is open) and a controller's switch flip.
 */
import { SecurityPlugin } from "../builtin/security/security-plugin.ts";
import type { Mode } from "../builtin/security/security-settings.ts";
import { FakeClock, settle } from "../clock.ts";
import { type FakeContext, type FakeHa, fakeBuiltinServices, fakeContext, fakeHa, memoryStorage } from "./fake-plugin-context.ts";

export const HOME = {
  "binary_sensor.front_door": { state: "off", attributes: { device_class: "door" } },
  "binary_sensor.hall_motion": { state: "off", attributes: { device_class: "motion" } },
  "binary_sensor.smoke": { state: "off", attributes: { device_class: "smoke" } },
  "alarm_control_panel.house": { state: "disarmed" },
};

/** Settings used by most rows: 30 s exit, 20 s entry, 120 s trigger time. */
export const SETTINGS = {
  exitDelaySeconds: 30,
  entryDelaySeconds: 20,
  triggerTimeSeconds: 120,
  homeSetters: "script.home_mode",
  awaySetters: "scene.away, switch.away_lights, scene.away",
  nightSetters: "script.night",
  offSetters: "script.disarmed",
  homeTriggers: "binary_sensor.front_door",
  awayTriggers: "binary_sensor.front_door, binary_sensor.hall_motion",
  nightTriggers: "binary_sensor.hall_motion",
  homeAlerts: "light.hall",
  awayAlerts: "siren.main, script.notify",
  nightAlerts: "siren.main",
  triggers24h: "binary_sensor.smoke",
  alerts24h: "siren.main, light.hall",
  alwaysAlerts: "switch.strobe",
};

export interface SecurityWorld {
  plugin: SecurityPlugin;
  context: FakeContext;
  ha: FakeHa;
  clock: FakeClock;
  status: { line: string | null; details: Record<string, unknown> | undefined };
  opened: ({ url: string; token: string } | undefined)[];
  /** The mode whose switch is on (null: none) and whether the Alarm contact sensor is open. */
  view(): { mode: Mode | null; open: boolean };
  flip(mode: Mode, on: boolean): Promise<void>;
  /** Calls made since the last `take()`. */
  take(): string[];
  advance(ms: number): Promise<void>;
  restart(config?: Record<string, unknown>): Promise<SecurityWorld>;
}

export async function securityWorld(
  config: Record<string, unknown> = SETTINGS,
  shared: { storage?: ReturnType<typeof memoryStorage>; ha?: FakeHa; clock?: FakeClock } = {},
): Promise<SecurityWorld> {
  const storage = shared.storage ?? memoryStorage();
  const ha = shared.ha ?? fakeHa(HOME);
  const clock = shared.clock ?? new FakeClock();
  const context = fakeContext(storage);
  const status: SecurityWorld["status"] = { line: null, details: undefined };
  const opened: SecurityWorld["opened"] = [];
  const services = fakeBuiltinServices({
    clock,
    setStatus: (line, details) => Object.assign(status, { line, details }),
    openHa: (own) => {
      opened.push(own);
      return ha;
    },
  });
  const plugin = new SecurityPlugin(services);
  await plugin.onStart(context);
  await plugin.onConfigChanged(config);
  await plugin.onConfigure();
  await settle();
  let seen = ha.calls.length;
  const world: SecurityWorld = {
    plugin,
    context,
    ha,
    clock,
    status,
    opened,
    view() {
      const modes = (["home", "away", "night", "vacation"] as const).filter(
        (m) => context.attribute(`mode-${m}`, "onOff", "onOff") === true,
      );
      if (modes.length > 1) throw new Error(`several mode switches are on: ${modes.join(", ")}`);
      return { mode: modes[0] ?? null, open: context.attribute("alarm", "booleanState", "stateValue") === false };
    },
    async flip(mode, on) {
      await context.write(`mode-${mode}`, "onOff", "onOff", on);
      await settle();
    },
    take() {
      const calls = ha.calls.slice(seen);
      seen = ha.calls.length;
      return calls;
    },
    advance: (ms) => clock.advance(ms),
    async restart(next = config) {
      await plugin.onShutdown();
      return securityWorld(next, { storage, ha, clock });
    },
  };
  return world;
}
