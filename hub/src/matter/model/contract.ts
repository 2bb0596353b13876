/**
 * The contract between the bridge (which knows Home Assistant) and the Matter device layer (which knows
 * matter.js). It sits in `matter/model/` with the plain HA readers and unit conversions, the bottom of the device
 * layer: `devices/` (table, kinds, endpoint types) imports `behaviors/`, which imports `model/`, never back. Only `hub/src/matter/` imports `@matter/*`; everything the device layer needs from HA arrives
 * through these plain types.
 */
import type { HassEntity } from "../../home-assistant/types.ts";

/**
 * The device type keys a plugin may register. The plugin API (hub/src/plugins/api.ts) lists the same keys for plugin
 * authors and imports nothing by design, and the Matter side never imports the plugins folder (imports run
 * plugins -> matter), so the list is written twice; contract.test.ts makes the compiler and the tests refuse any
 * difference.
 */
export const PLUGIN_TYPE_KEYS = [
  "on_off_light",
  "dimmable_light",
  "color_temperature_light",
  "extended_color_light",
  "on_off_plugin_unit",
  "dimmable_plug_in_unit",
  "temperature_sensor",
  "humidity_sensor",
  "pressure_sensor",
  "flow_sensor",
  "light_sensor",
  "occupancy_sensor",
  "contact_sensor",
  "air_quality_sensor",
  "thermostat",
  "door_lock",
  "fan",
  "air_purifier",
  "window_covering",
  "generic_switch",
  "water_leak_detector",
] as const;
export type PluginTypeKey = (typeof PLUGIN_TYPE_KEYS)[number];

/** Device type keys: the 21 of the plugin spec plus the better-fitting types matter.js provides. */
export const DEVICE_TYPE_KEYS = [
  ...PLUGIN_TYPE_KEYS,
  "smoke_co_alarm",
  "robotic_vacuum_cleaner",
  "speaker",
  "water_valve",
  "mode_select",
  "humidifier",
  "on_off_sensor",
  "electrical_sensor",
  "water_heater",
] as const;
export type DeviceTypeKey = (typeof DEVICE_TYPE_KEYS)[number];

/** What the device layer knows about the entity behind an endpoint. */
export interface EntitySnapshot {
  entityId: string;
  /** `light`, `cover`, … */
  domain: string;
  /** Null while HA has no state (the endpoint then reports unreachable). */
  state: HassEntity | undefined;
  /** The name to show in controllers (custom name, else HA's), already cut to Matter's limits by the caller. */
  name: string;
}

/**
 * What a companion entity (another entity of the same HA device) adds to a main endpoint: battery roles become a
 * Power Source cluster, electrical roles Electrical Power/Energy Measurement (docs/decisions.md "Composed devices").
 * `battery` is a % sensor, `battery_low` a battery binary sensor (on = low), `battery_charging` a charging binary
 * sensor; `power` W/kW, `energy` Wh/kWh/MWh, `voltage` V/mV, `current` A/mA sensors.
 */
export const COMPANION_ROLES = ["battery", "battery_low", "battery_charging", "power", "energy", "voltage", "current"] as const;
export type CompanionRole = (typeof COMPANION_ROLES)[number];

/** The companions of one main endpoint, by role: at most one entity per role. */
export type Companions = Partial<Record<CompanionRole, EntitySnapshot>>;

/** HA's unit system, for temperature conversion (`°C` or `°F`). */
export interface UnitSystem {
  temperature: string;
}

/**
 * How a device calls Home Assistant. Resolves when HA accepted the call; rejects when HA refused it or timed
 * out, so the command handler can fail the Matter command (matter.js then rolls the attribute back).
 */
export interface ActionSink {
  call(call: { action: string; entityId: string; data?: Record<string, unknown> }): Promise<void>;
}

/** Result of looking up a mapping: a device type, or why the entity cannot be exposed. */
export type MappingDecision = { key: DeviceTypeKey } | { unsupported: string };

/**
 * What the credentials feature answers for a remote unlock: `not_required` (no PIN configured for this lock),
 * `valid` (the PIN matches), `missing` (a PIN is required and the command carried none), `invalid` (wrong PIN).
 */
export type PinVerdict = "not_required" | "valid" | "missing" | "invalid";

/**
 * Hook the lock credentials feature fills: asked before every remote unlock (never for lock). Anything but
 * `not_required` or `valid` fails the Matter command and no HA action is called. `pin` is the PIN code the
 * command carried, decoded as UTF-8, or undefined when it carried none.
 */
export type PinCheck = (entityId: string, pin: string | undefined) => PinVerdict | Promise<PinVerdict>;

/** The default {@link PinCheck} until credentials exist: no lock needs a PIN. */
export const NO_PIN_REQUIRED: PinCheck = () => "not_required";
