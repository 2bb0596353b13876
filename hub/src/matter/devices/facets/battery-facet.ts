/**
 * Battery facet: a Power Source cluster with the Battery feature on the endpoint of the entity whose HA device has
 * a battery sensor (%), a battery-low binary sensor, and optionally a charging binary sensor (then Rechargeable).
 * On a bridged endpoint this is where the Bridged Node device type puts a device's power source
 * (../shared/research/composed-devices.md §2), and EndpointList names the endpoint itself: an empty list would mean
 * "the whole bridge", and Google reportedly hides the battery then.
 */
import { PowerSourceServer } from "@matter/main/behaviors/power-source";
import { PowerSource } from "@matter/main/clusters/power-source";
import type { Companions } from "../../model/contract.ts";
import { batteryToMatter, chargeLevelOf } from "../../model/convert/electrical.ts";
import { hasValue, numericState } from "../../model/ha-state.ts";
import type { KindContext, StatePatch } from "../kinds/kind.ts";
import type { Facet } from "./facet.ts";

// EndpointList is the endpoint's own number, known only once the endpoint is installed.
class BatteryServer extends PowerSourceServer.with(PowerSource.Feature.Battery) {
  override async initialize(): Promise<void> {
    await super.initialize();
    this.state.endpointList = [this.endpoint.number];
  }
}

class RechargeableServer extends PowerSourceServer.with(PowerSource.Feature.Battery, PowerSource.Feature.Rechargeable) {
  override async initialize(): Promise<void> {
    await super.initialize();
    this.state.endpointList = [this.endpoint.number];
  }
}

const LEVELS = {
  ok: PowerSource.BatChargeLevel.Ok,
  warning: PowerSource.BatChargeLevel.Warning,
  critical: PowerSource.BatChargeLevel.Critical,
} as const;

/** On/off of a binary companion; undefined while HA has no value. */
function isOn(companions: Companions, role: "battery_low" | "battery_charging"): boolean | undefined {
  const state = companions[role]?.state;
  return hasValue(state) ? state.state === "on" : undefined;
}

function chargeState(companions: Companions): PowerSource.BatChargeState {
  const charging = isOn(companions, "battery_charging");
  if (charging === undefined) return PowerSource.BatChargeState.Unknown;
  return charging ? PowerSource.BatChargeState.IsCharging : PowerSource.BatChargeState.IsNotCharging;
}

export const batteryFacet: Facet = {
  applies: (companions) => companions.battery !== undefined || companions.battery_low !== undefined,
  behaviors: (context) => [context.companions.battery_charging ? RechargeableServer : BatteryServer],
  fixed: (context) => ({
    powerSource: {
      status: PowerSource.PowerSourceStatus.Active,
      order: 0,
      description: "Battery",
      batReplaceability: PowerSource.BatReplaceability.Unspecified,
      batReplacementNeeded: false,
      batPercentRemaining: null,
      ...(context.companions.battery_charging
        ? { batFunctionalWhileCharging: true, batChargeState: PowerSource.BatChargeState.Unknown }
        : {}),
    },
  }),
  project: (context) => {
    const { companions } = context;
    // "unknown", text or an impossible percentage: no valid value (null), never a wrong one.
    const percent = companions.battery ? numericState(companions.battery.state) : undefined;
    const half = batteryToMatter(percent);
    const values: StatePatch[string] = {
      batChargeLevel: LEVELS[chargeLevelOf(half === undefined ? undefined : percent, isOn(companions, "battery_low"))],
    };
    if (companions.battery) values.batPercentRemaining = half ?? null;
    if (companions.battery_charging) values.batChargeState = chargeState(companions);
    return { powerSource: values };
  },
  signature: (context: KindContext) => (context.companions.battery_charging ? "battery+rechargeable" : "battery"),
};
