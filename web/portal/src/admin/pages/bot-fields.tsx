import { useState } from "preact/hooks";
import { Field } from "../../../../common/components/ui.tsx";
import { A } from "../../strings/admin.ts";
import { type BotSetting, checkBotSettings } from "../api.ts";
import { BotSettingsForm, strayProblems } from "./bot-settings-form.tsx";

// The fields a bot is created and edited with: one definition, so the two forms accept the same input.

/** A bot's config as typed: the parsed value, or the rule it breaks (it must be a JSON object). */
export function parseBotConfig(text: string): { value: unknown; error: string | null } {
  try {
    const value: unknown = JSON.parse(text);
    const isObject = typeof value === "object" && value !== null && !Array.isArray(value);
    return { value, error: isObject ? null : A.bots.configRule };
  } catch {
    return { value: undefined, error: A.bots.configRule };
  }
}

export function BotDisplayNameField({
  value,
  onInput,
  error,
  autofocus,
}: {
  value: string;
  onInput: (value: string) => void;
  error?: string | null;
  autofocus?: boolean;
}) {
  return (
    <Field label={A.bots.displayName} error={error}>
      {(props) => (
        <input
          {...props}
          type="text"
          maxLength={200}
          value={value}
          autofocus={autofocus}
          onInput={(e) => onInput(e.currentTarget.value)}
        />
      )}
    </Field>
  );
}

export function BotAvatarField({ value, onInput }: { value: string; onInput: (value: string) => void }) {
  return (
    <Field label={A.bots.avatarUrl} hint={A.bots.avatarHint}>
      {(props) => (
        <input {...props} type="text" spellcheck={false} value={value} onInput={(e) => onInput(e.currentTarget.value)} />
      )}
    </Field>
  );
}

/**
 * The settings of a bot: the form generated from its template's settings, or the JSON itself (for experts, and the
 * only view of a free-form template). Both edit one config object, checked as typed with the portal's own check;
 * `valid` says whether the portal would accept it.
 */
export function useBotSettings(settings: BotSetting[] | null, initial: Record<string, unknown>) {
  const [config, setConfig] = useState<Record<string, unknown>>(initial);
  const [mode, setMode] = useState<"form" | "json">(settings ? "form" : "json");
  const [json, setJson] = useState(() => JSON.stringify(initial, null, 2));
  const [jsonError, setJsonError] = useState<string | null>(null);
  const problems = settings ? checkBotSettings(settings, config).problems : {};
  const valid = jsonError === null && Object.keys(problems).length === 0;

  const onJson = (text: string) => {
    setJson(text);
    const { value, error } = parseBotConfig(text || "{}");
    setJsonError(error);
    if (!error) setConfig(value as Record<string, unknown>);
  };
  const switchTo = (next: "form" | "json") => {
    if (next === "json") setJson(JSON.stringify(config, null, 2));
    setMode(next);
  };

  const editor = (
    <div class="bot-settings-editor">
      {settings ? (
        <fieldset class="segmented">
          <legend class="visually-hidden">{A.bots.settingsMode}</legend>
          {(["form", "json"] as const).map((option) => (
            <button
              key={option}
              type="button"
              class="btn btn-small"
              aria-pressed={mode === option}
              disabled={option === "form" && jsonError !== null}
              onClick={() => switchTo(option)}
            >
              {option === "form" ? A.bots.modeForm : A.bots.modeJson}
            </button>
          ))}
        </fieldset>
      ) : null}
      {settings && mode === "form" ? (
        <BotSettingsForm settings={settings} config={config} problems={problems} onChange={setConfig} />
      ) : (
        <>
          <Field label={A.bots.config} hint={settings ? A.bots.configJsonHint : A.bots.configFreeForm} error={jsonError}>
            {(props) => (
              <textarea
                {...props}
                class="code-area"
                rows={10}
                spellcheck={false}
                value={json}
                onInput={(e) => onJson(e.currentTarget.value)}
              />
            )}
          </Field>
          {Object.keys(problems).length > 0 ? (
            <div class="notice" role="status" data-testid="bot-settings-problems">
              <strong>{A.bots.jsonProblems}</strong>
              <ul>
                {Object.entries(problems).map(([path, problem]) => (
                  <li key={path}>
                    <code>{path}</code>: {A.bots.problem(problem)}
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
        </>
      )}
      {settings && mode === "form"
        ? strayProblems(settings, problems).map(([path, problem]) => (
            <p key={path} class="field-error">
              <code>{path}</code>: {A.bots.problem(problem)}
            </p>
          ))
        : null}
    </div>
  );
  return { config, valid, editor };
}
