/**
 * THE mapping table: which Matter device type an HA entity becomes, from its domain and, where it matters, its
 * device class, supported features and colour modes. Lookup order (docs/plugins.md "Domain mappings"): a user
 * override (checked here for compatibility), then plugin mappings (outside this module), then this table.
 * Reasons for the less obvious rows are in the JSDoc of each entry; docs/research-notes.md
 * "Domain choices of the peer hubs" sums up what t0/RX chose.
 */
import type { HassEntity } from "../../home-assistant/types.ts";
import { climateCapabilities, lightCapabilities, selectOptions, speakerCapabilities } from "../model/capabilities.ts";
import { companionRoleOf } from "../model/companion-role.ts";
import type { DeviceTypeKey, EntitySnapshot, MappingDecision } from "../model/contract.ts";
import { AIR_QUALITY_CLASSES } from "../model/convert/air-quality.ts";
import { isFlowUnit, isPressureUnit } from "../model/convert/measurements.ts";
import { isTemperatureUnit } from "../model/convert/temperature.ts";
import { deviceClass, unitOf } from "../model/ha-state.ts";

/** One row: the default decision and the device types a user may choose instead. */
export interface DomainMapping {
  decide(state: HassEntity | undefined): MappingDecision;
  /** Keys an override may pick; a function when it depends on the entity (e.g. a light's colour modes). */
  overrides: readonly DeviceTypeKey[] | ((state: HassEntity | undefined) => readonly DeviceTypeKey[]);
}

const key = (value: DeviceTypeKey): MappingDecision => ({ key: value });
const always = (value: DeviceTypeKey, overrides: readonly DeviceTypeKey[] = [value]): DomainMapping => ({
  decide: () => key(value),
  overrides,
});

/** Lights by colour mode: colour → extended colour (Matter requires XY + CT there, HA converts), CT, dimmable, on/off. */
function lightKey(state: HassEntity | undefined): DeviceTypeKey {
  const caps = lightCapabilities(state);
  if (caps.color) return "extended_color_light";
  if (caps.colorTemp) return "color_temperature_light";
  return caps.brightness ? "dimmable_light" : "on_off_light";
}

/** A light may be shown as any simpler light, or as a plug (people hide lamps behind "outlets" and back). */
function lightOverrides(state: HassEntity | undefined): readonly DeviceTypeKey[] {
  const caps = lightCapabilities(state);
  const keys: DeviceTypeKey[] = ["on_off_light", "on_off_plugin_unit"];
  if (caps.brightness) keys.push("dimmable_light", "dimmable_plug_in_unit");
  if (caps.colorTemp) keys.push("color_temperature_light");
  if (caps.color) keys.push("extended_color_light");
  return keys;
}

const SWITCH_LIKE: readonly DeviceTypeKey[] = ["on_off_plugin_unit", "on_off_light"];

/** Sensor device class → device type; the unit must be one the conversion knows, or the value would be wrong. */
function sensorDecision(state: HassEntity | undefined): MappingDecision {
  const cls = deviceClass(state);
  const unit = unitOf(state);
  switch (cls) {
    case "temperature":
      return isTemperatureUnit(unit) ? key("temperature_sensor") : { unsupported: `temperature unit ${unit} unknown` };
    case "humidity":
    case "moisture":
      return key("humidity_sensor");
    case "pressure":
    case "atmospheric_pressure":
      return isPressureUnit(unit) ? key("pressure_sensor") : { unsupported: `pressure unit ${unit ?? "(none)"} unknown` };
    case "volume_flow_rate":
      return isFlowUnit(unit) ? key("flow_sensor") : { unsupported: `flow unit ${unit ?? "(none)"} unknown` };
    case "illuminance":
      return key("light_sensor");
    /** Power and energy meters without a plug or light on their HA device (the bridge composes the others). */
    case "power":
    case "energy":
      return companionRoleOf("sensor", state)
        ? key("electrical_sensor")
        : { unsupported: `${cls} unit ${unit ?? "(none)"} unknown` };
    case "voltage":
    case "current":
      return { unsupported: `${cls} alone has no Matter device: it is shown on its device's plug, light or power meter` };
    case "battery":
      return {
        unsupported:
          "a battery alone is no Matter device: it is shown on the other entities of its device (Power Source), unless it is detached or the bridge does not compose devices",
      };
    case undefined:
      return { unsupported: "sensor without device class: Matter needs to know what it measures" };
    default:
      if ((AIR_QUALITY_CLASSES as readonly string[]).includes(cls)) return key("air_quality_sensor");
      return { unsupported: `sensor device class ${cls} has no Matter measurement cluster` };
  }
}

/**
 * Binary sensors by device class. BooleanState-based types for contacts and leaks, OccupancySensing for presence,
 * SmokeCoAlarm for smoke/CO/gas (matter.js implements it fully; a gas leak is raised as a CO alarm because Matter
 * has no gas alarm and a silent contact sensor would hide an emergency). Every other class becomes a contact
 * sensor, the one binary type all major controllers show (RX does the same; OnOffSensor has no server state).
 */
