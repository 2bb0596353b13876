/**
 * The portal's language (docs/i18n.md), for the public sign-up page and the admin console alike: `?lang=<tag>` in
 * the page's address (a link an admin hands out), else the choice made in a picker (localStorage, shared by both
 * faces), else the browser's languages, else English. The tables are filled once, before the page renders; English
 * fetches nothing. The admin console adds its own table on top (admin/i18n.ts, in the admin bundle).
 */
import {
  type Language,
  matchLanguage,
  mergeMessages,
  pickLanguage,
  setCurrentLanguage,
  storedLanguage,
  storeLanguage,
} from "../../common/i18n.ts";
import { P, type PublicMessages } from "./strings/public.ts";

/** Where the choice made in a picker is kept (localStorage). */
export const LANGUAGE_KEY = "portal.language";

/** The query parameter that asks for a language: `?lang=de`, `?server=demo&token=…&lang=pt-BR`. */
export const LANGUAGE_PARAM = "lang";

/** The public page's translations, one chunk each, fetched only when chosen (English is built in). */
export const PUBLIC_LOCALES: Record<Exclude<Language, "en">, () => Promise<{ default: PublicMessages }>> = {
  de: () => import("./locales/public/de.ts"),
  fr: () => import("./locales/public/fr.ts"),
  nl: () => import("./locales/public/nl.ts"),
  es: () => import("./locales/public/es.ts"),
  it: () => import("./locales/public/it.ts"),
  pl: () => import("./locales/public/pl.ts"),
  "pt-BR": () => import("./locales/public/pt-BR.ts"),
};

/** The language the page's address asks for (`?lang=de`, `?lang=pt_br`), or null (absent, or one we do not ship). */
export function linkLanguage(): Language | null {
  if (typeof location === "undefined") return null;
  return matchLanguage(new URLSearchParams(location.search).get(LANGUAGE_PARAM));
}

/** The language without an explicit choice: the browser's first one we ship, else English. */
export function automaticLanguage(): Language {
  const browser = typeof navigator === "undefined" ? [] : (navigator.languages ?? [navigator.language]);
  return pickLanguage(browser) ?? "en";
}

/** The language to show: the link's, else the picker's choice, else the automatic one. */
export function detectLanguage(): Language {
  return linkLanguage() ?? storedLanguage(LANGUAGE_KEY) ?? automaticLanguage();
}

/**
 * Keeps the visitor's choice (null: follow the browser again) and reloads the page in it. A `?lang=` in the address
 * would outrank the choice, so it is taken out (the rest of the address, e.g. the invitation token, stays).
 */
export function chooseLanguage(language: Language | null): void {
  storeLanguage(LANGUAGE_KEY, language);
  const url = new URL(location.href);
  if (url.searchParams.has(LANGUAGE_PARAM)) {
    url.searchParams.delete(LANGUAGE_PARAM);
    history.replaceState(history.state, "", url);
  }
  location.reload();
}

/** Fetches the public page's table for `language` (null for English, or when its chunk does not load). */
export async function publicMessages(language: Language): Promise<PublicMessages | null> {
  if (language === "en") return null;
  try {
    return (await PUBLIC_LOCALES[language]()).default;
  } catch {
    return null;
  }
}

/** Loads the detected language into `P` and records it (`<html lang>`); English when its chunk fails to load. */
export async function loadPublicLanguage(): Promise<Language> {
  const wanted = detectLanguage();
  const messages = await publicMessages(wanted);
  if (messages) mergeMessages(P, messages);
  const language = messages ? wanted : "en";
  setCurrentLanguage(language);
  return language;
}
