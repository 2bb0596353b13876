import { useEffect, useId, useState } from "preact/hooks";
import { ErrorMessage } from "../../../common/components/ui.tsx";
import { useDebounced } from "../../../common/use-async.ts";
import { filterPreview } from "../api/bridges.ts";
import type {
  BridgeFilter,
  FilterPreview,
  FilterRule,
  FilterRuleType,
  FilterValue,
  FilterValues,
  PreviewSettings,
} from "../api/types.ts";
import { assistantName, isAssistantId } from "../lib/assistants.ts";
import { S } from "../strings.ts";
import { ControllerWarnings } from "./controller-limits.tsx";

const RULE_TYPES = Object.keys(S.ruleTypes) as FilterRuleType[];

/** The offered values per rule type; `null` = free text (pattern, regex, entity id). */
function valuesFor(type: FilterRuleType, values: FilterValues | undefined): FilterValue[] | null {
  if (!values) return null;
  switch (type) {
    case "domain":
      return values.domains;
    case "label":
      return values.labels;
    case "area":
      return values.areas;
    case "platform":
      return values.platforms;
    case "entity_category":
      return values.entityCategories;
    case "device_class":
      return values.deviceClasses;
    case "device":
      return values.devices;
    case "exposed_to":
      // Absent from an older hub's answer: the rule is then free text.
      return values.assistants ?? null;
    default:
      return null;
  }
}

/** Why a rule cannot be saved, or null. An empty value is only an error once the user submits. */
export function ruleError(rule: FilterRule, submitted: boolean): string | null {
  if (rule.value.trim() === "") return submitted ? S.form.emptyValue : null;
  if (rule.type === "regex") {
    try {
      new RegExp(rule.value);
    } catch {
      return S.form.invalidRegex;
    }
  }
  if (rule.type === "exposed_to" && !isAssistantId(rule.value)) return S.form.invalidAssistant;
  return null;
}

const optionLabel = (v: FilterValue) =>
  `${v.name && v.name !== v.value ? `${v.name} (${v.value})` : v.value}${v.count !== undefined ? ` · ${v.count}` : ""}`;

