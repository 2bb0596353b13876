/**
 * The devices of a bridge as controllers count them (controller-checks.ts), for its record's warnings: a running
 * bridge's own, else what its configuration would expose now, from a plan reused for a few seconds.
 */
import type { BridgeConfig } from "./bridge-config.ts";
import type { BridgePlanner, BridgeRuntime } from "./bridge-runtime.ts";
import { type CountedDevice, countedFromPlan, countedFromRows } from "./controller-checks.ts";

/**
 * How long the plan of a stopped bridge is reused: records are read on every change and a plan of a large home takes
 * tens of milliseconds. A configuration change replans at once.
 */
const PLAN_REUSE_MS = 5000;

export class PlannedDevices {
  readonly #planner: BridgePlanner;
  readonly #planned = new Map<string, { key: string; until: number; devices: CountedDevice[] }>();

  constructor(planner: BridgePlanner) {
    this.#planner = planner;
  }

  counted(config: BridgeConfig, runtime: BridgeRuntime): CountedDevice[] {
    if (runtime.status === "running") return countedFromRows(runtime.devices(), runtime.pluginDevices());
    const { filter, composeDevices, controllers, leaveOutUnsupported } = config;
    const key = JSON.stringify([filter, composeDevices, controllers, leaveOutUnsupported]);
    const cached = this.#planned.get(config.id);
    if (cached && cached.key === key && cached.until > Date.now()) return cached.devices;
    const devices = countedFromPlan(this.#planner(config));
    this.#planned.set(config.id, { key, until: Date.now() + PLAN_REUSE_MS, devices });
    return devices;
  }

  /** Drops a deleted bridge's plan. */
  forget(id: string): void {
    this.#planned.delete(id);
  }
}
