/**
 * The composition plan of one HA device on one bridge: which of its entities carry which companions (battery,
 * power, energy, voltage, current; model/companion-role.ts) and which entities are therefore not devices of their
 * own. A pure function of Home Assistant's state and registries, the bridge's filter and its entity mappings, so
 * every entity of the device reaches the same plan whatever order they are reconciled in
 * (docs/decisions.md "Composed devices"). Its cost is the size of one HA device, never of the home.
 */
import type { HomeAssistantModel } from "../../home-assistant/ha-model.ts";
import { BATTERY_ROLES, companionRoleOf, ELECTRICAL_ROLES } from "../model/companion-role.ts";
import type { CompanionRole, DeviceTypeKey } from "../model/contract.ts";

/** Companion entity ids of one carrier, by role. */
export type CompanionIds = Partial<Record<CompanionRole, string>>;

export interface DevicePlan {
  /** Carrier entity id → the companions its endpoint carries. */
  readonly carriers: ReadonlyMap<string, CompanionIds>;
  /** Companion entity id → the carrier whose endpoint shows it (the first, when a battery goes on several). */
  readonly carriedBy: ReadonlyMap<string, string>;
}

export const EMPTY_PLAN: DevicePlan = { carriers: new Map(), carriedBy: new Map() };

/** What the plan needs to know of the bridge. */
export interface PlanInput {
  model: HomeAssistantModel;
  /** The device type the entity would be exposed as on this bridge (filter, mapping, plugins), or undefined. */
  keyOf(entityId: string): DeviceTypeKey | undefined;
  /** The entity's mapping detaches (or disables) it: it is never a companion. */
  excluded(entityId: string): boolean;
}

/** Keys whose endpoint may carry the electrical sensors of their device: what the power flows through. */
const ELECTRICAL_CARRIERS: ReadonlySet<DeviceTypeKey> = new Set<DeviceTypeKey>([
  "on_off_plugin_unit",
  "dimmable_plug_in_unit",
  "on_off_light",
  "dimmable_light",
  "color_temperature_light",
  "extended_color_light",
]);

/** The plan for the device of `entityId` (empty when it has no device). */
export function planFor(input: PlanInput, entityId: string): DevicePlan {
  const deviceId = input.model.entities.get(entityId)?.device_id;
  return deviceId ? planDevice(input, deviceId) : EMPTY_PLAN;
}

/**
 * The plan of one device. Companions are found on the device whatever the bridge's filter says (a lock's battery
 * sensor need not be included for the lock to show it); a disabled, stateless or detached entity is none. Battery
 * roles go on every exposed main entity of the device (config and diagnostic ones only when nothing else is); electrical roles on its one plug, switch or light, or when it
 * has none or several (a power strip), on an Electrical Sensor: the first exposed power, else energy, sensor.
 */
export function planDevice(input: PlanInput, deviceId: string): DevicePlan {
  const { model } = input;
  const ids = [...model.entityIdsOfDevice(deviceId)].sort();
  const byRole: CompanionIds = {};
  const mains: { id: string; key: DeviceTypeKey; category: boolean }[] = [];
  for (const id of ids) {
    const registry = model.entities.get(id);
    const state = model.states.get(id);
    if (registry?.disabled_by || !state) continue;
    const role = input.excluded(id) ? undefined : companionRoleOf(id.slice(0, id.indexOf(".")), state);
    if (role && byRole[role] === undefined) {
      byRole[role] = id;
      continue;
    }
    const key = input.keyOf(id);
    if (key) mains.push({ id, key, category: Boolean(registry?.entity_category) });
  }
  const carriers = new Map<string, CompanionIds>();
  const carriedBy = new Map<string, string>();
  const give = (carrier: string, roles: readonly CompanionRole[]) => {
    for (const role of roles) {
      const companion = byRole[role];
      if (companion === undefined || companion === carrier) continue;
      carriers.set(carrier, { ...carriers.get(carrier), [role]: companion });
      if (!carriedBy.has(companion)) carriedBy.set(companion, carrier);
    }
  };
  const electricalCarriers = mains.filter((main) => ELECTRICAL_CARRIERS.has(main.key));
  let meter: string | undefined;
  if (electricalCarriers.length === 1) {
    meter = electricalCarriers[0]?.id;
  } else {
    meter = [byRole.power, byRole.energy].find((id) => id !== undefined && input.keyOf(id) === "electrical_sensor");
    if (meter) mains.push({ id: meter, key: "electrical_sensor", category: false });
  }
  // The battery belongs on what the device is, not on its config or diagnostic entities (a motion sensor's
  // "sensor enabled" switch), unless those are all the bridge exposes of it.
  const primary = mains.filter((main) => !main.category);
  for (const main of primary.length > 0 ? primary : mains) give(main.id, BATTERY_ROLES);
  if (meter) give(meter, ELECTRICAL_ROLES);
  return { carriers, carriedBy };
}
