/**
 * Which cloud models the appliance plugin handles and how (docs/plugins.md "Appliance cloud plugin"): a two-basket
 * air fryer is two plugs (Left, Right), a single-basket fryer one plug, smart plugs and wall switches a plug,
 * purifiers an Air Purifier with on/off and fan speed, tower and pedestal fans a Fan with speed, humidifiers a
 * plug plus a humidity sensor. Bulbs, the dimmer, some plug models, the thermostat and older fryers are named as
 * unsupported. A fryer plug is on while a program is loaded, running or paused; off ends the cook; on is refused.
 */
import type { PluginDeviceRegistration } from "../../api.ts";
import type { CloudCommand, CloudDevice, CloudStatus } from "./cloud-client.ts";

export type ApplianceKind = "fryer2" | "fryer" | "plug" | "purifier" | "fan" | "humidifier";
export type ModelSupport = { kind: ApplianceKind; speeds: number } | { unsupported: string };

const MODELS: [RegExp, ModelSupport][] = [
  [/^CAF-DC/, { kind: "fryer2", speeds: 0 }],
  [/^CS1\d\d-AF/, { unsupported: "older air fryer models are not supported" }],
  [/^CAF-/, { kind: "fryer", speeds: 0 }],
  [/^(ESW01-EU|ESW03-USA|wifi-switch)/, { unsupported: "this plug model is not supported" }],
  [/^(ESW15|ESO15|WHOGPLUG|BSDOG01|ESWL0[13])/, { kind: "plug", speeds: 0 }],
  [/^ESWD/, { unsupported: "dimmers are not supported" }],
  [/^(ESL|XYD)/, { unsupported: "bulbs are not supported" }],
  [/^(LTM|VTS)-/, { unsupported: "thermostats are not supported" }],
  [/^(Core200S|Core300S|LAP-C20)/, { kind: "purifier", speeds: 3 }],
  [/^(Core400S|Core600S|LAP-)/, { kind: "purifier", speeds: 4 }],
  [/^(LTF|LPF)-/, { kind: "fan", speeds: 12 }],
  [/^(Classic[23]00S|Dual200S|LUH-|OASISMIST)/, { kind: "humidifier", speeds: 0 }],
];

export function supportOf(model: string): ModelSupport {
  return MODELS.find(([pattern]) => pattern.test(model))?.[1] ?? { unsupported: `model ${model} is not known to this plugin` };
}

/** The part of a cloud device a Matter device shows. */
export type Role = "plug" | "basket1" | "basket2" | "fan" | "humidity";
export interface ApplianceEndpoint {
  role: Role;
  registration: Omit<PluginDeviceRegistration, "onAttributeWrite">;
}

const FAN_MODE = { off: 0, low: 1, medium: 2, high: 3, on: 4, auto: 5, smart: 6 };
const onOff = (on = false) => ({ clusterId: "onOff" as const, attributes: { onOff: on } });

export function endpointsFor(device: CloudDevice, kind: ApplianceKind, speeds: number): ApplianceEndpoint[] {
  const plug = (role: Role, id: string, name: string): ApplianceEndpoint => ({
    role,
    registration: { id, name, deviceType: "on_off_plugin_unit", clusters: [onOff()] },
  });
  switch (kind) {
    case "fryer2":
      return [
        plug("basket1", `${device.cid}-left`, `${device.name} Left`),
        plug("basket2", `${device.cid}-right`, `${device.name} Right`),
      ];
    case "fryer":
    case "plug":
      return [plug(kind === "fryer" ? "basket1" : "plug", device.cid, device.name)];
    case "humidifier":
      return [
        plug("plug", device.cid, device.name),
        {
          role: "humidity",
          registration: { id: `${device.cid}-humidity`, name: `${device.name} Humidity`, deviceType: "humidity_sensor" },
        },
      ];
    case "purifier":
    case "fan": {
      // OffLowMedHigh without Auto: auto mode cannot be selected from a controller.
      const fanControl = { fanModeSequence: 0, speedMax: speeds, fanMode: FAN_MODE.off, percentSetting: 0, percentCurrent: 0 };
      const deviceType = kind === "purifier" ? "air_purifier" : "fan";
      return [
        {
          role: "fan",
          registration: {
            id: device.cid,
            name: device.name,
            deviceType,
            clusters: [onOff(), { clusterId: "fanControl", attributes: fanControl }],
          },
        },
      ];
    }
  }
}

