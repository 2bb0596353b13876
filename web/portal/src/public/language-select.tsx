import { currentLanguage, LANGUAGES, type Language, storedLanguage } from "../../../common/i18n.ts";
import { automaticLanguage, chooseLanguage, LANGUAGE_KEY, linkLanguage } from "../i18n.ts";

/**
 * The portal's compact language picker (the sign-up page's footer, the admin console's top bar): each language in
 * its own name; choosing one keeps it and reloads the page in it. With `automatic` (the label maker for the
 * "Automatic (…)" entry) the visitor can also go back to following the browser.
 */
export function LanguageSelect({
  label,
  automatic,
  className,
  disabled = false,
}: {
  label: string;
  automatic?: (name: string) => string;
  className: string;
  /** In the admin's branding preview: shown as visitors see it, but choosing would reload the console. */
  disabled?: boolean;
}) {
  const chosen = linkLanguage() ?? storedLanguage(LANGUAGE_KEY);
  const value = automatic ? (chosen ?? "") : currentLanguage();
  const change = (next: string) => {
    const language = next in LANGUAGES ? (next as Language) : null;
    if (language === (automatic ? chosen : currentLanguage())) return;
    chooseLanguage(language);
  };
  return (
    <label class={className}>
      <span>{label}</span>
      <select value={value} disabled={disabled} data-testid="language" onChange={(event) => change(event.currentTarget.value)}>
        {automatic ? <option value="">{automatic(LANGUAGES[automaticLanguage()])}</option> : null}
        {(Object.keys(LANGUAGES) as Language[]).map((language) => (
          <option key={language} value={language} lang={language}>
            {LANGUAGES[language]}
          </option>
        ))}
      </select>
    </label>
  );
}
