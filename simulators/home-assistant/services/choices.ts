/**
 * Option and number entities: select / input_select (`select_option`, first/last/next/previous) and number /
 * input_number (`set_value`, and increment/decrement for input_number). Out-of-range and unknown values fail as
 * HA fails them: ServiceValidationError for select and number, voluptuous `Invalid` for input_number.
 */
import { pyFloat } from "../core/json.ts";
import { Invalid, serviceValidationError } from "../protocol/errors.ts";
import { required, v } from "../protocol/schema.ts";
import { type EntityCall, entityService, type ServiceRuntime, type ServiceSpec, writeWith } from "./types.ts";

const optionsOf = (call: EntityCall): string[] =>
  Array.isArray(call.state.attributes.options) ? call.state.attributes.options.map(String) : [];

function selectOption(call: EntityCall, rt: ServiceRuntime, option: string): void {
  const options = optionsOf(call);
  if (!options.includes(option)) {
    if (call.domain === "select") {
      throw serviceValidationError(
        `Option ${option} is not valid for ${call.entityId}. Valid options are: ${options.join(", ")}`,
        "not_valid_option",
        { entity_id: call.entityId, option, options: options.join(", ") },
        "select",
      );
    }
    throw serviceValidationError(
      `Invalid option: ${option} (possible options: ${options.join(", ")})`,
      "invalid_option",
      {
        option,
        options: options.join(", "),
      },
      "input_select",
    );
  }
  writeWith(rt, call, option);
}

function step(direction: "first" | "last" | 1 | -1) {
  return (call: EntityCall, rt: ServiceRuntime) => {
    const options = optionsOf(call);
    if (options.length === 0) return;
    if (direction === "first") return selectOption(call, rt, options[0] as string);
    if (direction === "last") return selectOption(call, rt, options[options.length - 1] as string);
    const cycle = call.data.cycle !== false;
    let index = options.indexOf(call.state.state) + direction;
    if (index < 0) index = cycle ? options.length - 1 : 0;
    if (index >= options.length) index = cycle ? 0 : options.length - 1;
    selectOption(call, rt, options[index] as string);
  };
}

function optionServices(domain: string): ServiceSpec[] {
  return [
    entityService(domain, "select_option", { option: required(v.string()) }, (call, rt) =>
      selectOption(call, rt, call.data.option as string),
    ),
    entityService(domain, "select_first", {}, step("first")),
    entityService(domain, "select_last", {}, step("last")),
    entityService(domain, "select_next", { cycle: v.bool() }, step(1)),
    entityService(domain, "select_previous", { cycle: v.bool() }, step(-1)),
  ];
}

function bounds(call: EntityCall): { min: number; max: number; step: number } {
  const a = call.state.attributes;
  return {
    min: typeof a.min === "number" ? a.min : 0,
    max: typeof a.max === "number" ? a.max : 100,
    step: typeof a.step === "number" ? a.step : 1,
  };
}

function setNumber(call: EntityCall, rt: ServiceRuntime, value: number): void {
  const { min, max } = bounds(call);
  if (value < min || value > max) {
    if (call.domain === "number") {
      throw serviceValidationError(
        `Value ${pyFloat(value)} for ${call.entityId} is outside valid range ${pyFloat(min)} - ${pyFloat(max)}`,
        "out_of_range",
        { value: pyFloat(value), entity_id: call.entityId, min_value: pyFloat(min), max_value: pyFloat(max) },
        "number",
      );
    }
    throw new Invalid(`Invalid value for ${call.entityId}: ${pyFloat(value)} (range ${pyFloat(min)} - ${pyFloat(max)})`);
  }
  // The value reaches the entity as a float, so the state reads like Python's str(float): "21.0".
  writeWith(rt, call, pyFloat(value));
}

function nudge(direction: 1 | -1) {
  return (call: EntityCall, rt: ServiceRuntime) => {
    const current = Number(call.state.state);
    setNumber(call, rt, (Number.isFinite(current) ? current : 0) + direction * bounds(call).step);
  };
}

export function choiceServices(): ServiceSpec[] {
  const value = { value: required(v.float()) };
  return [
    ...optionServices("select"),
    ...optionServices("input_select"),
    entityService(
      "input_select",
      "set_options",
      { options: required(v.stringList()) },
      (call, rt) => {
        const options = call.data.options as string[];
        writeWith(rt, call, options.includes(call.state.state) ? call.state.state : (options[0] as string), { options });
      },
      {
        validate(data) {
          if ((data.options as string[]).length === 0)
            throw new Invalid("length of value must be at least 1", ["options"], "dictionary value");
        },
      },
    ),
    entityService("number", "set_value", value, (call, rt) => setNumber(call, rt, call.data.value as number)),
    entityService("input_number", "set_value", value, (call, rt) => setNumber(call, rt, call.data.value as number)),
    entityService("input_number", "increment", {}, nudge(1)),
    entityService("input_number", "decrement", {}, nudge(-1)),
  ];
}
