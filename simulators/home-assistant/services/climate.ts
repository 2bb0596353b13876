/**
 * Climate and humidifier entities after HA's climate/__init__.py and humidifier/__init__.py: mode validation
 * against the entity's lists (ServiceValidationError `not_valid_*`), `set_temperature` feature checks and range
 * check (`temp_out_of_range`), and an `hvac_action` that follows the simulated room.
 */
import { pyFloat } from "../core/json.ts";
import { Invalid, serviceValidationError } from "../protocol/errors.ts";
import { required, v } from "../protocol/schema.ts";
import { type EntityCall, entityService, featuresOf, type ServiceRuntime, type ServiceSpec, writeWith } from "./types.ts";

/** `ClimateEntityFeature`. */
export const ClimateFeature = {
  TARGET_TEMPERATURE: 1,
  TARGET_TEMPERATURE_RANGE: 2,
  TARGET_HUMIDITY: 4,
  FAN_MODE: 8,
  PRESET_MODE: 16,
  SWING_MODE: 32,
  TURN_OFF: 128,
  TURN_ON: 256,
} as const;

/** `HumidifierEntityFeature`. */
export const HumidifierFeature = { MODES: 1 } as const;

export const HVAC_MODES = ["off", "heat", "cool", "heat_cool", "auto", "dry", "fan_only"] as const;

const num = (value: unknown): number | undefined => (typeof value === "number" ? value : undefined);
const list = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : []);

/** What a thermostat reports doing, given its mode and the room. */
export function hvacAction(mode: string, attributes: Readonly<Record<string, unknown>>): string {
  const current = num(attributes.current_temperature);
  const target = num(attributes.temperature);
  const low = num(attributes.target_temp_low) ?? target;
  const high = num(attributes.target_temp_high) ?? target;
  if (mode === "off") return "off";
  if (mode === "fan_only") return "fan";
  if (mode === "dry") return "drying";
  if (current === undefined) return "idle";
  const heating = (mode === "heat" || mode === "heat_cool" || mode === "auto") && low !== undefined && current < low - 0.2;
  const cooling = (mode === "cool" || mode === "heat_cool" || mode === "auto") && high !== undefined && current > high + 0.2;
  return heating ? "heating" : cooling ? "cooling" : "idle";
}

/** The entity's new attributes for `mode`, keeping single or range targets consistent with it. */
function climateAttributes(call: EntityCall, rt: ServiceRuntime, mode: string, changes: Record<string, unknown>) {
  const memory = rt.memory(call.entityId);
  const attributes: Record<string, unknown> = { ...call.state.attributes, ...changes };
  const features = featuresOf(call.state);
  const both = ClimateFeature.TARGET_TEMPERATURE | ClimateFeature.TARGET_TEMPERATURE_RANGE;
  // Thermostats that do both show one target in heat/cool and the low/high pair in heat_cool (and blank the other).
  if ((features & both) === both && mode !== "off") {
    for (const key of ["temperature", "target_temp_low", "target_temp_high"]) {
      if (typeof attributes[key] === "number") memory[key] = attributes[key];
    }
    const range = mode === "heat_cool";
    attributes.temperature = range ? null : (memory.temperature ?? null);
    attributes.target_temp_low = range ? (memory.target_temp_low ?? null) : null;
    attributes.target_temp_high = range ? (memory.target_temp_high ?? null) : null;
  }
  if ("hvac_action" in attributes) attributes.hvac_action = hvacAction(mode, attributes);
  return attributes;
}

function setMode(call: EntityCall, rt: ServiceRuntime, mode: string, changes: Record<string, unknown> = {}): void {
  if (mode !== "off") rt.memory(call.entityId).lastOnMode = mode;
  rt.write(call.entityId, mode, climateAttributes(call, rt, mode, changes), call.context);
}

function checkMode(kind: string, key: string, mode: string, valid: string[]): void {
  if (valid.includes(mode)) return;
  const label = kind === "hvac" ? "HVAC" : `${kind[0]?.toUpperCase()}${kind.slice(1)}`;
  throw serviceValidationError(
    `${label} mode ${mode} is not valid. Valid ${label} modes are: ${valid.join(", ")}.`,
    `not_valid_${key}_mode`,
    {
      mode,
      modes: valid.join(", "),
    },
    "climate",
  );
}

