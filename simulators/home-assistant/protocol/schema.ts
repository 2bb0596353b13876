/**
 * A small voluptuous: the validators HA's service and command schemas use (`vol.Coerce`, `vol.Range`, `vol.Clamp`,
 * `vol.In`, `cv.boolean`, `cv.string`, `cv.comp_entity_ids`…), failing with voluptuous' messages so `invalid_format`
 * errors read like HA's (e.g. "value must be at most 100 for dictionary value @ data['brightness_pct']").
 */
import { pyRepr } from "../core/json.ts";
import { isValidEntityId } from "../core/state-machine.ts";
import { Invalid } from "./errors.ts";

export interface Field {
  check(value: unknown): unknown;
  /** The `get_services` selector describing the field. */
  selector: Record<string, unknown>;
  required?: boolean;
  /** A `vol.Exclusive` group: at most one key of the group may be present. */
  exclusive?: string;
}

export type Fields = Record<string, Field>;

interface Bounds {
  min?: number;
  max?: number;
  /** `vol.Clamp` instead of `vol.Range`: out-of-range values are pulled in, not rejected. */
  clamp?: boolean;
}

function bounded(value: number, bounds: Bounds): number {
  const { min, max } = bounds;
  if (min !== undefined && value < min) {
    if (bounds.clamp) return min;
    throw new Invalid(`value must be at least ${min}`);
  }
  if (max !== undefined && value > max) {
    if (bounds.clamp) return max;
    throw new Invalid(`value must be at most ${max}`);
  }
  return value;
}

function coerceNumber(value: unknown, integer: boolean): number {
  const kind = integer ? "int" : "float";
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "number" && Number.isFinite(value)) return integer ? Math.trunc(value) : value;
  if (typeof value === "string" && value.trim() !== "") {
    // Python's int("1.5") fails while float("1.5") works.
    const pattern = integer ? /^\s*[+-]?\d+\s*$/ : /^\s*[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?\s*$/i;
    if (pattern.test(value)) return Number(value);
  }
  throw new Invalid(`expected ${kind}`);
}

const numberSelector = (bounds: Bounds, step?: number) => ({
  number: {
    ...(bounds.min !== undefined ? { min: bounds.min } : {}),
    ...(bounds.max !== undefined ? { max: bounds.max } : {}),
    ...(step ? { step } : {}),
    mode: "slider",
  },
});

