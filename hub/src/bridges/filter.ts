import * as v from "valibot";
import { ASSISTANT_ID_PATTERN, KNOWN_ASSISTANTS } from "../home-assistant/assistants.ts";
import type { EntityView } from "../home-assistant/entity-view.ts";
import type { HomeAssistantModel } from "../home-assistant/ha-model.ts";
import { compileEntityRegex, compileGlob } from "./entity-regex.ts";

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
  "exposed_to",
] as const;
export type FilterRuleType = (typeof FILTER_RULE_TYPES)[number];

export const FilterRuleSchema = v.pipe(
  v.object({
    type: v.picklist(FILTER_RULE_TYPES, `type must be one of ${FILTER_RULE_TYPES.join(", ")}`),
    value: v.pipe(v.string(), v.trim(), v.nonEmpty("value must not be empty"), v.maxLength(500)),
  }),
  // A regex the linear-time engine refuses is a 400 naming why (too long, backreference, lookaround, syntax).
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed || dataset.value.type !== "regex") return;
    const { problem } = compileEntityRegex(dataset.value.value);
    if (problem) addIssue({ message: problem });
  }),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed || dataset.value.type !== "exposed_to") return;
    const problem = assistantProblem(dataset.value.value);
    if (problem) addIssue({ message: problem });
  }),
);

/**
 * Why an `exposed_to` value is refused, or undefined: HA's assistant ids (`conversation`, `cloud.alexa`, …) and any
 * id of the same shape (an assistant HA adds later, or a custom integration's) are accepted, case-insensitively.
 */
export function assistantProblem(value: string): string | undefined {
  if (ASSISTANT_ID_PATTERN.test(value.toLowerCase())) return undefined;
  const known = KNOWN_ASSISTANTS.map((assistant) => `${assistant.id} (${assistant.name})`).join(", ");
  return `exposed_to: ${JSON.stringify(value)} is not an assistant id; Home Assistant's are ${known}`;
}
export type FilterRule = v.InferOutput<typeof FilterRuleSchema>;

export const BridgeFilterSchema = v.object({
  include: v.optional(v.pipe(v.array(FilterRuleSchema), v.maxLength(200)), []),
  exclude: v.optional(v.pipe(v.array(FilterRuleSchema), v.maxLength(200)), []),
  /** Hidden entities (HA `hidden_by`) are left out unless asked for. */
  includeHidden: v.optional(v.boolean(), false),
  /**
   * Narrows the selection on top of `include` (whose rules are alternatives, so an area added there would widen the
   * filter): an entity must match one `within` rule of each rule type present, e.g. one of the areas and one of the
   * labels. A split sets it to the areas or labels of each new bridge (docs/decisions.md "Controller limits").
   * Absent or empty: no narrowing.
   */
  within: v.optional(v.pipe(v.array(FilterRuleSchema), v.maxLength(200))),
});
export type BridgeFilter = v.InferOutput<typeof BridgeFilterSchema>;

/** A filter compiled once per bridge; `matches` is then cheap enough to run per changed entity. */
export interface CompiledFilter {
  matches(view: EntityView): boolean;
  /**
   * Why an entity is out, for previews: `disabled`, `hidden`, `excluded`, `not-included`, `outside` (of `within`), or
   * undefined when in.
   */
  reason(view: EntityView): string | undefined;
  /**
   * Rules that cannot be evaluated, one sentence each (`exclude rule 1 (regex "…"): …`). Only a filter stored before
   * today's rules can have any (the API refuses such rules); each matches nothing, and a bridge refuses to start
   * with them (see MatterBridgeRuntime.start).
   */
  readonly problems: readonly string[];
}

export function compileFilter(filter: BridgeFilter, model: HomeAssistantModel): CompiledFilter {
  const problems: string[] = [];
  const compileRule = (
    rule: FilterRule,
    index: number,
    list: "include" | "exclude" | "within",
  ): ((view: EntityView) => boolean) => {
    const value = rule.value;
    const lower = value.toLowerCase();
    switch (rule.type) {
      case "domain":
        return (e) => e.domain === lower;
      case "entity_id":
        return (e) => e.entityId === lower;
      case "pattern": {
        const glob = compileGlob(value);
        return (e) => glob.test(e.entityId);
      }
      case "regex": {
        const { pattern, problem } = compileEntityRegex(value);
        if (pattern) return (e) => pattern.test(e.entityId);
        problems.push(`${list} rule ${index + 1} (regex ${JSON.stringify(value)}): ${problem}`);
        return () => false;
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
      case "exposed_to": {
        // HA's "Expose" setting for that voice assistant, as HA stores it (docs/decisions.md).
        const problem = assistantProblem(value);
        if (problem) {
          problems.push(`${list} rule ${index + 1} (exposed_to ${JSON.stringify(value)}): ${problem}`);
          return () => false;
        }
        return (e) => e.exposedTo.includes(lower);
      }
    }
  };
  const include = filter.include.map((rule, index) => compileRule(rule, index, "include"));
  const exclude = filter.exclude.map((rule, index) => compileRule(rule, index, "exclude"));
  // Alternatives within one rule type, all types required.
  const within = new Map<string, ((view: EntityView) => boolean)[]>();
  (filter.within ?? []).forEach((rule, index) => {
    within.set(rule.type, [...(within.get(rule.type) ?? []), compileRule(rule, index, "within")]);
  });
  const reason = (view: EntityView): string | undefined => {
    if (view.registry?.disabled_by) return "disabled";
    if (view.registry?.hidden_by && !filter.includeHidden) return "hidden";
    if (exclude.some((rule) => rule(view))) return "excluded";
    // An empty include list selects everything (minus exclusions); documented in docs/decisions.md.
    if (include.length > 0 && !include.some((rule) => rule(view))) return "not-included";
    for (const rules of within.values()) if (!rules.some((rule) => rule(view))) return "outside";
    return undefined;
  };
  return { matches: (view) => reason(view) === undefined, reason, problems };
}

/** Entities a filter's rules select that the hub still leaves out; see {@link leftOutCounts}. */
export interface LeftOut {
  /** Hidden in Home Assistant: in with `includeHidden`. */
  hidden: number;
  /** Disabled in Home Assistant: never exposed (HA gives them no state) until enabled there. */
  disabled: number;
}

/**
 * How many of `views` the rules select but the hub leaves out because Home Assistant hides or disables them, so a
 * preview can say why its count is lower than the rules suggest (and the Entities page's total).
 */
export function leftOutCounts(filter: BridgeFilter, model: HomeAssistantModel, views: Iterable<EntityView>): LeftOut {
  const compiled = compileFilter(filter, model);
  const withHidden = filter.includeHidden ? compiled : compileFilter({ ...filter, includeHidden: true }, model);
  const counts: LeftOut = { hidden: 0, disabled: 0 };
  for (const view of views) {
    const reason = compiled.reason(view);
    if (reason === "hidden" && withHidden.matches(view)) counts.hidden++;
    if (reason === "disabled" && view.registry) {
      // Would it be in were it enabled? (One that would then be hidden is not counted: enabling it alone adds nothing.)
      if (compiled.matches({ ...view, registry: { ...view.registry, disabled_by: null } })) counts.disabled++;
    }
  }
  return counts;
}