function setTemperature(call: EntityCall, rt: ServiceRuntime): void {
  const features = featuresOf(call.state);
  const data = call.data;
  if ("temperature" in data && !(features & ClimateFeature.TARGET_TEMPERATURE)) {
    throw serviceValidationError(
      "Set temperature action was used with the target temperature parameter but the entity does not support it.",
      "missing_target_temperature_entity_feature",
      undefined,
      "climate",
    );
  }
  if ("target_temp_low" in data && !(features & ClimateFeature.TARGET_TEMPERATURE_RANGE)) {
    throw serviceValidationError(
      "Set temperature action was used with the target temperature low/high parameter but the entity does not support it.",
      "missing_target_temperature_range_entity_feature",
      undefined,
      "climate",
    );
  }
  const min = num(call.state.attributes.min_temp) ?? 7;
  const max = num(call.state.attributes.max_temp) ?? 35;
  for (const key of ["temperature", "target_temp_low", "target_temp_high"]) {
    const value = num(data[key]);
    if (value !== undefined && (value < min || value > max)) {
      const placeholders = { check_temp: pyFloat(value), min_temp: pyFloat(min), max_temp: pyFloat(max) };
      throw serviceValidationError(
        `Provided temperature ${placeholders.check_temp} is not valid. Accepted range is ${placeholders.min_temp} to ${placeholders.max_temp}.`,
        "temp_out_of_range",
        placeholders,
        "climate",
      );
    }
  }
  const mode = typeof data.hvac_mode === "string" ? data.hvac_mode : call.state.state;
  if (typeof data.hvac_mode === "string") checkMode("hvac", "hvac", mode, list(call.state.attributes.hvac_modes));
  const changes: Record<string, unknown> = {};
  for (const key of ["temperature", "target_temp_low", "target_temp_high"]) if (key in data) changes[key] = data[key];
  const memory = rt.memory(call.entityId);
  for (const [key, value] of Object.entries(changes)) memory[key] = value;
  setMode(call, rt, mode, changes);
}

function turnOn(call: EntityCall, rt: ServiceRuntime): void {
  const modes = list(call.state.attributes.hvac_modes).filter((mode) => mode !== "off");
  const remembered = rt.memory(call.entityId).lastOnMode;
  const mode = typeof remembered === "string" && modes.includes(remembered) ? remembered : (modes[0] ?? "heat");
  setMode(call, rt, mode);
}

function listedMode(kind: string, attribute: string, listAttribute: string) {
  return (call: EntityCall, rt: ServiceRuntime) => {
    const value = call.data[attribute] as string;
    checkMode(kind, kind, value, list(call.state.attributes[listAttribute]));
    setMode(call, rt, call.state.state, { [attribute]: value });
  };
}

function checkHumidity(call: EntityCall, domain: string): number {
  const humidity = call.data.humidity as number;
  const min = num(call.state.attributes.min_humidity) ?? 30;
  const max = num(call.state.attributes.max_humidity) ?? 99;
  if (humidity < min || humidity > max) {
    const placeholders = { humidity: String(humidity), min_humidity: String(min), max_humidity: String(max) };
    throw serviceValidationError(
      `Provided humidity ${humidity} is not valid. Accepted range is ${min} to ${max}.`,
      "humidity_out_of_range",
      placeholders,
      domain,
    );
  }
  return humidity;
}

