import { Field } from "../../../../common/components/ui.tsx";
import { A } from "../../strings/admin.ts";

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

export function BotConfigField({
  value,
  error,
  onInput,
}: {
  value: string;
  error: string | null;
  onInput: (value: string) => void;
}) {
  return (
    <Field label={A.bots.config} hint={A.bots.configHint} error={error}>
      {(props) => (
        <textarea
          {...props}
          class="code-area"
          rows={8}
          spellcheck={false}
          value={value}
          onInput={(e) => onInput(e.currentTarget.value)}
        />
      )}
    </Field>
  );
}
