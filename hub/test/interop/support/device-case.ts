/**
 * One row of the device-type matrix the reference controller drives (device-types.interop.ts, docs/INTEROP.md
 * "Device types against the reference controller"): where the device comes from, the Matter device type it must
 * show, an HA change and the report it must cause, the commands it supports with the HA call each must become, and
 * bad arguments with the Matter status that must come back instead of an HA call.
 *
 * Names are the reference SDK's (Python cluster, attribute, command and field names); values are JSON as
 * chip_driver.py passes them (enums and bitmaps as numbers, `{text}`/`{hex}` for octet strings). A nullable
 * field left out of `args` goes as Null.
 */
import { isDeepStrictEqual } from "node:util";
import type { DeviceTypeKey } from "../../../src/matter/model/contract.ts";

/** An HA entity of the simulated home, optionally shown as another device type through an entity mapping. */
export interface EntitySource {
  entityId: string;
  override?: DeviceTypeKey;
}

/** A device of a built-in plugin, by plugin name and the id the plugin registered it with. */
export interface PluginSource {
  plugin: string;
  device: string;
}

/** A change at the device's source: an HA state (of `entityId`, default the row's entity) or a cloud status. */
export type SourceChange =
  | { entityId?: string; state: string; attributes?: Record<string, unknown> }
  | { cloud: string; status: Record<string, unknown> };

/**
 * What the subscription must then deliver: an attribute value, or a Matter event whose value contains `expected`.
 * An attribute value that is an object (a struct) matches when it has `expected`'s fields with their values.
 */
export type Report = { change: SourceChange; cluster: string } & (
  | { attribute: string; expected: unknown }
  | { event: string; expected?: Record<string, unknown> }
);

/**
 * A command (in a timed interaction with `timedMs`, as DoorLock's lock and unlock must be; over a session for large
 * messages, TCP, with `large`, as camera commands must be) or an attribute write.
 */
export type Action =
  | { invoke: string; command: string; args?: Record<string, unknown>; timedMs?: number; large?: boolean }
  | { write: string; attribute: string; value: unknown };

/**
 * Where a command lands: an HA service call on the row's entity (or `entityId`), a command to the appliance cloud,
 * or nowhere (`none`: the command succeeds and nothing reaches HA or the cloud, e.g. Off for a momentary button).
 */
export type Effect =
  | { ha: string; entityId?: string; data?: Record<string, unknown> }
  | { cloud: string; method: string; data?: Record<string, unknown> }
  | { none: string };

export interface CommandCase {
  action: Action;
  /**
   * What must follow, in order (OnWithTimedOff: the on now, the off when OnTime has run out). Absent for a command
   * the bridge answers itself (a camera snapshot comes from HA's image, not a call).
   */
  effect?: Effect | Effect[];
  /** Fields the command's response must carry (values compared as JSON; a function checks the whole response). */
  response?: Record<string, unknown> | ((response: Record<string, unknown>) => void);
  /** Wait first until this plugin's status line reads `status` (the security plugin acts on the panel it mirrors). */
  settle?: { plugin: string; status: string };
}

/** Bad arguments: the interaction model status (or a response's status field) that must come back. */
export interface BadArgumentCase {
  label: string;
  action: Action;
  /** SDK status name of the failure (invoke) or of the write's attribute status. */
  status?: string;
  /** For commands that answer with a status in their response (RvcRunMode ChangeToMode). */
  response?: Record<string, unknown>;
}

export interface DeviceCase {
  /** The device type key (`on_off_plugin_unit`), or the plugin device type for plugin rows (`camera`). */
  key: DeviceTypeKey | "camera";
  /** What distinguishes the row from others of the same key (the domain, the plugin, the shape). */
  variant: string;
  source: EntitySource | PluginSource;
  /** The Matter device type id the descriptor must list. */
  deviceType: number;
  /** Device types composition adds beside it (Power Source 0x0011, Electrical Sensor 0x0510), also required. */
  composedDeviceTypes?: number[];
  /** Values the first read must show, from the simulated home's states (objects match as in {@link Report}). */
  reads?: AttributeValue[];
  /** One report, or several (each its own test, in order). */
  report?: Report | Report[];
  commands: CommandCase[];
  errors: BadArgumentCase[];
  /** Accepted commands (`Cluster.Command`, SDK names) the matrix cannot drive, with the reason. */
  notDriven?: Record<string, string>;
  /** Why a column is empty (read-only sensors have no commands, a momentary button no HA-side report). */
  notes?: string;
}

/** An attribute and the value it must have. */
export interface AttributeValue {
  cluster: string;
  attribute: string;
  expected: unknown;
}

/** `actual` is `expected`, or, for an object, has `expected`'s fields with their values (struct fields the SDK adds). */
export function matchesValue(actual: unknown, expected: unknown): boolean {
  if (typeof expected !== "object" || expected === null || Array.isArray(expected)) return isDeepStrictEqual(actual, expected);
  if (typeof actual !== "object" || actual === null) return false;
  return Object.entries(expected).every(([key, value]) => isDeepStrictEqual((actual as Record<string, unknown>)[key], value));
}

/** The row's reports as a list. */
export function reportsOf(row: DeviceCase): Report[] {
  return row.report === undefined ? [] : [row.report].flat();
}

/** An OnOff command (no fields). */
export function onOff(command: "On" | "Off" | "Toggle"): Action {
  return { invoke: "OnOff", command };
}

export function isEntitySource(source: EntitySource | PluginSource): source is EntitySource {
  return "entityId" in source;
}

/** The row's name in test output and in the matrix. */
export function caseName(row: DeviceCase): string {
  return `${row.key} (${row.variant})`;
}
