/**
 * Which companion role (contract.ts COMPANION_ROLES) an HA entity can play for another entity of its device: read
 * from its domain, device class and unit, the same way for the bridge's composition plan and for the facets.
 */
import type { HassEntity } from "../../home-assistant/types.ts";
import type { CompanionRole } from "./contract.ts";
import { isElectricalUnit } from "./convert/electrical.ts";
import { deviceClass, unitOf } from "./ha-state.ts";

/** The role, or undefined when the entity is no companion (wrong class, or a unit the conversion does not know). */
export function companionRoleOf(domain: string, state: HassEntity | undefined): CompanionRole | undefined {
  const cls = deviceClass(state);
  if (domain === "binary_sensor") {
    if (cls === "battery") return "battery_low";
    if (cls === "battery_charging") return "battery_charging";
    return undefined;
  }
  if (domain !== "sensor") return undefined;
  const unit = unitOf(state);
  switch (cls) {
    case "battery":
      return unit === "%" ? "battery" : undefined;
    case "power":
    case "energy":
    case "voltage":
    case "current":
      return isElectricalUnit(cls, unit) ? cls : undefined;
    default:
      return undefined;
  }
}

/** Roles that become the battery facet, and those that become the electrical facet. */
export const BATTERY_ROLES: readonly CompanionRole[] = ["battery", "battery_low", "battery_charging"];
export const ELECTRICAL_ROLES: readonly CompanionRole[] = ["power", "energy", "voltage", "current"];