export const v = {
  int: (bounds: Bounds = {}): Field => ({
    check: (value) => bounded(coerceNumber(value, true), bounds),
    selector: numberSelector(bounds, 1),
  }),
  float: (bounds: Bounds = {}, step?: number): Field => ({
    check: (value) => bounded(coerceNumber(value, false), bounds),
    selector: numberSelector(bounds, step),
  }),
  /** `cv.boolean`. */
  bool: (): Field => ({
    check(value) {
      if (typeof value === "boolean") return value;
      if (typeof value === "number") return value !== 0;
      if (typeof value === "string") {
        const lowered = value.toLowerCase().trim();
        if (["1", "true", "yes", "on", "enable"].includes(lowered)) return true;
        if (["0", "false", "no", "off", "disable"].includes(lowered)) return false;
      }
      throw new Invalid(`invalid boolean value ${String(value)}`);
    },
    selector: { boolean: {} },
  }),
  /** `cv.string`: numbers become strings, containers are refused. */
  string: (): Field => ({
    check(value) {
      if (typeof value === "string") return value;
      if (typeof value === "number" || typeof value === "boolean")
        return typeof value === "boolean" ? (value ? "True" : "False") : String(value);
      if (value === null || value === undefined) throw new Invalid("string value is None");
      throw new Invalid("value should be a string");
    },
    selector: { text: {} },
  }),
  /** `vol.In(options)` (often through `vol.Coerce(SomeStrEnum)`). */
  oneOf: (options: readonly string[]): Field => ({
    check(value) {
      if (typeof value === "string" && options.includes(value)) return value;
      throw new Invalid(`value must be one of ${pyRepr([...options].sort())}`);
    },
    selector: { select: { options: [...options] } },
  }),
  /** `vol.ExactSequence`, e.g. `hs_color: [float 0..360, float 0..100]`. */
  tuple: (items: Field[], selector: Record<string, unknown>): Field => ({
    check(value) {
      if (!Array.isArray(value) || value.length !== items.length) throw new Invalid("invalid list value");
      return value.map((item, index) => {
        try {
          return items[index]?.check(item);
        } catch (error) {
          if (error instanceof Invalid) throw new Invalid(error.message, [index, ...error.path]);
          throw error;
        }
      });
    },
    selector,
  }),
  object: (): Field => ({
    check(value) {
      if (typeof value === "object" && value !== null && !Array.isArray(value)) return value;
      throw new Invalid("expected a dictionary");
    },
    selector: { object: {} },
  }),
  /** `cv.comp_entity_ids`: a list or comma-separated string of entity ids, or "all"/"none"; lower-cased. */
  entityIds: (): Field => ({
    check(value) {
      if (typeof value === "string" && ["all", "none"].includes(value.toLowerCase())) return value.toLowerCase();
      const list = typeof value === "string" ? value.split(",") : Array.isArray(value) ? value : null;
      if (list === null) throw new Invalid("Entity IDs should be a list or a comma-separated string");
      return list.map((item) => {
        const id = String(item).trim().toLowerCase();
        if (!isValidEntityId(id)) throw new Invalid(`Entity ID ${String(item)} is an invalid entity ID`);
        return id;
      });
    },
    selector: { entity: {} },
  }),
  /** `cv.entity_id`: one entity id, lower-cased. */
  entityId: (): Field => ({
    check(value) {
      const id = String(value).trim().toLowerCase();
      if (typeof value !== "string" || !isValidEntityId(id))
        throw new Invalid(`Entity ID ${String(value)} is an invalid entity ID`);
      return id;
    },
    selector: { entity: {} },
  }),
  /** `cv.entity_ids`: a list or comma-separated string of valid entity ids, lower-cased (no "all"). */
  entityIdList: (): Field => ({
    check(value) {
      const list = typeof value === "string" ? value.split(",") : Array.isArray(value) ? value : null;
      if (list === null) throw new Invalid("Entity IDs should be a list or a comma-separated string");
      return list.map((item, index) => {
        const id = String(item).trim().toLowerCase();
        // `[cv.entity_id]` inside vol.All: the error names the item.
        if (!isValidEntityId(id)) throw new Invalid(`Entity ID ${String(item)} is an invalid entity ID`, [index]);
        return id;
      });
    },
    selector: { entity: { multiple: true } },
  }),
  /** A list of one validator in a voluptuous schema (`[vol.In(...)]`, `[str]`): each item must pass it. */
  listOf: (item: Field): Field => ({
    check(value) {
      if (!Array.isArray(value)) throw new Invalid("expected a list");
      return value.map((entry, index) => {
        try {
          return item.check(entry);
        } catch (error) {
          if (error instanceof Invalid) throw new Invalid(error.message, [index, ...error.path], error.errorType);
          throw error;
        }
      });
    },
    selector: { object: {} },
  }),
  /** A bare Python type in a schema (`str`, `bool`): checked, never coerced ("expected bool"). */
  type: (name: "str" | "bool"): Field => ({
    check(value) {
      if (typeof value === (name === "str" ? "string" : "boolean")) return value;
      throw new Invalid(`expected ${name}`);
    },
    selector: name === "bool" ? { boolean: {} } : { text: {} },
  }),
  /** `vol.All(cv.ensure_list, [cv.string])` as used for device_id, area_id, floor_id and label_id. */
  stringList: (): Field => ({
    check(value) {
      const list = Array.isArray(value) ? value : [value];
      return list.map((item) => {
        if (typeof item !== "string") throw new Invalid("value should be a string");
        return item;
      });
    },
    selector: { text: { multiple: true } },
  }),
};

export const required = (field: Field): Field => ({ ...field, required: true });
export const exclusive = (group: string, field: Field): Field => ({ ...field, exclusive: group });

/** The target keys every entity service accepts (`cv.ENTITY_SERVICE_FIELDS`), in HA's order. */
export const ENTITY_SERVICE_FIELDS: Fields = {
  entity_id: v.entityIds(),
  device_id: v.stringList(),
  area_id: v.stringList(),
  floor_id: v.stringList(),
  label_id: v.stringList(),
};

/**
 * Validates a mapping like `vol.Schema(fields)`, extra keys forbidden unless `allowExtra` (`vol.ALLOW_EXTRA`). Throws the first error, worded like
 * voluptuous' `MultipleInvalid` (which prints its first error).
 */
export function validateMapping(fields: Fields, data: unknown, allowExtra = false): Record<string, unknown> {
  if (typeof data !== "object" || data === null || Array.isArray(data)) throw new Invalid("expected a dictionary");
  const input = data as Record<string, unknown>;
  const groups = new Map<string, string>();
  for (const key of Object.keys(input)) {
    const group = fields[key]?.exclusive;
    if (group === undefined) continue;
    if (groups.has(group)) {
      throw new Invalid(`two or more values in the same group of exclusion '${group}'`, [`<${group}>`]);
    }
    groups.set(group, key);
  }
  const output: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    const field = fields[key];
    if (!field) {
      if (!allowExtra) throw new Invalid("extra keys not allowed", [key]);
      output[key] = value;
      continue;
    }
    try {
      output[key] = field.check(value);
    } catch (error) {
      if (!(error instanceof Invalid)) throw error;
      throw new Invalid(error.message, [key, ...error.path], error.path.length === 0 ? "dictionary value" : error.errorType);
    }
  }
  for (const [key, field] of Object.entries(fields)) {
    if (field.required && !(key in input)) throw new Invalid("required key not provided", [key]);
  }
  return output;
}

/** `cv.has_at_least_one_key`. */
export function requireOneOf(data: Record<string, unknown>, keys: readonly string[]): void {
  if (!keys.some((key) => key in data)) throw new Invalid(`must contain at least one of ${keys.join(", ")}.`);
}
