/**
 * Attribute values of a running node as a person reads them: enums by name, bitmaps as their set flags, ids by what
 * they name, byte strings in hex, and every value bounded (lists, bytes, strings, nesting, text), using matter.js's
 * data model for the names. What goes over the wire is plain JSON (`value`) and one readable line (`text`).
 */
import { camelize } from "@matter/main";
import { type ClusterModel, Matter, Metatype, type ValueModel } from "@matter/main/model";

/** How much of a value is shown; more is cut and marked `truncated` (a long list must not make a huge answer). */
export const VALUE_LIMITS = { listEntries: 32, bytes: 32, stringChars: 256, depth: 4, textChars: 400 } as const;

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export interface ShownValue {
  /** The value as JSON: bigints and byte strings become strings, lists and strings are cut to the limits. */
  value: JsonValue;
  /** One readable line: `On (1)`, `ExecuteIfOff, CoupleColorTempToLevel`, `null`, `"Lamp"`, `[OnOff (0x0006), …]`. */
  text: string;
  /** Something was left out (a long list, string or byte string; deep nesting; a long text). */
  truncated: boolean;
}

/** What ids name, for the global lists: the cluster whose attributes and commands they are. */
export interface ValueContext {
  cluster?: ClusterModel | undefined;
}

const hex = (n: number | bigint, digits = 4) => `0x${n.toString(16).toUpperCase().padStart(digits, "0")}`;

/** The named type a value model stands for (`devtype-id`, `OnOffStartUpOnOffEnum`, …), through list entries too. */
function typeNames(model: ValueModel | undefined): string[] {
  const names: string[] = [];
  for (let m: ValueModel | undefined = model; m && names.length < 8; m = m.base) if (m.type) names.push(m.type);
  return names;
}

/** Enum values or bitmap fields of a model: its own members, else those of the type it refers to. */
function membersOf(model: ValueModel) {
  const own = [...model.members];
  return own.length > 0 ? own : [...(model.definingModel?.members ?? [])];
}

function idText(model: ValueModel | undefined, n: number, context: ValueContext): string | undefined {
  const types = typeNames(model);
  if (types.includes("devtype-id")) {
    const type = Matter.deviceTypes.find((t) => t.id === n);
    return `${type?.name ?? "unknown device type"} (${hex(n)})`;
  }
  if (types.includes("cluster-id")) return `${Matter.clusters(n)?.name ?? "unknown cluster"} (${hex(n)})`;
  if (types.includes("vendor-id")) return hex(n);
  if (types.includes("attrib-id") && context.cluster) {
    const attribute = context.cluster.attributes.find((a) => a.id === n);
    return `${attribute?.name ?? "?"} (${hex(n)})`;
  }
  if (types.includes("command-id") && context.cluster) {
    const command = context.cluster.commands.find((c) => c.id === n && c.isRequest);
    const response = context.cluster.commands.find((c) => c.id === n && !c.isRequest);
    return `${(command ?? response)?.name ?? "?"} (${hex(n, 2)})`;
  }
  return undefined;
}

class Shower {
  truncated = false;
  constructor(readonly context: ValueContext) {}

  show(model: ValueModel | undefined, raw: unknown, depth: number): { value: JsonValue; text: string } {
    if (raw === null || raw === undefined) return { value: null, text: "null" };
    if (depth > VALUE_LIMITS.depth) {
      this.truncated = true;
      return { value: "…", text: "…" };
    }
    const metatype = model?.effectiveMetatype;
    if (raw instanceof Uint8Array) return this.#bytes(raw);
    if (typeof raw === "bigint") return { value: raw.toString(), text: raw.toString() };
    if (typeof raw === "boolean") return { value: raw, text: String(raw) };
    if (typeof raw === "number") {
      if (metatype === Metatype.enum && model) return { value: raw, text: this.#enumText(model, raw) };
      if (metatype === Metatype.bitmap && model) return { value: raw, text: this.#bitmapText(model, this.#bitsOf(model, raw)) };
      return { value: raw, text: idText(model, raw, this.context) ?? String(raw) };
    }
    if (typeof raw === "string") {
      const cut = raw.length > VALUE_LIMITS.stringChars;
      if (cut) this.truncated = true;
      const value = cut ? `${raw.slice(0, VALUE_LIMITS.stringChars)}…` : raw;
      return { value, text: JSON.stringify(value) };
    }
    if (raw instanceof Date) return { value: raw.toISOString(), text: raw.toISOString() };
    if (Array.isArray(raw)) return this.#list(model, raw, depth);
    if (typeof raw === "object") {
      if (metatype === Metatype.bitmap && model) return this.#bitmap(model, raw as Record<string, unknown>);
      return this.#struct(model, raw as Record<string, unknown>, depth);
    }
    return { value: String(raw), text: String(raw) };
  }

  #bytes(raw: Uint8Array) {
    const cut = raw.length > VALUE_LIMITS.bytes;
    if (cut) this.truncated = true;
    const shown = Buffer.from(raw.subarray(0, VALUE_LIMITS.bytes)).toString("hex");
    const value = cut ? `${shown}…` : shown;
    return { value, text: `${value || "(empty)"} (${raw.length} bytes)` };
  }

  #enumText(model: ValueModel, n: number): string {
    const member = membersOf(model).find((m) => m.id === n);
    return member ? `${member.name} (${n})` : `${n} (not in the model)`;
  }

