import { Field } from "../../../../common/components/ui.tsx";
import { A } from "../../strings/admin.ts";
import type { BotSetting, EntryField, SettingProblem, SettingProblems } from "../api.ts";

// The bot settings form, generated from the template's settings schema (portal/src/bots/bot-settings.ts). It edits
// the config object itself; the parent checks it with the portal's own checkBotSettings and passes the problems, so
// each field shows exactly what the portal would refuse, while the admin types.

type Config = Record<string, unknown>;

/** The problems at `path` and below it, worded for the form: "Line 2: …" for list items, "Entry 1, Answer: …" deeper. */
function problemsAt(problems: SettingProblems, path: string): string | null {
  const own = problems[path];
  const items = Object.entries(problems)
    .filter(([key]) => key.startsWith(`${path}.`) && /^\d+$/.test(key.slice(path.length + 1)))
    .map(([key, problem]) => A.bots.settingsForm.line(Number(key.slice(path.length + 1)) + 1, A.bots.problem(problem)));
  const all = [...(own ? [A.bots.problem(own)] : []), ...items];
  return all.length > 0 ? all.join(" · ") : null;
}

const lines = (text: string) =>
  text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "");

function hintOf(setting: { description?: string; maxLength?: number; unit?: string; min?: number; max?: number }) {
  const parts = [setting.description];
  if (setting.min !== undefined && setting.max !== undefined)
    parts.push(A.bots.settingsForm.range(setting.min, setting.max, setting.unit));
  return parts.filter(Boolean).join(" ") || undefined;
}

/** One text, number, choice, switch or list control; `value` and `onChange` are the config value itself. */
function Control({
  field,
  value,
  error,
  onChange,
}: {
  field: BotSetting | EntryField;
  value: unknown;
  error: string | null;
  onChange: (value: unknown) => void;
}) {
  if (field.type === "boolean") {
    return (
      <div class="field" data-setting={field.key}>
        <label class="check">
          <input type="checkbox" checked={value === true} onChange={(e) => onChange(e.currentTarget.checked)} />
          {field.label}
        </label>
        {field.description ? <p class="hint">{field.description}</p> : null}
        {error ? <p class="field-error">{error}</p> : null}
      </div>
    );
  }
  return (
    <div data-setting={field.key}>
      <Field label={field.label} hint={hintOf(field as Parameters<typeof hintOf>[0])} error={error}>
        {(props) => {
          switch (field.type) {
            case "integer":
              return (
                <input
                  {...props}
                  type="number"
                  inputMode="numeric"
                  step={1}
                  min={field.min}
                  max={field.max}
                  value={typeof value === "number" || typeof value === "string" ? String(value) : ""}
                  // A number when it is one, else the text as typed, which the check reports as "a whole number".
                  onInput={(e) => {
                    const text = e.currentTarget.value.trim();
                    onChange(/^-?\d+$/.test(text) ? Number(text) : text);
                  }}
                />
              );
            case "choice":
              return (
                <select {...props} value={String(value)} onChange={(e) => onChange(e.currentTarget.value)}>
                  {field.options.map((option) => (
                    <option key={option.value} value={option.value}>
                      {option.label}
                    </option>
                  ))}
                </select>
              );
            case "textList":
              return (
                <textarea
                  {...props}
                  rows={Math.min(8, Math.max(3, (Array.isArray(value) ? value.length : 0) + 1))}
                  spellcheck={false}
                  placeholder={A.bots.settingsForm.onePerLine}
                  value={Array.isArray(value) ? value.join("\n") : ""}
                  onInput={(e) => onChange(lines(e.currentTarget.value))}
                />
              );
            case "text": {
              const text = typeof value === "string" ? value : "";
              const set = (next: string) => onChange(next === "" && "nullable" in field && field.nullable ? null : next);
              return field.multiline ? (
                <textarea
                  {...props}
                  rows={3}
                  maxLength={field.maxLength}
                  value={text}
                  onInput={(e) => set(e.currentTarget.value)}
                />
              ) : (
                <input
                  {...props}
                  type="text"
                  spellcheck={false}
                  maxLength={field.maxLength}
                  value={text}
                  onInput={(e) => set(e.currentTarget.value)}
                />
              );
            }
            default:
              return null;
          }
        }}
      </Field>
    </div>
  );
}

