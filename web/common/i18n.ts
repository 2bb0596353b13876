/**
 * Languages for both web UIs (docs/i18n.md). English string tables stay the source of truth; a language is a table
 * of the same shape (`Messages<typeof S>`), loaded before the app's modules run and merged over the English one, so
 * every `S.x.y` a page reads is in the chosen language and a key a translation lacks stays English at runtime.
 */

/** The languages both UIs ship, by BCP 47 tag, with their own names (shown in the language picker). */
export const LANGUAGES = {
  en: "English",
  de: "Deutsch",
  fr: "Français",
  nl: "Nederlands",
  es: "Español",
  it: "Italiano",
  pl: "Polski",
  "pt-BR": "Português (Brasil)",
} as const;

export type Language = keyof typeof LANGUAGES;

/** A string table's shape with its literal English texts widened: what each translation must provide. */
export type Messages<T> = T extends string
  ? string
  : T extends (...args: infer A) => string
    ? (...args: A) => string
    : T extends readonly unknown[]
      ? { readonly [K in keyof T]: Messages<T[K]> }
      : { readonly [K in keyof T]: Messages<T[K]> };

/** The supported language that best matches one browser-style tag: "de-AT" → de, "pt" → pt-BR, "xx" → null. */
export function matchLanguage(tag: string | null | undefined): Language | null {
  if (!tag) return null;
  const wanted = tag.trim().replace(/_/g, "-").toLowerCase();
  if (!wanted) return null;
  const tags = Object.keys(LANGUAGES) as Language[];
  const exact = tags.find((language) => language.toLowerCase() === wanted);
  if (exact) return exact;
  const base = wanted.split("-")[0];
  return tags.find((language) => language.toLowerCase().split("-")[0] === base) ?? null;
}

/** The first of `tags` (most wanted first, e.g. navigator.languages) that a supported language matches. */
export function pickLanguage(tags: readonly (string | null | undefined)[]): Language | null {
  for (const tag of tags) {
    const language = matchLanguage(tag);
    if (language) return language;
  }
  return null;
}

/** localStorage, or null where it is unavailable (private mode, sandboxed frame). */
function storage(): Storage | null {
  try {
    return typeof localStorage === "undefined" ? null : localStorage;
  } catch {
    return null;
  }
}

/** The language the user chose in this UI's picker (stored under `key`), or null to follow the browser. */
export function storedLanguage(key: string): Language | null {
  try {
    return matchLanguage(storage()?.getItem(key));
  } catch {
    return null;
  }
}

/** Stores the user's choice (null: follow the browser again). */
export function storeLanguage(key: string, language: Language | null): void {
  try {
    if (language) storage()?.setItem(key, language);
    else storage()?.removeItem(key);
  } catch {
    // Not persisted: the choice lasts until the page reloads.
  }
}

/**
 * Home Assistant's frontend language, when this page shares HA's origin (the hub under ingress): HA keeps the
 * language its user picked in localStorage as JSON ("\"de\""). Null when absent or not readable.
 */
export function homeAssistantLanguage(): string | null {
  try {
    const raw = storage()?.getItem("selectedLanguage");
    if (!raw) return null;
    const value: unknown = JSON.parse(raw);
    return typeof value === "string" ? value : null;
  } catch {
    return null;
  }
}

/** Copies every key of `source` whose kind matches the English value onto `target` (in place). */
export function mergeMessages(target: object, source: object): void {
  const into = target as Record<string, unknown>;
  const from = source as Record<string, unknown>;
  for (const key of Object.keys(into)) {
    const english = into[key];
    const translated = from[key];
    if (translated === undefined || translated === null) continue;
    if (Array.isArray(english) && Array.isArray(translated) && english.length === translated.length) {
      into[key] = translated;
    } else if (typeof english === "object" && english !== null && typeof translated === "object") {
      mergeMessages(english, translated);
    } else if (typeof english === typeof translated) {
      into[key] = translated;
    }
  }
}

/** What a translation lacks or gets wrong against English: missing keys, wrong kinds, functions with other arity. */
export function compareMessages(english: unknown, translated: unknown, path = ""): string[] {
  if (typeof english === "function") {
    if (typeof translated !== "function") return [`${path}: not a function`];
    return english.length === translated.length
      ? []
      : [`${path}: takes ${translated.length} parameter(s), English takes ${english.length}`];
  }
  if (typeof english === "string") return typeof translated === "string" ? [] : [`${path}: missing or not a string`];
  if (typeof english !== "object" || english === null) return [];
  if (typeof translated !== "object" || translated === null) return [`${path}: missing`];
  const problems: string[] = [];
  const a = english as Record<string, unknown>;
  const b = translated as Record<string, unknown>;
  for (const key of Object.keys(a)) problems.push(...compareMessages(a[key], b[key], path ? `${path}.${key}` : key));
  for (const key of Object.keys(b)) if (!(key in a)) problems.push(`${path ? `${path}.` : ""}${key}: not in English`);
  return problems;
}

/** Plural forms of one language: `one`, `few`, `many` as Intl.PluralRules names them, `other` always. */
export type PluralForms = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };

/** A plural chooser for `language`: `plural(5, { one: "1 Gerät", other: "5 Geräte" })`. */
export function plurals(language: string): (n: number, forms: PluralForms) => string {
  const rules = new Intl.PluralRules(language);
  return (n, forms) => forms[rules.select(n)] ?? forms.other;
}

/** A number in `language`'s format (1.234,5 in German). */
export function numberFormat(language: string): (n: number) => string {
  const format = new Intl.NumberFormat(language);
  return (n) => format.format(n);
}

let current: Language = "en";

/** The language the UI runs in (set once at start, before the app renders); for Intl formatting. */
export function currentLanguage(): Language {
  return current;
}

/** Records the running language and tells the browser (`<html lang>`: screen readers, hyphenation). */
export function setCurrentLanguage(language: Language): void {
  current = language;
  if (typeof document !== "undefined") document.documentElement.lang = language;
}
