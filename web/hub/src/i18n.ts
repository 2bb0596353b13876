/**
 * The hub UI's language (docs/i18n.md): the user's choice in Settings, else Home Assistant's frontend language
 * (readable under ingress, same origin), else the browser's languages, else English. Loaded before the app's modules
 * run, because some of them keep strings from `S` at import time.
 */
import {
  homeAssistantLanguage,
  type Language,
  mergeMessages,
  pickLanguage,
  setCurrentLanguage,
  storedLanguage,
} from "../../common/i18n.ts";
import { UI } from "../../common/strings.ts";
import { type HubMessages, S } from "./strings.ts";

/** Where the user's choice is kept (localStorage). */
export const LANGUAGE_KEY = "matter-hub.language";

/** One chunk per language, fetched only when chosen (the English table is built in). */
export const HUB_LOCALES: Record<Exclude<Language, "en">, () => Promise<{ default: HubMessages }>> = {
  de: () => import("./locales/de.ts"),
  fr: () => import("./locales/fr.ts"),
  nl: () => import("./locales/nl.ts"),
  es: () => import("./locales/es.ts"),
  it: () => import("./locales/it.ts"),
  pl: () => import("./locales/pl.ts"),
  "pt-BR": () => import("./locales/pt-BR.ts"),
};

/** The language without a choice of the user's: Home Assistant's > the browser's > English. */
export function automaticLanguage(): Language {
  const browser = typeof navigator === "undefined" ? [] : (navigator.languages ?? [navigator.language]);
  return pickLanguage([homeAssistantLanguage(), ...browser]) ?? "en";
}

/** The language to show: the user's choice, else the automatic one. */
export function detectLanguage(): Language {
  return storedLanguage(LANGUAGE_KEY) ?? automaticLanguage();
}

/** Loads the detected language into `S` (and the shared components' `UI`); English if its chunk fails to load. */
export async function loadLanguage(): Promise<Language> {
  const language = detectLanguage();
  if (language !== "en") {
    try {
      const messages = (await HUB_LOCALES[language]()).default;
      mergeMessages(S, messages);
      mergeMessages(UI, messages.common);
    } catch {
      setCurrentLanguage("en");
      return "en";
    }
  }
  setCurrentLanguage(language);
  return language;
}
