/**
 * Water heaters after HA's water_heater/__init__.py and services.py: each service needs its feature
 * (ServiceNotSupported otherwise), `set_operation_mode` checks the mode against `operation_list`
 * (ServiceValidationError `operation_list_not_defined` / `not_valid_operation_mode`), and the entity's state is its
 * current operation, mirrored in `operation_mode`. Turning on goes back to the last mode that was not off (HA's demo
 * heater uses `eco`; integrations restore their own), away mode is the `away_mode` attribute ("on"/"off").
 * `set_temperature` takes an optional `operation_mode`, which HA passes to the entity; the simulated entity applies
 * it with the same checks as `set_operation_mode`.
 */
import { serviceValidationError } from "../protocol/errors.ts";
import { required, v } from "../protocol/schema.ts";
import { type EntityCall, entityService, featuresOf, type ServiceRuntime, type ServiceSpec, writeWith } from "./types.ts";

/** `WaterHeaterEntityFeature`. */
export const WaterHeaterFeature = {
  TARGET_TEMPERATURE: 1,
  OPERATION_MODE: 2,
  AWAY_MODE: 4,
  ON_OFF: 8,
} as const;

const operationsOf = (call: EntityCall): string[] | undefined => {
  const list = call.state.attributes.operation_list;
  return Array.isArray(list) ? list.map(String) : undefined;
};

/** `async_handle_set_operation_mode`'s checks, with HA's messages. */
function checkOperation(call: EntityCall, mode: string): void {
  const operations = operationsOf(call);
  const placeholders = { entity_id: call.entityId, operation_mode: mode };
  if (operations === undefined) {
    throw serviceValidationError(
      `Operation mode ${mode} is not valid for ${call.entityId}. The operation list is not defined.`,
      "operation_list_not_defined",
      placeholders,
      "water_heater",
    );
  }
  if (!operations.includes(mode)) {
    const list = operations.join(", ");
    throw serviceValidationError(
      `Operation mode ${mode} is not valid for ${call.entityId}. Valid operation modes are: ${list}.`,
      "not_valid_operation_mode",
      { ...placeholders, operation_list: list },
      "water_heater",
    );
  }
}

/** Writes the heater in `mode` (its state), keeping `operation_mode` in step when the entity reports it. */
function writeMode(call: EntityCall, rt: ServiceRuntime, mode: string, changes: Record<string, unknown> = {}): void {
  if (mode !== "off") rt.memory(call.entityId).lastOnMode = mode;
  const withMode = featuresOf(call.state) & WaterHeaterFeature.OPERATION_MODE ? { operation_mode: mode } : {};
  writeWith(rt, call, mode, { ...changes, ...withMode });
}

function turnOn(call: EntityCall, rt: ServiceRuntime): void {
  const operations = (operationsOf(call) ?? []).filter((mode) => mode !== "off");
  const remembered = rt.memory(call.entityId).lastOnMode;
  const mode = typeof remembered === "string" && operations.includes(remembered) ? remembered : (operations[0] ?? "on");
  writeMode(call, rt, mode);
}

function setTemperature(call: EntityCall, rt: ServiceRuntime): void {
  const mode = call.data.operation_mode as string | undefined;
  if (mode !== undefined) checkOperation(call, mode);
  writeMode(call, rt, mode ?? call.state.state, { temperature: call.data.temperature });
}

export function waterHeaterServices(): ServiceSpec[] {
  const F = WaterHeaterFeature;
  return [
    entityService(
      "water_heater",
      "set_temperature",
      { temperature: required(v.float()), operation_mode: v.string() },
      setTemperature,
      { requiredFeatures: [F.TARGET_TEMPERATURE] },
    ),
    entityService(
      "water_heater",
      "set_operation_mode",
      { operation_mode: required(v.string()) },
      (call, rt) => {
        const mode = call.data.operation_mode as string;
        checkOperation(call, mode);
        writeMode(call, rt, mode);
      },
      { requiredFeatures: [F.OPERATION_MODE] },
    ),
    entityService(
      "water_heater",
      "set_away_mode",
      { away_mode: required(v.bool()) },
      (call, rt) => writeWith(rt, call, call.state.state, { away_mode: call.data.away_mode ? "on" : "off" }),
      { requiredFeatures: [F.AWAY_MODE] },
    ),
    entityService("water_heater", "turn_on", {}, turnOn, { requiredFeatures: [F.ON_OFF] }),
    entityService("water_heater", "turn_off", {}, (call, rt) => writeMode(call, rt, "off"), { requiredFeatures: [F.ON_OFF] }),
  ];
}
