import * as v from "valibot";
import type { EntityView } from "../home-assistant/entity-view.ts";
import type { HomeAssistantModel } from "../home-assistant/ha-model.ts";

/** Rule types a bridge filter understands (hub spec: `domain`, plus label and area types; more for precision). */
export const FILTER_RULE_TYPES = [
  "domain",
  "label",
  "area",
  "pattern",
  "platform",
  "entity_category",
  "device_class",
  "device",
  "regex",
  "entity_id",
] as const;
export type FilterRuleType = (typeof FILTER_RULE_TYPES)[number];

export const FilterRuleSchema = v.pipe(
  v.object({
    type: v.picklist(FILTER_RULE_TYPES, `type must be one of ${FILTER_RULE_TYPES.join(", ")}`),
    value: v.pipe(v.string(), v.trim(), v.nonEmpty("value must not be empty"), v.maxLength(500)),
  }),
  v.check((rule) => rule.type !== "regex" || isValidRegex(rule.value), "value must be a valid regular expression"),
);
export type FilterRule = v.InferOutput<typeof FilterRuleSchema>;

export const BridgeFilterSchema = v.object({
  include: v.optional(v.pipe(v.array(FilterRuleSchema), v.maxLength(200)), []),
  exclude: v.optional(v.pipe(v.array(FilterRuleSchema), v.maxLength(200)), []),
  /** Hidden entities (HA `hidden_by`) are left out unless asked for. */
  includeHidden: v.optional(v.boolean(), false),
});
export type BridgeFilter = v.InferOutput<typeof BridgeFilterSchema>;

function isValidRegex(source: string): boolean {
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
}

/** `*` any run of characters, `?` one character; everything else literal. Matches the whole entity id. */
export function globToRegExp(glob: string): RegExp {
  const escaped = glob
    .replace(/[.+^${}()|[\]\\]/g, "\\$&")
    .replace(/\*/g, ".*")
    .replace(/\?/g, ".");
  return new RegExp(`^${escaped}$`, "i");
}

/** A filter compiled once per bridge; `matches` is then cheap enough to run per changed entity. */
export interface CompiledFilter {
  matches(view: EntityView): boolean;
  /** Why an entity is out, for previews: `disabled`, `hidden`, `excluded`, `not-included`, or undefined when in. */
  reason(view: EntityView): string | undefined;
}

export function compileFilter(filter: BridgeFilter, model: HomeAssistantModel): CompiledFilter {
  const compileRule = (rule: FilterRule): ((view: EntityView) => boolean) => {
    const value = rule.value;
    const lower = value.toLowerCase();
    switch (rule.type) {
      case "domain":
        return (e) => e.domain === lower;
      case "entity_id":
        return (e) => e.entityId === lower;
      case "pattern": {
        const re = globToRegExp(value);
        return (e) => re.test(e.entityId);
      }
      case "regex": {
        const re = new RegExp(value);
        return (e) => re.test(e.entityId);
      }
      case "platform":
        return (e) => e.registry?.platform === lower;
      case "entity_category":
        // `none`/`primary` select entities without a category (the ones people usually mean).
        return (e) => (e.registry?.entity_category ?? "none") === (lower === "primary" ? "none" : lower);
      case "device_class":
        return (e) =>
          (e.state?.attributes.device_class ?? e.registry?.device_class ?? e.registry?.original_device_class) === lower;
      case "device":
        return (e) =>
          e.device !== undefined &&
          (e.device.id === value || (e.device.name_by_user ?? e.device.name ?? "").toLowerCase() === lower);
      case "area":
        // By id or by name; the entity's own area wins over its device's (HA's rule, applied in EntityView).
        return (e) => e.areaId !== null && (e.areaId === value || model.areas.get(e.areaId)?.name.toLowerCase() === lower);
      case "label":
        // By id (slug) or display name, on the entity or on its device: people label either.
        return (e) =>
          [...e.labels, ...e.deviceLabels].some((id) => id === value || model.labels.get(id)?.name.toLowerCase() === lower);
    }
  };
  const include = filter.include.map(compileRule);
  const exclude = filter.exclude.map(compileRule);
  const reason = (view: EntityView): string | undefined => {
    if (view.registry?.disabled_by) return "disabled";
    if (view.registry?.hidden_by && !filter.includeHidden) return "hidden";
    if (exclude.some((rule) => rule(view))) return "excluded";
    // An empty include list selects everything (minus exclusions); documented in docs/decisions.md.
    if (include.length > 0 && !include.some((rule) => rule(view))) return "not-included";
    return undefined;
  };
  return { matches: (view) => reason(view) === undefined, reason };
}
