/**
 * HA `water_heater` ↔ Matter Water Heater (0x050F) modes and heat sources (docs/decisions.md "Water heater").
 *
 * Every HA operation mode is one WaterHeaterMode mode (number = its index in `operation_list`, label = its name),
 * tagged by what the name means: `off` Off, `eco`/`heat_pump` LowEnergy, `electric`/`gas` Manual,
 * `performance`/`high_demand` Max. Matter (and matter.js, at initialize) requires an Off-tagged and a
 * Manual-tagged mode, and an Off, Manual or Timed mode carries no other tag. So: without an HA `off` mode the hub
 * adds "Off" (HA `water_heater.turn_off`); without a mode that reads as Manual, the first untagged HA mode (else
 * the first one that is not off) becomes Manual; with no HA mode at all, the hub adds "On" (`turn_on`) too.
 */
import type { WaterHeaterManagement } from "@matter/main/clusters/water-heater-management";
import { WaterHeaterMode } from "@matter/main/clusters/water-heater-mode";
import type { HassEntity } from "../../../home-assistant/types.ts";
import { hasValue, stringAttr, stringListAttr } from "../ha-state.ts";

const Tag = WaterHeaterMode.ModeTag;

/** One Matter mode: an HA operation mode, or one the hub adds that switches the heater off or on. */
export interface HeaterMode {
  mode: number;
  label: string;
  tag: WaterHeaterMode.ModeTag | undefined;
  /** The HA operation mode it stands for (absent for a mode the hub adds). */
  operation?: string;
  /** A mode the hub adds: `water_heater.turn_off` / `turn_on`. */
  power?: "off" | "on";
}

/** Matter labels are at most 64 characters; mode numbers are uint8 and two may be added. */
const MAX_LABEL = 64;
const MAX_OPERATIONS = 253;

/** Tags by normalised HA mode name: HA's own modes (water_heater/const.py) and common integration spellings. */
const TAGS = new Map<string, WaterHeaterMode.ModeTag>([
  ["off", Tag.Off],
  ["eco", Tag.LowEnergy],
  ["economy", Tag.LowEnergy],
  ["energy_saving", Tag.LowEnergy],
  ["heat_pump", Tag.LowEnergy],
  ["electric", Tag.Manual],
  ["gas", Tag.Manual],
  ["manual", Tag.Manual],
  ["heat", Tag.Manual],
  ["on", Tag.Manual],
  ["normal", Tag.Manual],
  ["standard", Tag.Manual],
  ["performance", Tag.Max],
  ["high_demand", Tag.Max],
  ["boost", Tag.Max],
  ["max", Tag.Max],
  ["quick", Tag.Quick],
  ["vacation", Tag.Vacation],
  ["away", Tag.Vacation],
  ["holiday", Tag.Vacation],
  ["auto", Tag.Auto],
  ["quiet", Tag.Quiet],
  ["silent", Tag.Quiet],
  ["night", Tag.Night],
  ["day", Tag.Day],
]);

/** `High Demand`, `high-demand` and `high_demand` are the same mode. */
export function normalizeMode(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, "_");
}

/** The entity's modes; never empty, always with an Off-tagged and a Manual-tagged mode. */
export function heaterModes(state: HassEntity | undefined): HeaterMode[] {
  const modes: HeaterMode[] = [];
  const labels = new Set<string>();
  const operations = stringListAttr(state, "operation_list").slice(0, MAX_OPERATIONS);
  operations.forEach((operation, index) => {
    const label = operation.slice(0, MAX_LABEL);
    // Matter needs distinct labels; a blank or repeated entry cannot be told apart from another.
    if (label.trim() === "" || labels.has(label)) return;
    labels.add(label);
    modes.push({ mode: index, label, tag: TAGS.get(normalizeMode(operation)), operation });
  });
  let next = operations.length;
  if (!modes.some((mode) => mode.tag === Tag.Off)) modes.push({ mode: next++, label: "Off", tag: Tag.Off, power: "off" });
  if (!modes.some((mode) => mode.tag === Tag.Manual)) {
    const fromHa = modes.filter((mode) => mode.operation !== undefined && mode.tag !== Tag.Off);
    const manual = fromHa.find((mode) => mode.tag === undefined) ?? fromHa[0];
    if (manual) manual.tag = Tag.Manual;
    else modes.push({ mode: next, label: "On", tag: Tag.Manual, power: "on" });
  }
  return modes;
}

