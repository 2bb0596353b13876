/**
 * Electrical facet: Electrical Power Measurement (W → mW, V → mV, A → mA) and Electrical Energy Measurement
 * (Wh/kWh → mWh, imported, cumulative) with Power Topology (TREE), which makes matter.js add the Electrical Sensor
 * device type (0x0510) to the endpoint beside its own. One endpoint rather than a child part: a part would turn the
 * bridged endpoint into the "separate endpoints" pattern and change its main device type, which every controller
 * that ignores the electrical clusters would then show differently (docs/decisions.md "Composed devices"). TREE, not
 * NODE: on a bridge NODE made iOS attribute one plug's watts to every accessory (research/composed-devices.md §2).
 */
import type { Endpoint } from "@matter/main";
import { ElectricalEnergyMeasurementServer } from "@matter/main/behaviors/electrical-energy-measurement";
import { ElectricalPowerMeasurementServer } from "@matter/main/behaviors/electrical-power-measurement";
import { PowerTopologyServer } from "@matter/main/behaviors/power-topology";
import { ElectricalEnergyMeasurement } from "@matter/main/clusters/electrical-energy-measurement";
import { ElectricalPowerMeasurement } from "@matter/main/clusters/electrical-power-measurement";
import { PowerTopology } from "@matter/main/clusters/power-topology";
import { MeasurementType } from "@matter/main/types";
import type { Companions } from "../../model/contract.ts";
import { type ElectricalQuantity, toMilli } from "../../model/convert/electrical.ts";
import { numericState, unitOf } from "../../model/ha-state.ts";
import type { KindContext, StatePatch } from "../kinds/kind.ts";
import type { Facet, FacetBehaviors } from "./facet.ts";

const TopologyServer = PowerTopologyServer.with(PowerTopology.Feature.TreeTopology);
const PowerServer = ElectricalPowerMeasurementServer.with(ElectricalPowerMeasurement.Feature.AlternatingCurrent);
const EnergyServer = ElectricalEnergyMeasurementServer.with(
  ElectricalEnergyMeasurement.Feature.ImportedEnergy,
  ElectricalEnergyMeasurement.Feature.CumulativeEnergy,
);

/** The EPM attribute and Matter measurement type of each power-side role. */
const POWER_ROLES = [
  ["power", "activePower", MeasurementType.ActivePower],
  ["voltage", "voltage", MeasurementType.Voltage],
  ["current", "activeCurrent", MeasurementType.ActiveCurrent],
] as const;

/**
 * Accuracy is mandatory. HA does not know its sensors' accuracy; what the hub adds is the rounding to whole
 * milli-units, so that is the fixed maximum error stated.
 */
function accuracy(measurementType: MeasurementType) {
  const max = Number.MAX_SAFE_INTEGER;
  return {
    measurementType,
    measured: true,
    minMeasuredValue: 0,
    maxMeasuredValue: max,
    accuracyRanges: [{ rangeMin: 0, rangeMax: max, fixedMax: 1 }],
  };
}

const hasPowerSide = (companions: Companions) => POWER_ROLES.some(([role]) => companions[role] !== undefined);

/** A companion's reading in milli-units, or undefined (unknown, negative, unknown unit). */
function milli(companions: Companions, role: ElectricalQuantity): number | undefined {
  const snapshot = companions[role];
  return snapshot ? toMilli(role, numericState(snapshot.state), unitOf(snapshot.state)) : undefined;
}

const energyOf = (value: unknown): number | undefined => {
  const energy = (value as { energy?: unknown } | null | undefined)?.energy;
  return typeof energy === "number" ? energy : typeof energy === "bigint" ? Number(energy) : undefined;
};

export const electricalFacet: Facet = {
  applies: (companions) => hasPowerSide(companions) || companions.energy !== undefined,
  behaviors: (context) => {
    const behaviors: FacetBehaviors = [TopologyServer];
    if (hasPowerSide(context.companions)) behaviors.push(PowerServer);
    if (context.companions.energy) behaviors.push(EnergyServer);
    return behaviors;
  },
  fixed: (context) => {
    const { companions } = context;
    const patch: StatePatch = { powerTopology: {} };
    if (hasPowerSide(companions)) {
      const measured = POWER_ROLES.filter(([role]) => companions[role] !== undefined);
      const values: StatePatch[string] = {
        powerMode: ElectricalPowerMeasurement.PowerMode.Ac,
        numberOfMeasurementTypes: measured.length,
        accuracy: measured.map(([, , type]) => accuracy(type)),
        activePower: null,
      };
      for (const [role, attribute] of measured) if (role !== "power") values[attribute] = null;
      patch.electricalPowerMeasurement = values;
    }
    if (companions.energy) {
      patch.electricalEnergyMeasurement = {
        accuracy: accuracy(MeasurementType.ElectricalEnergy),
        cumulativeEnergyImported: null,
      };
    }
    return patch;
  },
  project: (context) => {
    const { companions } = context;
    const patch: StatePatch = {};
    if (hasPowerSide(companions)) {
      const values: StatePatch[string] = {};
      for (const [role, attribute] of POWER_ROLES) if (companions[role]) values[attribute] = milli(companions, role) ?? null;
      patch.electricalPowerMeasurement = values;
    }
    if (companions.energy) {
      // Unknown or negative: left out, so the counter keeps its last valid value (Matter's is cumulative).
      const energy = milli(companions, "energy");
      patch.electricalEnergyMeasurement = { cumulativeEnergyImported: energy === undefined ? undefined : { energy } };
    }
    return patch;
  },
  signature: (context: KindContext) =>
    ["power", "voltage", "current", "energy"].filter((role) => context.companions[role as ElectricalQuantity]).join("+"),
  // A cumulative counter never goes back: a lower reading (a meter reset, a replaced device) is left out.
  accepts: (behavior, attribute, current, next) => {
    if (behavior !== "electricalEnergyMeasurement" || attribute !== "cumulativeEnergyImported") return true;
    const before = energyOf(current);
    const after = energyOf(next);
    return before === undefined || after === undefined || after >= before;
  },
  afterUpdate: async (endpoint: Endpoint, changed) => {
    if (!changed.includes("electricalEnergyMeasurement.cumulativeEnergyImported")) return;
    await endpoint.act("energy-event", (agent) => {
      const energy = agent.get(EnergyServer);
      const imported = energy.state.cumulativeEnergyImported ?? undefined;
      energy.events.cumulativeEnergyMeasured.emit({ energyImported: imported, energyExported: undefined }, agent.context);
    });
  },
};