const COOKING = new Set(["ready", "heating", "preheating", "cooking", "paused", "pause"]);

function basketStatus(status: CloudStatus, basket: number): string {
  const baskets = status.baskets as { id: number; cookStatus?: string }[] | undefined;
  return String((baskets ? baskets.find((b) => b.id === basket)?.cookStatus : status.cookStatus) ?? "standby");
}

function fanModeFor(speed: number, speeds: number): number {
  if (speed <= 0) return FAN_MODE.off;
  if (speed / speeds <= 1 / 3) return FAN_MODE.low;
  return speed / speeds <= 2 / 3 ? FAN_MODE.medium : FAN_MODE.high;
}

/** Attribute values per cluster for a role, from the device's status. */
export function stateFor(role: Role, speeds: number, status: CloudStatus): [string, Record<string, unknown>][] {
  const enabled = status.enabled === true;
  switch (role) {
    case "basket1":
    case "basket2":
      return [["onOff", { onOff: COOKING.has(basketStatus(status, role === "basket1" ? 1 : 2)) }]];
    case "plug":
      return [["onOff", { onOff: enabled }]];
    case "humidity": {
      const humidity = typeof status.humidity === "number" ? Math.round(status.humidity * 100) : null;
      return [["relativeHumidityMeasurement", { measuredValue: humidity }]];
    }
    case "fan": {
      // A purifier in auto mode shows a low speed.
      const speed = !enabled ? 0 : status.mode === "auto" ? 1 : Math.min(speeds, Math.max(1, Number(status.level) || 1));
      const percent = Math.round((speed * 100) / speeds);
      const fan = {
        fanMode: fanModeFor(speed, speeds),
        percentSetting: percent,
        percentCurrent: percent,
        speedSetting: speed,
        speedCurrent: speed,
      };
      return [
        ["onOff", { onOff: enabled }],
        ["fanControl", fan],
      ];
    }
  }
}

/** What a controller change means: a command, a refusal (show the real state again), or nothing. */
export function commandFor(
  role: Role,
  speeds: number,
  clusterId: string,
  attribute: string,
  value: unknown,
): CloudCommand | "revert" | null {
  const key = `${clusterId}.${attribute}`;
  if (role === "basket1" || role === "basket2") {
    if (key !== "onOff.onOff") return null;
    // Off ends the cook; a cook is never started remotely, so on reverts.
    return value === false ? { type: "endCook", basket: role === "basket1" ? 1 : 2 } : "revert";
  }
  if (key === "onOff.onOff") return role === "humidity" ? null : { type: "power", on: value === true };
  if (role !== "fan") return null;
  const level = (speed: number) =>
    speed <= 0 ? { type: "power" as const, on: false } : { type: "level" as const, level: Math.min(speeds, speed) };
  switch (key) {
    case "fanControl.fanMode":
      if (value === FAN_MODE.off) return { type: "power", on: false };
      if (value === FAN_MODE.on) return { type: "power", on: true };
      if (value === FAN_MODE.low) return level(1);
      if (value === FAN_MODE.medium) return level(Math.ceil(speeds / 2));
      return value === FAN_MODE.high ? level(speeds) : "revert";
    case "fanControl.percentSetting":
      return level(Math.ceil(((Number(value) || 0) * speeds) / 100));
    case "fanControl.speedSetting":
      return level(Number(value) || 0);
    default:
      return null;
  }
}