/**
 * SupportedModes for the modes. Tags carry `mfgCode: undefined` as matter.js stores them, so an unchanged list
 * compares equal to the endpoint's and is not written again on every HA update.
 */
export function supportedModes(modes: readonly HeaterMode[]): WaterHeaterMode.ModeOption[] {
  return modes.map(({ mode, label, tag }) => ({
    label,
    mode,
    modeTags: tag === undefined ? [] : [{ mfgCode: undefined, value: tag }],
  }));
}

/** The mode HA is in: its `operation_mode` (else its state); an off heater is in the Off mode. */
export function currentHeaterMode(state: HassEntity | undefined, modes: readonly HeaterMode[]): HeaterMode | undefined {
  if (!hasValue(state)) return undefined;
  if (state.state === "off") return modes.find((mode) => mode.tag === Tag.Off);
  const operation = stringAttr(state, "operation_mode") ?? state.state;
  const listed = modes.find((mode) => mode.operation === operation);
  return listed ?? modes.find((mode) => mode.power === "on");
}

/** Whether a mode switches the water heating off. */
export function isOffMode(mode: HeaterMode | undefined): boolean {
  return mode?.tag === Tag.Off;
}

/** Whether a mode keeps the water at the thermostat's setpoint (Matter's Manual tag). */
export function isManualMode(mode: HeaterMode | undefined): boolean {
  return mode?.tag === Tag.Manual;
}

/**
 * The HA operation mode a Matter Boost switches to: `high_demand` (what HA's own Matter integration sends Boost
 * for), else `performance`; undefined when the entity has neither.
 */
export function boostOperation(state: HassEntity | undefined): string | undefined {
  const operations = stringListAttr(state, "operation_list");
  for (const wanted of ["high_demand", "performance"]) {
    const found = operations.find((operation) => normalizeMode(operation) === wanted);
    if (found !== undefined) return found;
  }
  return undefined;
}

type HeatSource = WaterHeaterManagement.WaterHeaterHeatSource;

/** The heat source an HA mode names, if it names one. */
function sourceOf(operation: string | undefined): HeatSource | undefined {
  switch (normalizeMode(operation ?? "")) {
    case "heat_pump":
      return { heatPump: true };
    case "electric":
      return { immersionElement1: true };
    case "gas":
      return { boiler: true };
    default:
      return undefined;
  }
}

/** HeaterTypes: the heat sources the HA modes name (`heat_pump`, `electric`, `gas`), else "other". */
export function heaterTypes(state: HassEntity | undefined): HeatSource {
  const types: HeatSource = {};
  for (const operation of stringListAttr(state, "operation_list")) Object.assign(types, sourceOf(operation));
  return Object.keys(types).length > 0 ? types : { other: true };
}

/**
 * HeatDemand, estimated: HA has no "heating now" attribute for water heaters, so a heater that is on and whose
 * water is below the target counts as demanding heat, from the source its mode names (else every source it has).
 * Nothing when off, or when either temperature is unknown.
 */
export function heatDemand(
  state: HassEntity | undefined,
  mode: HeaterMode | undefined,
  current: number | undefined,
  target: number | undefined,
): HeatSource {
  if (!hasValue(state) || isOffMode(mode) || current === undefined || target === undefined || current >= target) return {};
  return sourceOf(mode?.operation) ?? heaterTypes(state);
}