export function climateServices(): ServiceSpec[] {
  const F = ClimateFeature;
  const temperature = v.float();
  return [
    entityService("climate", "set_hvac_mode", { hvac_mode: required(v.oneOf(HVAC_MODES)) }, (call, rt) => {
      const mode = call.data.hvac_mode as string;
      checkMode("hvac", "hvac", mode, list(call.state.attributes.hvac_modes));
      setMode(call, rt, mode);
    }),
    entityService(
      "climate",
      "set_temperature",
      { temperature, target_temp_low: temperature, target_temp_high: temperature, hvac_mode: v.oneOf(HVAC_MODES) },
      setTemperature,
      {
        requiredFeatures: [F.TARGET_TEMPERATURE, F.TARGET_TEMPERATURE_RANGE],
        validate(data) {
          if (!("temperature" in data || "target_temp_low" in data || "target_temp_high" in data)) {
            throw new Invalid("must contain at least one of temperature, target_temp_high, target_temp_low.");
          }
          if ("target_temp_low" in data !== "target_temp_high" in data) {
            throw new Invalid("some but not all values in the same group of inclusion 'temperature'", ["<temperature>"]);
          }
          if ((data.target_temp_low as number) > (data.target_temp_high as number)) {
            throw new Invalid("target_temp_low must not exceed target_temp_high");
          }
        },
      },
    ),
    entityService("climate", "turn_on", {}, turnOn, { requiredFeatures: [F.TURN_ON] }),
    entityService("climate", "turn_off", {}, (call, rt) => setMode(call, rt, "off"), { requiredFeatures: [F.TURN_OFF] }),
    entityService(
      "climate",
      "toggle",
      {},
      (call, rt) => (call.state.state === "off" ? turnOn(call, rt) : setMode(call, rt, "off")),
      {
        requiredFeatures: [F.TURN_OFF | F.TURN_ON],
      },
    ),
    entityService("climate", "set_fan_mode", { fan_mode: required(v.string()) }, listedMode("fan", "fan_mode", "fan_modes"), {
      requiredFeatures: [F.FAN_MODE],
    }),
    entityService(
      "climate",
      "set_preset_mode",
      { preset_mode: required(v.string()) },
      listedMode("preset", "preset_mode", "preset_modes"),
      {
        requiredFeatures: [F.PRESET_MODE],
      },
    ),
    entityService(
      "climate",
      "set_swing_mode",
      { swing_mode: required(v.string()) },
      listedMode("swing", "swing_mode", "swing_modes"),
      {
        requiredFeatures: [F.SWING_MODE],
      },
    ),
    entityService(
      "climate",
      "set_humidity",
      { humidity: required(v.int({ min: 0, max: 100 })) },
      (call, rt) => setMode(call, rt, call.state.state, { humidity: checkHumidity(call, "climate") }),
      { requiredFeatures: [F.TARGET_HUMIDITY] },
    ),
  ];
}

/** A humidifier's `action` for its on/off state and the room's humidity. */
export function humidifierAction(on: boolean, attributes: Readonly<Record<string, unknown>>): string {
  if (!on) return "off";
  const current = num(attributes.current_humidity);
  const target = num(attributes.humidity);
  if (current === undefined || target === undefined) return "idle";
  if (attributes.device_class === "dehumidifier") return current > target ? "drying" : "idle";
  return current < target ? "humidifying" : "idle";
}

function writeHumidifier(call: EntityCall, rt: ServiceRuntime, on: boolean, changes: Record<string, unknown> = {}): void {
  const attributes = { ...call.state.attributes, ...changes };
  if ("action" in attributes) attributes.action = humidifierAction(on, attributes);
  writeWith(rt, call, on ? "on" : "off", attributes);
}

export function humidifierServices(): ServiceSpec[] {
  return [
    entityService("humidifier", "turn_on", {}, (call, rt) => writeHumidifier(call, rt, true)),
    entityService("humidifier", "turn_off", {}, (call, rt) => writeHumidifier(call, rt, false)),
    entityService("humidifier", "toggle", {}, (call, rt) => writeHumidifier(call, rt, call.state.state !== "on")),
    entityService("humidifier", "set_humidity", { humidity: required(v.int({ min: 0, max: 100 })) }, (call, rt) =>
      writeHumidifier(call, rt, call.state.state === "on", { humidity: checkHumidity(call, "humidifier") }),
    ),
    entityService(
      "humidifier",
      "set_mode",
      { mode: required(v.string()) },
      (call, rt) => {
        const mode = call.data.mode as string;
        const modes = list(call.state.attributes.available_modes);
        if (!modes.includes(mode)) {
          throw serviceValidationError(
            `Mode ${mode} is not valid. Valid modes are: ${modes.join(", ")}.`,
            "not_valid_mode",
            {
              mode,
              modes: modes.join(", "),
            },
            "humidifier",
          );
        }
        writeHumidifier(call, rt, call.state.state === "on", { mode });
      },
      { requiredFeatures: [HumidifierFeature.MODES] },
    ),
  ];
}