function binarySensorKey(state: HassEntity | undefined): DeviceTypeKey {
  switch (deviceClass(state)) {
    case "motion":
    case "moving":
    case "occupancy":
    case "presence":
      return "occupancy_sensor";
    case "moisture":
      return "water_leak_detector";
    case "smoke":
    case "carbon_monoxide":
    case "gas":
      return "smoke_co_alarm";
    default:
      return "contact_sensor";
  }
}

/** The table. Domains not listed are unsupported with {@link unlistedReason}. */
export const DOMAIN_TABLE: Readonly<Record<string, DomainMapping>> = {
  light: { decide: (state) => key(lightKey(state)), overrides: lightOverrides },
  switch: always("on_off_plugin_unit", SWITCH_LIKE),
  input_boolean: always("on_off_plugin_unit", SWITCH_LIKE),
  siren: always("on_off_plugin_unit", SWITCH_LIKE),
  remote: always("on_off_plugin_unit", SWITCH_LIKE),
  /** Scripts have a state (running); on runs, off stops. */
  script: always("on_off_plugin_unit", SWITCH_LIKE),
  /** Momentary: a press turns the plug on and it falls back to off after ~1 s (HA keeps no on/off state). */
  button: always("on_off_plugin_unit", SWITCH_LIKE),
  input_button: always("on_off_plugin_unit", SWITCH_LIKE),
  scene: always("on_off_plugin_unit", SWITCH_LIKE),
  /** Momentary trigger (t0/RX): "turn on" means "run it"; enabling/disabling an automation stays in HA. */
  automation: always("on_off_plugin_unit", SWITCH_LIKE),
  cover: always("window_covering"),
  lock: always("door_lock"),
  climate: {
    decide: (state) => {
      const caps = climateCapabilities(state);
      return caps.heating || caps.cooling
        ? key("thermostat")
        : { unsupported: "climate without heat, cool, heat_cool or auto mode has no Matter thermostat mode" };
    },
    overrides: (state) => {
      const caps = climateCapabilities(state);
      return caps.heating || caps.cooling ? ["thermostat"] : [];
    },
  },
  fan: always("fan", ["fan", "air_purifier"]),
  humidifier: always("humidifier"),
  sensor: { decide: sensorDecision, overrides: (state) => keysOf(sensorDecision(state)) },
  binary_sensor: {
    decide: (state) => key(binarySensorKey(state)),
    overrides: ["contact_sensor", "occupancy_sensor", "water_leak_detector", "smoke_co_alarm", "on_off_sensor"],
  },
  media_player: {
    decide: (state) => {
      const caps = speakerCapabilities(state);
      return caps.volume || caps.mute || caps.power
        ? key("speaker")
        : { unsupported: "media player without volume, mute or power control" };
    },
    overrides: ["speaker"],
  },
  vacuum: always("robotic_vacuum_cleaner"),
  valve: always("water_valve"),
  select: {
    decide: (state) => (selectOptions(state).length > 0 ? key("mode_select") : { unsupported: "select without options" }),
    overrides: ["mode_select"],
  },
  input_select: {
    decide: (state) => (selectOptions(state).length > 0 ? key("mode_select") : { unsupported: "select without options" }),
    overrides: ["mode_select"],
  },
  /** HA event entities (buttons, doorbells) become a momentary Generic Switch that emits press events. */
  event: always("generic_switch"),
  /**
   * Water Heater (0x050F: Thermostat, WaterHeaterMode, WaterHeaterManagement), as the issue asks, not HAMH's plain
   * thermostat; Apple, Google and Alexa do not show 0x050F (docs/decisions.md "Water heater").
   */
  water_heater: always("water_heater"),
};

function keysOf(decision: MappingDecision): readonly DeviceTypeKey[] {
  return "key" in decision ? [decision.key] : [];
}

/** Why a domain outside the table is not exposed. */
export function unlistedReason(domain: string): string {
  switch (domain) {
    case "alarm_control_panel":
      return "alarm panels are exposed by the security plugin: Matter has no alarm panel device, and a mode switch would arm/disarm without the panel's code";
    case "camera":
      return "cameras are exposed by the camera plugin";
    default:
      return `domain ${domain} has no Matter device type (a plugin may map it)`;
  }
}

/** Device types an override may choose for this entity (empty when the domain is unsupported). */
export function allowedOverrides(domain: string, state: HassEntity | undefined): readonly DeviceTypeKey[] {
  const row = DOMAIN_TABLE[domain];
  if (!row) return [];
  return typeof row.overrides === "function" ? row.overrides(state) : row.overrides;
}

/**
 * The device type for an entity: the table's choice, or `override` when it fits the entity. An override that does
 * not fit (a sensor as a lock, a colour light key on a white-only bulb) is refused with the reason, never applied:
 * the endpoint would accept commands HA cannot carry out.
 */
export function mapEntity(snapshot: EntitySnapshot, override?: DeviceTypeKey | null): MappingDecision {
  const row = DOMAIN_TABLE[snapshot.domain];
  if (!row) return { unsupported: unlistedReason(snapshot.domain) };
  if (override === undefined || override === null) return row.decide(snapshot.state);
  const allowed = allowedOverrides(snapshot.domain, snapshot.state);
  if (!allowed.includes(override)) {
    const choices = allowed.length > 0 ? allowed.join(", ") : "none";
    return { unsupported: `device type ${override} does not fit ${snapshot.entityId} (possible: ${choices})` };
  }
  return { key: override };
}
