/**
 * What the chosen controllers of a bridge say about it: over a device limit, flagged device types on it, a port the
 * controller does not pair on (controller-limits.data.json). Pure functions of the table and the bridge's devices,
 * so the filter preview, the bridge record and the health view give the same answer.
 */
import type { BridgeConfig } from "./bridge-config.ts";
import type { BridgeDeviceInfo, PlannedEntity, PluginDeviceInfo } from "./bridge-runtime.ts";
import { CONTROLLER_LIMITS, type ControllerLimits, type DeviceTypeGap, type LimitSource } from "./controller-limits.ts";

/** One device as controllers count it: an exposed endpoint (composed parts are not devices). */
export interface CountedDevice {
  /** Null for a plugin's device. */
  entityId: string | null;
  deviceType: string | null;
  /** Roles composed into the endpoint. */
  carries: readonly string[];
}

interface WarningBase {
  controller: string;
  controllerName: string;
  /** One sentence: which limit, the numbers. */
  message: string;
  /** Where the limit comes from (the data file's sources). */
  sources: LimitSource[];
}
export interface DeviceLimitWarning extends WarningBase {
  kind: "device_limit";
  limit: number;
  count: number;
  basis: string;
  /** Why the limit exists, as the data file sums it up. */
  summary: string;
}
export interface DeviceTypeWarning extends WarningBase {
  kind: "device_type";
  deviceType: string;
  effect: DeviceTypeGap["effect"];
  reason: string;
  /** The entities exposed with that type (null for plugin devices). */
  entities: (string | null)[];
  /** True when the bridge may leave the type out (`leaveOutUnsupported`); false for a conditional gap. */
  canLeaveOut: boolean;
}
export interface PortWarning extends WarningBase {
  kind: "port";
  port: number;
  required: number;
  summary: string;
}
/** What the bridge record, the filter preview and the health view say for a chosen controller. */
export type ControllerWarning = DeviceLimitWarning | DeviceTypeWarning | PortWarning;

/** The part of a bridge's configuration the checks read. */
export type CheckedConfig = Pick<BridgeConfig, "controllers" | "leaveOutUnsupported" | "port" | "serverMode">;

/** Whether a gap applies to a device: its type, and its conditions (shared bridge, composed roles). */
function gapApplies(gap: DeviceTypeGap, device: CountedDevice, shared: boolean): boolean {
  if (!device.deviceType || !gap.keys.includes(device.deviceType)) return false;
  if (gap.whenShared && !shared) return false;
  return gap.carrying.length === 0 || gap.carrying.some((role) => device.carries.includes(role));
}

/** A gap a bridge may act on by leaving the type out: one without conditions. */
export const unconditional = (gap: DeviceTypeGap) => !gap.whenShared && gap.carrying.length === 0;

/** The controllers of a configuration that the table knows (an id dropped from the data is ignored). */
function chosen(config: Pick<BridgeConfig, "controllers">, table: ControllerLimits) {
  return (config.controllers ?? []).flatMap((id) => {
    const entry = table.controllers[id];
    return entry ? [{ id, entry }] : [];
  });
}

/**
 * Why a device type is left out of this bridge, or undefined when it stays: `leaveOutUnsupported` is on and a chosen
 * controller is known not to render it or to break on it (gaps without conditions only).
 */
export function leftOutReason(
  config: Pick<BridgeConfig, "controllers" | "leaveOutUnsupported">,
  deviceType: string,
  table: ControllerLimits = CONTROLLER_LIMITS,
): string | undefined {
  if (!config.leaveOutUnsupported) return undefined;
  const gaps = chosen(config, table).flatMap(({ entry }) =>
    entry.deviceTypes.filter((gap) => unconditional(gap) && gap.keys.includes(deviceType)).map((gap) => ({ entry, gap })),
  );
  const [first] = gaps;
  if (!first) return undefined;
  if (gaps.length === 1) return `left out for ${first.entry.name}: ${first.gap.reason}`;
  const names = [...new Set(gaps.map(({ entry }) => entry.name))].join(" and ");
  return `left out for ${names}: ${gaps.map(({ entry, gap }) => `${entry.name}: ${gap.reason}`).join(" ")}`;
}

/** The warnings of every chosen controller for a bridge with these devices (exposed endpoints and plugin devices). */
export function checkControllers(
  config: CheckedConfig,
  devices: readonly CountedDevice[],
  table: ControllerLimits = CONTROLLER_LIMITS,
): ControllerWarning[] {
  const warnings: ControllerWarning[] = [];
  const shared = !config.serverMode && devices.length > 1;
  for (const { id, entry } of chosen(config, table)) {
    const base = { controller: id, controllerName: entry.name };
    const limit = entry.maxDevices.value;
    if (limit !== null && devices.length > limit) {
      warnings.push({
        ...base,
        kind: "device_limit",
        limit,
        count: devices.length,
        basis: entry.maxDevices.basis,
        summary: entry.maxDevices.summary,
        message: `${devices.length} devices on this bridge; ${entry.name} is ${entry.maxDevices.basis === "documented" ? "documented" : "reported"} to take at most ${limit} per bridge`,
        sources: entry.maxDevices.sources,
      });
    }
    if (entry.port && config.port !== entry.port.value) {
      warnings.push({
        ...base,
        kind: "port",
        port: config.port,
        required: entry.port.value,
        summary: entry.port.summary,
        message: `${entry.name} pairs with bridges on port ${entry.port.value} only; this bridge uses ${config.port}`,
        sources: entry.port.sources,
      });
    }
    for (const gap of entry.deviceTypes) {
      for (const deviceType of gap.keys) {
        const matching = devices.filter((device) => device.deviceType === deviceType && gapApplies(gap, device, shared));
        if (matching.length === 0) continue;
        const what = gap.effect === "breaks_bridge" ? "is known to break on" : "is known not to show";
        warnings.push({
          ...base,
          kind: "device_type",
          deviceType,
          effect: gap.effect,
          reason: gap.reason,
          entities: matching.map((device) => device.entityId),
          canLeaveOut: unconditional(gap),
          message: `${entry.name} ${what} ${deviceType} (${matching.length} on this bridge)`,
          sources: gap.sources,
        });
      }
    }
  }
  return warnings;
}

/** The devices of a planned bridge as controllers count them. */
export function countedFromPlan(plan: readonly PlannedEntity[]): CountedDevice[] {
  return plan
    .filter((row) => row.deviceType !== null && row.composedInto === null && row.skipped === null)
    .map((row) => ({ entityId: row.entityId, deviceType: row.deviceType, carries: row.carries }));
}

/** The devices of a running bridge as controllers count them: exposed entities and plugin devices. */
export function countedFromRows(rows: readonly BridgeDeviceInfo[], plugins: readonly PluginDeviceInfo[]): CountedDevice[] {
  return [
    ...rows
      .filter((row) => row.deviceType !== null && row.endpointId !== null && row.composedInto === null)
      .map((row) => ({ entityId: row.entityId, deviceType: row.deviceType, carries: row.carries.map((part) => part.role) })),
    ...plugins.map((device) => ({ entityId: null, deviceType: device.deviceType, carries: [] })),
  ];
}