  /** Each field of a bitmap with its key in matter.js's state (features are keyed by their camelised title). */
  #fields(model: ValueModel) {
    return membersOf(model).map((m) => {
      const { value: bit, min, max } = m.constraint;
      const low = typeof bit === "number" ? bit : typeof min === "number" ? min : 0;
      const high = typeof bit === "number" ? bit : typeof max === "number" ? max - 1 : low;
      // Features are fields whose title is the readable name ("Lighting" for LT).
      const name = (m as { title?: string }).title ?? m.name;
      return { name, keys: [m.propertyName, camelize(name)], low, high };
    });
  }

  #bitsOf(model: ValueModel, n: number): Record<string, number | boolean> {
    const flags: Record<string, number | boolean> = {};
    for (const field of this.#fields(model)) {
      const width = field.high - field.low + 1;
      const part = Math.floor(n / 2 ** field.low) % 2 ** width;
      flags[field.keys[0]!] = width === 1 ? part === 1 : part;
    }
    return flags;
  }

  #bitmapText(model: ValueModel, flags: Record<string, unknown>): string {
    const set: string[] = [];
    for (const field of this.#fields(model)) {
      const value = field.keys.map((key) => flags[key]).find((v) => v !== undefined);
      if (value === true) set.push(field.name);
      else if (typeof value === "number" && value !== 0) set.push(`${field.name}: ${value}`);
    }
    return set.length > 0 ? set.join(", ") : "none";
  }

  #bitmap(model: ValueModel, raw: Record<string, unknown>) {
    const value: Record<string, JsonValue> = {};
    for (const [key, flag] of Object.entries(raw)) {
      if (typeof flag === "boolean" || typeof flag === "number") value[key] = flag;
    }
    return { value, text: this.#bitmapText(model, raw) };
  }

  #list(model: ValueModel | undefined, raw: unknown[], depth: number) {
    const entry = model?.listEntry;
    const shown = raw.slice(0, VALUE_LIMITS.listEntries).map((item) => this.show(entry, item, depth + 1));
    const rest = raw.length - shown.length;
    if (rest > 0) this.truncated = true;
    const texts = shown.map((s) => s.text);
    if (rest > 0) texts.push(`… ${rest} more`);
    return { value: shown.map((s) => s.value), text: `[${texts.join(", ")}]` };
  }

  #struct(model: ValueModel | undefined, raw: Record<string, unknown>, depth: number) {
    const fields = model ? membersOf(model) : [];
    const value: Record<string, JsonValue> = {};
    const texts: string[] = [];
    for (const [key, item] of Object.entries(raw)) {
      if (item === undefined) continue;
      const field = fields.find((f) => f.propertyName === key);
      const shown = this.show(field, item, depth + 1);
      value[key] = shown.value;
      texts.push(`${field?.name ?? key}: ${shown.text}`);
    }
    return { value, text: `{${texts.join(", ")}}` };
  }
}

/** `raw` (a value of matter.js's state, as the node serves it) shown through its data model. */
export function showValue(model: ValueModel | undefined, raw: unknown, context: ValueContext = {}): ShownValue {
  const shower = new Shower(context);
  const { value, text } = shower.show(model, raw, 0);
  const long = text.length > VALUE_LIMITS.textChars;
  return {
    value,
    text: long ? `${text.slice(0, VALUE_LIMITS.textChars)}…` : text,
    truncated: shower.truncated || long,
  };
}

/** A feature map (as matter.js's state keeps it, flags by name, or as a number) as its number and feature titles. */
export function featureMapOf(cluster: ClusterModel, raw: unknown): { featureMap: number; features: string[] } {
  const features: string[] = [];
  let featureMap = 0;
  for (const feature of cluster.features) {
    const bit = feature.constraint.value;
    if (typeof bit !== "number") continue;
    const title = feature.title ?? feature.name;
    const on =
      typeof raw === "number"
        ? Math.floor(raw / 2 ** bit) % 2 === 1
        : Boolean((raw as Record<string, unknown> | null | undefined)?.[camelize(title)]);
    if (on) {
      featureMap += 2 ** bit;
      features.push(title);
    }
  }
  return { featureMap, features };
}
