/**
 * The admin console's language (docs/i18n.md): detected as for the public page (../i18n.ts), then the console's own
 * table merged over `A` (and the shared components' `UI`), and the public page's over `P`, which the branding
 * preview draws. Runs before the console renders; the console's modules read `A` only while rendering (never at
 * import time), because they are part of this bundle and load before the translation does.
 */
import { type Language, mergeMessages, setCurrentLanguage } from "../../../common/i18n.ts";
import { UI } from "../../../common/strings.ts";
import { detectLanguage, publicMessages } from "../i18n.ts";
import { A, type AdminMessages } from "../strings/admin.ts";
import { P } from "../strings/public.ts";

/** The admin console's translations, one chunk each, fetched only when chosen (English is built in). */
export const PORTAL_ADMIN_LOCALES: Record<Exclude<Language, "en">, () => Promise<{ default: AdminMessages }>> = {
  de: () => import("../locales/admin/de.ts"),
  fr: () => import("../locales/admin/fr.ts"),
  nl: () => import("../locales/admin/nl.ts"),
  es: () => import("../locales/admin/es.ts"),
  it: () => import("../locales/admin/it.ts"),
  pl: () => import("../locales/admin/pl.ts"),
  "pt-BR": () => import("../locales/admin/pt-BR.ts"),
};

/** Loads the detected language into `A`, `UI` and `P` (both chunks at once); English if the console's fails. */
export async function loadAdminLanguage(): Promise<Language> {
  const wanted = detectLanguage();
  if (wanted !== "en") {
    try {
      const [admin, visitors] = await Promise.all([PORTAL_ADMIN_LOCALES[wanted](), publicMessages(wanted)]);
      mergeMessages(A, admin.default);
      mergeMessages(UI, admin.default.common);
      if (visitors) mergeMessages(P, visitors);
    } catch {
      setCurrentLanguage("en");
      return "en";
    }
  }
  setCurrentLanguage(wanted);
  return wanted;
}
