import { useState } from "preact/hooks";
import { notify } from "../../../../common/components/notify.tsx";
import { ErrorMessage, Field } from "../../../../common/components/ui.tsx";
import { A } from "../../strings/admin.ts";
import { type ConfigField, type IntegrationDetail, updateIntegrationConfig } from "../api.ts";

/** A field's value as the form edits it: text for everything except booleans. */
type FormValue = string | boolean;

function toForm(field: ConfigField, value: unknown): FormValue {
  if (field.type === "boolean") return value === true;
  if (field.type === "stringList") return Array.isArray(value) ? value.join("\n") : "";
  return value === null || value === undefined ? "" : String(value);
}

/** The form value as the API wants it; `null` puts the field back to its default (or computed) value. */
function fromForm(field: ConfigField, value: FormValue): unknown {
  if (field.type === "boolean") return value === true;
  const text = String(value).trim();
  if (field.type === "stringList")
    return text === ""
      ? []
      : text
          .split(/\n+/)
          .map((line) => line.trim())
          .filter(Boolean);
  if (text === "") return null;
  if (field.type === "port") return Number(text);
  return text;
}

function problem(field: ConfigField, value: FormValue): string | null {
  if (field.type === "port") {
    const text = String(value).trim();
    if (text !== "" && (!/^\d+$/.test(text) || Number(text) < 1024 || Number(text) > 65535)) return A.integrations.portRule;
  }
  if (field.type === "url" && String(value).trim() !== "" && !/^https?:\/\/\S+$/i.test(String(value).trim()))
    return A.servers.urlRule;
  if (field.type === "string" && field.pattern && String(value) !== "" && !new RegExp(field.pattern).test(String(value))) {
    return A.integrations.patternRule;
  }
  return null;
}

/** The configuration form, built from the catalog entry's fields; saving makes a new version and regenerates files. */
export function IntegrationConfig({
  integration,
  fields,
  onSaved,
}: {
  integration: IntegrationDetail;
  fields: ConfigField[];
  onSaved: (next: IntegrationDetail) => void;
}) {
  const initial = Object.fromEntries(fields.map((field) => [field.key, toForm(field, integration.config[field.key])]));
  const [values, setValues] = useState<Record<string, FormValue>>(initial);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  if (fields.length === 0) return <p class="muted">{A.integrations.noConfig}</p>;
  const problems = Object.fromEntries(fields.map((field) => [field.key, problem(field, values[field.key] ?? "")]));
  const set = (key: string, value: FormValue) => setValues((v) => ({ ...v, [key]: value }));

  const submit = async (event: Event) => {
    event.preventDefault();
    if (Object.values(problems).some(Boolean)) return;
    const change: Record<string, unknown> = {};
    for (const field of fields) {
      const value = values[field.key] ?? "";
      if (value !== initial[field.key]) change[field.key] = fromForm(field, value);
    }
    if (Object.keys(change).length === 0) return;
    setBusy(true);
    setError(null);
    try {
      const next = await updateIntegrationConfig(integration.id, change);
      notify.ok(A.integrations.configSaved(next.configVersion));
      onSaved(next);
    } catch (failure) {
      setError(failure as Error);
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate data-testid="integration-config">
      {error ? <ErrorMessage error={error} title={A.integrations.configFailed} focus /> : null}
      <div class="form-grid">
        {fields.map((field) => {
          const value = values[field.key] ?? "";
          if (field.type === "boolean") {
            return (
              <div class="field" key={field.key}>
                <label class="check">
                  <input type="checkbox" checked={value === true} onChange={(e) => set(field.key, e.currentTarget.checked)} />
                  {field.label}
                </label>
                <p class="hint">{field.description}</p>
              </div>
            );
          }
          return (
            <Field key={field.key} label={field.label} hint={field.description} error={problems[field.key]}>
              {(props) =>
                field.type === "enum" ? (
                  <select {...props} value={String(value)} onChange={(e) => set(field.key, e.currentTarget.value)}>
                    {field.values.map((option) => (
                      <option key={option} value={option}>
                        {option}
                      </option>
                    ))}
                  </select>
                ) : field.type === "stringList" ? (
                  <textarea
                    {...props}
                    rows={3}
                    spellcheck={false}
                    value={String(value)}
                    placeholder={A.integrations.onePerLine}
                    onInput={(e) => set(field.key, e.currentTarget.value)}
                  />
                ) : field.type === "port" ? (
                  <input
                    {...props}
                    type="number"
                    min={1024}
                    max={65535}
                    value={String(value)}
                    placeholder={String(field.default)}
                    onInput={(e) => set(field.key, e.currentTarget.value)}
                  />
                ) : (
                  <input
                    {...props}
                    type="text"
                    spellcheck={false}
                    value={String(value)}
                    placeholder={field.default === null ? A.integrations.automatic : String(field.default)}
                    onInput={(e) => set(field.key, e.currentTarget.value)}
                  />
                )
              }
            </Field>
          );
        })}
      </div>
      <div class="form-actions">
        <button type="submit" class="btn btn-primary" disabled={busy}>
          {A.integrations.saveConfig}
        </button>
        <span class="hint">{A.integrations.configHint}</span>
      </div>
    </form>
  );
}
