import * as v from "valibot";
import { parseOr400 } from "../../../lib/validate.ts";
import { objectMessage } from "../schema-messages.ts";
import type { CatalogEntry, ConfigField } from "./catalog/types.ts";

function fieldSchema(field: ConfigField): v.GenericSchema {
  const name = field.key;
  switch (field.type) {
    case "port":
      return v.pipe(
        v.number(`${name} must be a number`),
        v.integer(`${name} must be a whole number`),
        v.minValue(1024, `${name} must be at least 1024`),
        v.maxValue(65535, `${name} must be at most 65535`),
      );
    case "url":
      return v.pipe(
        v.string(`${name} must be a string`),
        v.maxLength(2000, `${name} must be at most 2000 characters`),
        v.url(`${name} must be a URL`),
        v.check((value) => /^https?:\/\//i.test(value), `${name} must be an http(s) URL`),
      );
    case "boolean":
      return v.boolean(`${name} must be true or false`);
    case "string": {
      const checks: v.PipeItem<string, string, v.BaseIssue<unknown>>[] = [
        v.maxLength(field.maxLength, `${name} must be at most ${field.maxLength} characters`),
      ];
      if (field.pattern) checks.push(v.regex(new RegExp(field.pattern), `${name} has an invalid format`));
      return v.pipe(v.string(`${name} must be a string`), ...checks);
    }
    case "enum":
      return v.picklist(field.values, `${name} must be one of ${field.values.map((value) => JSON.stringify(value)).join(", ")}`);
    case "stringList": {
      const item = field.pattern
        ? v.pipe(
            v.string(`${name} items must be strings`),
            v.maxLength(255),
            v.regex(new RegExp(field.pattern), `${name} has an invalid item`),
          )
        : v.pipe(v.string(`${name} items must be strings`), v.maxLength(255));
      return v.pipe(
        v.array(item, `${name} must be a list`),
        v.maxLength(field.maxItems, `${name} may hold at most ${field.maxItems} items`),
      );
    }
  }
}

/** The default configuration of an entry (`null` for computed values). */
export function defaultConfig(entry: CatalogEntry): Record<string, unknown> {
  return Object.fromEntries(entry.configFields.map((field) => [field.key, structuredClone(field.default)]));
}

/**
 * Validates a configuration change for an entry: only its fields (400 for others), each of its type; `null`
 * puts a field back to its default. Returns the merged configuration and the names of the fields given.
 */
export function applyConfigChange(
  entry: CatalogEntry,
  current: Record<string, unknown>,
  change: unknown,
): { config: Record<string, unknown>; fields: string[] } {
  const schema = v.strictObject(
    Object.fromEntries(entry.configFields.map((field) => [field.key, v.optional(v.nullable(fieldSchema(field)))])),
    objectMessage,
  );
  const parsed = parseOr400(schema, change ?? {}, "config") as Record<string, unknown>;
  const defaults = defaultConfig(entry);
  const config = { ...defaults, ...current };
  const fields: string[] = [];
  for (const [key, value] of Object.entries(parsed)) {
    if (value === undefined) continue;
    fields.push(key);
    config[key] = value === null ? defaults[key] : value;
  }
  // Keys of fields the entry no longer has are dropped.
  for (const key of Object.keys(config)) if (!(key in defaults)) delete config[key];
  return { config, fields };
}