/** A list of entries (FAQ answers, relay routes): a group of fields per entry, add and remove. */
function Entries({
  setting,
  value,
  problems,
  onChange,
}: {
  setting: Extract<BotSetting, { type: "entryList" }>;
  value: unknown;
  problems: SettingProblems;
  onChange: (value: unknown) => void;
}) {
  const entries = Array.isArray(value) ? (value as Config[]) : [];
  const update = (index: number, key: string, next: unknown) =>
    onChange(entries.map((entry, i) => (i === index ? { ...entry, [key]: next } : entry)));
  const blank = () =>
    Object.fromEntries(
      setting.fields.map((field) => [field.key, field.type === "boolean" ? false : field.type === "textList" ? [] : ""]),
    );
  const own = problems[setting.key];
  return (
    <fieldset class="entry-list" data-setting={setting.key}>
      <legend>{setting.label}</legend>
      <p class="hint">{setting.description}</p>
      {own ? <p class="field-error">{A.bots.problem(own)}</p> : null}
      {entries.length === 0 ? <p class="muted small">{A.bots.settingsForm.noEntries}</p> : null}
      <ol class="entries">
        {entries.map((entry, index) => (
          <li key={index} class="entry" data-entry={index}>
            <div class="entry-head">
              <strong>{A.bots.settingsForm.entry(setting.itemLabel, index + 1)}</strong>
              <button
                type="button"
                class="btn btn-small"
                aria-label={A.bots.settingsForm.remove(setting.itemLabel, index + 1)}
                onClick={() => onChange(entries.filter((_, i) => i !== index))}
              >
                {A.common.remove}
              </button>
            </div>
            <div class="form-grid">
              {setting.fields.map((field) => (
                <Control
                  key={field.key}
                  field={field}
                  value={entry[field.key]}
                  error={problemsAt(problems, `${setting.key}.${index}.${field.key}`)}
                  onChange={(next) => update(index, field.key, next)}
                />
              ))}
            </div>
          </li>
        ))}
      </ol>
      <button
        type="button"
        class="btn btn-small"
        disabled={entries.length >= setting.maxItems}
        onClick={() => onChange([...entries, blank()])}
      >
        {A.bots.settingsForm.add(setting.itemLabel)}
      </button>
    </fieldset>
  );
}

/** Every setting of a template as a form control, with its problems shown beside it. */
export function BotSettingsForm({
  settings,
  config,
  problems,
  onChange,
}: {
  settings: BotSetting[];
  config: Config;
  problems: SettingProblems;
  onChange: (config: Config) => void;
}) {
  const set = (key: string) => (value: unknown) => onChange({ ...config, [key]: value });
  return (
    <div class="bot-settings" data-testid="bot-settings-form">
      {settings.map((setting) =>
        setting.type === "entryList" ? (
          <Entries
            key={setting.key}
            setting={setting}
            value={config[setting.key]}
            problems={problems}
            onChange={set(setting.key)}
          />
        ) : (
          <Control
            key={setting.key}
            field={setting}
            value={config[setting.key]}
            error={problemsAt(problems, setting.key)}
            onChange={set(setting.key)}
          />
        ),
      )}
    </div>
  );
}

/** Problems at keys the form has no field for (unknown settings typed in the JSON view). */
export function strayProblems(settings: BotSetting[], problems: SettingProblems): [string, SettingProblem][] {
  return Object.entries(problems).filter(([path]) => !settings.some((setting) => path.split(".")[0] === setting.key));
}
