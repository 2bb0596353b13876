/**
 * A form rendered from a plugin's config schema (docs/plugins.md "The Plugins page"): the field for each property,
 * its starting value, and the configuration a save sends.
 */
import { useId } from "preact/hooks";
import type { PluginConfigProperty, PluginConfigSchema } from "../api/plugins.ts";
import { S } from "../strings.ts";

export type Value = string | boolean;
export type Entry = [string, PluginConfigProperty];

/** Config keys of the appliance cloud's per-device switches (one per device found on the account). */
export const isDeviceSwitch = ([key, property]: Entry) => property.type === "boolean" && key.startsWith("device_");

/** A field's starting value: the saved one (never a secret's), else the schema default for a switch. */
export function initialValue(key: string, property: PluginConfigProperty, config: Record<string, unknown> | null): Value {
  const saved = config?.[key];
  if (property.type === "boolean") return typeof saved === "boolean" ? saved : property.default === true;
  if (property.secret || saved === undefined || saved === null) return "";
  return String(saved);
}

function numberError(text: string, property: PluginConfigProperty): string | null {
  if (text === "") return null;
  const value = Number(text);
  if (!Number.isFinite(value)) return S.plugins.notNumber;
  if (property.type === "integer" && !Number.isInteger(value)) return S.plugins.notInteger;
  if (property.minimum !== undefined && value < property.minimum) return S.plugins.tooSmall(property.minimum);
  if (property.maximum !== undefined && value > property.maximum) return S.plugins.tooLarge(property.maximum);
  return null;
}

/**
 * The configuration to POST: the saved configuration (undeclared keys stay, e.g. a switch of a device the cloud did
 * not list this time) overlaid with the form. A secret left empty is not sent (the hub keeps it); "remove" sends
 * null; an empty number is left out so the plugin's default applies.
 */
export function buildConfig(
  schema: PluginConfigSchema,
  values: Record<string, Value>,
  clear: Set<string>,
  saved: Record<string, unknown> | null,
): { config: Record<string, unknown>; errors: Record<string, string> } {
  const config: Record<string, unknown> = { ...(saved ?? {}) };
  const errors: Record<string, string> = {};
  for (const [key, property] of Object.entries(schema.properties)) {
    const value = values[key] ?? initialValue(key, property, saved);
    delete config[key];
    if (property.secret) {
      if (clear.has(key)) config[key] = null;
      else if (typeof value === "string" && value !== "") config[key] = value;
    } else if (property.type === "boolean") {
      config[key] = value === true;
    } else if (property.type === "number" || property.type === "integer") {
      const text = String(value).trim();
      const error = numberError(text, property);
      if (error) errors[key] = error;
      else if (text !== "") config[key] = Number(text);
    } else {
      config[key] = String(value);
    }
  }
  return { config, errors };
}

function hintOf(property: PluginConfigProperty, secretSet: boolean): string | undefined {
  if (property.secret) return secretSet ? S.plugins.secretSet : S.plugins.secretUnset;
  const parts = [property.description];
  if (property.minimum !== undefined || property.maximum !== undefined)
    parts.push(S.plugins.range(property.minimum, property.maximum));
  if (property.default !== undefined && property.type !== "boolean") parts.push(S.plugins.defaultValue(String(property.default)));
  return parts.filter(Boolean).join(" · ") || undefined;
}

interface FieldProps {
  name: string;
  property: PluginConfigProperty;
  value: Value;
  error: string | undefined;
  secretSet: boolean;
  clearing: boolean;
  disabled: boolean;
  onValue: (value: Value) => void;
  onClear: (clear: boolean) => void;
}

export function SchemaField({ name, property, value, error, secretSet, clearing, disabled, onValue, onClear }: FieldProps) {
  const id = useId();
  if (property.type === "boolean") {
    return (
      <label class="check schema-check" data-field={name}>
        <input type="checkbox" checked={value === true} disabled={disabled} onChange={(e) => onValue(e.currentTarget.checked)} />
        <span>
          {property.title}
          {property.description ? <span class="hint block">{property.description}</span> : null}
        </span>
      </label>
    );
  }
  const hint = hintOf(property, secretSet);
  const numeric = property.type === "number" || property.type === "integer";
  const describedBy = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;
  const common = {
    id,
    value: value as string,
    disabled,
    autocomplete: "off",
    spellcheck: false,
    placeholder: !property.secret && property.default !== undefined ? String(property.default) : undefined,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": describedBy,
    onInput: (e: Event) => onValue((e.currentTarget as HTMLInputElement).value),
  };
  return (
    <div class="field" data-field={name}>
      <label for={id}>{property.title}</label>
      {property.secret ? (
        <input {...common} type="password" autocomplete="new-password" disabled={disabled || clearing} />
      ) : numeric ? (
        <input
          {...common}
          type="number"
          inputMode={property.type === "integer" ? "numeric" : "decimal"}
          step={property.type === "integer" ? 1 : "any"}
          min={property.minimum}
          max={property.maximum}
        />
      ) : (
        <input {...common} type="text" />
      )}
      {hint ? (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p class="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
      {property.secret && secretSet ? (
        <label class="check">
          <input type="checkbox" checked={clearing} disabled={disabled} onChange={(e) => onClear(e.currentTarget.checked)} />
          {S.plugins.secretClear(property.title)}
        </label>
      ) : null}
    </div>
  );
}
