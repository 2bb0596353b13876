import { currentLanguage, LANGUAGES, type Language, storedLanguage, storeLanguage } from "../i18n.ts";
import { UI } from "../strings.ts";
import { Field } from "./ui.tsx";

/**
 * The manual language choice: "Automatic" (detected, named) or one language, kept in localStorage under
 * `storageKey`. Choosing reloads the page, since the string tables are filled once, before the app renders.
 */
export function LanguagePicker({ storageKey, automatic, hint }: { storageKey: string; automatic: Language; hint?: string }) {
  const chosen = storedLanguage(storageKey);
  const change = (value: string) => {
    const language = value in LANGUAGES ? (value as Language) : null;
    if (language === chosen) return;
    storeLanguage(storageKey, language);
    location.reload();
  };
  return (
    <Field label={UI.language} hint={hint ?? UI.languageHint}>
      {(props) => (
        <select
          {...props}
          data-testid="language"
          lang={currentLanguage()}
          value={chosen ?? ""}
          onChange={(e) => change(e.currentTarget.value)}
        >
          <option value="">{UI.languageAutomatic(LANGUAGES[automatic])}</option>
          {(Object.keys(LANGUAGES) as Language[]).map((language) => (
            <option key={language} value={language} lang={language}>
              {LANGUAGES[language]}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