function RuleEditor({
  rule,
  index,
  values,
  submitted,
  onChange,
  onRemove,
}: {
  rule: FilterRule;
  index: number;
  values: FilterValues | undefined;
  submitted: boolean;
  onChange: (rule: FilterRule) => void;
  onRemove: () => void;
}) {
  const id = useId();
  const offered = valuesFor(rule.type, values);
  const error = ruleError(rule, submitted);
  // Long lists (devices of a big home) stay a searchable text field; short ones are a plain choice.
  const asSelect = offered !== null && offered.length <= 400;
  const known = offered?.some((v) => v.value === rule.value) ?? false;
  const [other, setOther] = useState(false);
  const errorProps = {
    "aria-invalid": error ? true : undefined,
    "aria-describedby": error ? `${id}-error` : undefined,
  };
  return (
    <li class="rule" data-testid="filter-rule">
      <select
        aria-label={S.form.ruleType(index + 1)}
        value={rule.type}
        onChange={(e) => {
          setOther(false);
          onChange({ type: e.currentTarget.value as FilterRuleType, value: "" });
        }}
      >
        {RULE_TYPES.map((type) => (
          <option key={type} value={type}>
            {S.ruleTypes[type][0]}
          </option>
        ))}
      </select>
      {rule.type === "exposed_to" && asSelect ? (
        <AssistantChoice
          rule={rule}
          index={index}
          offered={offered}
          other={other || (rule.value !== "" && !known)}
          errorProps={errorProps}
          onOther={setOther}
          onChange={onChange}
        />
      ) : asSelect ? (
        <select
          aria-label={S.form.ruleValue(index + 1)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          value={rule.value}
          onChange={(e) => onChange({ ...rule, value: e.currentTarget.value })}
        >
          <option value="">{S.ruleTypes[rule.type][1]}</option>
          {!known && rule.value ? <option value={rule.value}>{rule.value}</option> : null}
          {offered.map((v) => (
            <option key={v.value} value={v.value}>
              {optionLabel(v)}
            </option>
          ))}
        </select>
      ) : (
        <>
          <input
            type="text"
            aria-label={S.form.ruleValue(index + 1)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
            placeholder={S.ruleTypes[rule.type][1]}
            value={rule.value}
            list={offered ? `${id}-values` : undefined}
            spellcheck={false}
            autocapitalize="off"
            onInput={(e) => onChange({ ...rule, value: e.currentTarget.value })}
          />
          {offered ? (
            <datalist id={`${id}-values`}>
              {offered.map((v) => (
                <option key={v.value} value={v.value}>
                  {optionLabel(v)}
                </option>
              ))}
            </datalist>
          ) : null}
        </>
      )}
      <button type="button" class="btn btn-icon" aria-label={S.form.removeRule(index + 1)} onClick={onRemove}>
        ✕
      </button>
      {error ? (
        <p class="field-error rule-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </li>
  );
}

/**
 * An `exposed_to` value: one of the assistants HA names (with how many entities are exposed to each), or, under
 * "Other assistant id…", any id of HA's shape (an assistant HA adds later, or a custom integration's).
 */
function AssistantChoice({
  rule,
  index,
  offered,
  other,
  errorProps,
  onOther,
  onChange,
}: {
  rule: FilterRule;
  index: number;
  offered: FilterValue[];
  other: boolean;
  errorProps: Record<string, string | boolean | undefined>;
  onOther: (other: boolean) => void;
  onChange: (rule: FilterRule) => void;
}) {
  return (
    <div class="rule-value">
      <select
        aria-label={S.form.ruleValue(index + 1)}
        {...(other ? {} : errorProps)}
        value={other ? OTHER : rule.value}
        onChange={(e) => {
          const value = e.currentTarget.value;
          onOther(value === OTHER);
          onChange({ ...rule, value: value === OTHER ? "" : value });
        }}
      >
        <option value="">{S.ruleTypes.exposed_to[1]}</option>
        {offered.map((v) => (
          <option key={v.value} value={v.value}>
            {optionLabel({ ...v, name: v.name ?? assistantName(v.value) })}
          </option>
        ))}
        <option value={OTHER}>{S.form.otherAssistant}</option>
      </select>
      {other ? (
        <input
          type="text"
          aria-label={S.form.ruleAssistantId(index + 1)}
          {...errorProps}
          placeholder={S.form.assistantIdPlaceholder}
          value={rule.value}
          spellcheck={false}
          autocapitalize="off"
          onInput={(e) => onChange({ ...rule, value: e.currentTarget.value })}
        />
      ) : null}
    </div>
  );
}

/** The choice that opens the free assistant id field (no assistant id contains a space). */
const OTHER = "other assistant";

function RuleList({
  title,
  hint,
  rules,
  emptyText,
  values,
  submitted,
  onChange,
  testId,
}: {
  title: string;
  hint?: string;
  rules: FilterRule[];
  emptyText: string;
  values: FilterValues | undefined;
  submitted: boolean;
  onChange: (rules: FilterRule[]) => void;
  testId: string;
}) {
  return (
    <fieldset class="rules" data-testid={testId}>
      <legend>{title}</legend>
      {hint ? <p class="hint">{hint}</p> : null}
      {rules.length === 0 ? <p class="muted">{emptyText}</p> : null}
      <ul>
        {rules.map((rule, i) => (
          <RuleEditor
            key={i}
            rule={rule}
            index={i}
            values={values}
            submitted={submitted}
            onChange={(next) => onChange(rules.map((r, j) => (j === i ? next : r)))}
            onRemove={() => onChange(rules.filter((_, j) => j !== i))}
          />
        ))}
      </ul>
      <button type="button" class="btn btn-small" onClick={() => onChange([...rules, { type: "domain", value: "" }])}>
        + {S.form.addRule}
      </button>
    </fieldset>
  );
}

export function FilterBuilder({
  filter,
  values,
  submitted,
  onChange,
}: {
  filter: BridgeFilter;
  values: FilterValues | undefined;
  submitted: boolean;
  onChange: (filter: BridgeFilter) => void;
}) {
  return (
    <div class="filter-builder">
      <p class="hint" data-testid="rules-combine">
        {S.form.rulesCombine(filter.include.length > 0, (filter.within?.length ?? 0) > 0)}
      </p>
      <RuleList
        title={S.form.include}
        hint={S.form.includeHint}
        rules={filter.include}
        emptyText={S.form.includeEmpty}
        values={values}
        submitted={submitted}
        onChange={(include) => onChange({ ...filter, include })}
        testId="include-rules"
      />
      <RuleList
        title={S.form.exclude}
        hint={S.form.excludeHint}
        rules={filter.exclude}
        emptyText={S.form.excludeEmpty}
        values={values}
        submitted={submitted}
        onChange={(exclude) => onChange({ ...filter, exclude })}
        testId="exclude-rules"
      />
      {filter.within?.length ? (
        // Only a split sets it: shown (and editable) when present, so an edit never drops it.
        <RuleList
          title={S.limits.within}
          hint={S.limits.withinHint}
          rules={filter.within}
          emptyText=""
          values={values}
          submitted={submitted}
          onChange={(within) => onChange({ ...filter, within })}
          testId="within-rules"
        />
      ) : null}
      <label class="check">
        <input
          type="checkbox"
          checked={filter.includeHidden}
          onChange={(e) => onChange({ ...filter, includeHidden: e.currentTarget.checked })}
        />
        {S.form.includeHidden}
      </label>
    </div>
  );
}

const PREVIEW_LIMIT = 100;

/**
 * Entities matching the filter, re-read from the hub shortly after each change, with the Matter devices they make and
 * what the chosen controllers say about them. Incomplete rules are left out.
 */
export function FilterPreviewPanel({ filter, settings }: { filter: BridgeFilter; settings?: PreviewSettings }) {
  const usable = (rules: FilterRule[]) => rules.filter((r) => r.value.trim() !== "");
  const invalid = [...filter.include, ...filter.exclude, ...(filter.within ?? [])].some((r) => ruleError(r, false) !== null);
  const effective: BridgeFilter = {
    ...filter,
    include: usable(filter.include),
    exclude: usable(filter.exclude),
    ...(filter.within ? { within: usable(filter.within) } : {}),
  };
  const key = useDebounced(JSON.stringify({ filter: effective, settings }), 350);
  const byAssistant = [...filter.include, ...filter.exclude, ...(filter.within ?? [])].some((r) => r.type === "exposed_to");
  const [preview, setPreview] = useState<FilterPreview | null>(null);
  const [error, setError] = useState<Error | null>(null);
  const [loading, setLoading] = useState(false);
  const [tick, setTick] = useState(0);

  useEffect(() => {
    if (invalid) return;
    const controller = new AbortController();
    setLoading(true);
    const asked = JSON.parse(key) as { filter: BridgeFilter; settings?: PreviewSettings };
    filterPreview(asked.filter, PREVIEW_LIMIT, asked.settings, controller.signal).then(
      (result) => {
        setPreview(result);
        setError(null);
        setLoading(false);
      },
      (failure: Error) => {
        if (controller.signal.aborted) return;
        setError(failure);
        setLoading(false);
      },
    );
    return () => controller.abort();
  }, [key, invalid, tick]);

  return (
    <section class="preview" aria-labelledby="preview-title" aria-busy={loading} data-testid="filter-preview">
      <h2 id="preview-title">
        {S.form.preview}
        {preview && !invalid ? (
          <span class="count" data-testid="preview-count" aria-live="polite">
            {S.form.previewCount(preview.total)}
          </span>
        ) : null}
      </h2>
      {invalid ? <p class="muted">{S.form.previewInvalid}</p> : null}
      {preview?.devices && !invalid ? (
        <p class="small" data-testid="preview-devices">
          {S.limits.devicesLine(preview.devices.exposed, preview.devices.composed, preview.devices.skipped)}
        </p>
      ) : null}
      {preview?.leftOut && !invalid && (preview.leftOut.hidden > 0 || preview.leftOut.disabled > 0) ? (
        <ul class="left-out small" data-testid="preview-left-out">
          {preview.leftOut.hidden > 0 ? (
            <li data-testid="left-out-hidden">{S.form.hiddenLeftOut(preview.leftOut.hidden)}</li>
          ) : null}
          {preview.leftOut.disabled > 0 ? (
            <li data-testid="left-out-disabled">{S.form.disabledLeftOut(preview.leftOut.disabled)}</li>
          ) : null}
        </ul>
      ) : null}
      {preview?.warnings && !invalid ? <ControllerWarnings warnings={preview.warnings} testId="preview-warnings" /> : null}
      {error && !invalid ? <ErrorMessage error={error} onRetry={() => setTick((n) => n + 1)} /> : null}
      {loading && !preview ? <p class="muted">{S.form.previewLoading}</p> : null}
      {preview && !invalid ? (
        preview.total === 0 ? (
          <p class="muted">{S.form.previewEmpty}</p>
        ) : (
          <ul class={`preview-list ${loading ? "stale" : ""}`}>
            {preview.entities.map((e) => (
              <li key={e.entity_id} data-entity-id={e.entity_id}>
                <span class="preview-name">{e.name}</span>
                <code>{e.entity_id}</code>
                <span class="muted">{e.state ?? ""}</span>
                {byAssistant ? (
                  <span class="preview-assistants small" data-testid="preview-assistants">
                    {e.exposed_to.length > 0
                      ? S.form.exposedTo(e.exposed_to.map(assistantName).join(", "))
                      : S.form.exposedToNone}
                  </span>
                ) : null}
              </li>
            ))}
            {preview.total > preview.entities.length ? (
              <li class="muted">{S.form.previewMore(preview.total - preview.entities.length)}</li>
            ) : null}
          </ul>
        )
      ) : null}
    </section>
  );
}
