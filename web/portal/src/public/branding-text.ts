import { BRANDING_DEFAULTS } from "../../../../portal/src/contract.ts";
import { currentLanguage } from "../../../common/i18n.ts";
import type { PublicBranding } from "../api/public-types.ts";
import { P } from "../strings/public.ts";

/** The branding texts the portal ships a default for (translated in `P.brandingDefaults`). */
export type BrandingTextKey = keyof typeof P.brandingDefaults;

/** A branding text as the page shows it, and the language to mark it with when that is not the page's. */
export interface BrandingText {
  text: string;
  lang: string | undefined;
}

/**
 * One branding text in the page's language where possible: a text left at the built-in default is the default in
 * the visitor's language; a text the admin wrote is shown as written, marked with the profile's language
 * (`branding.locale`) when that differs from the page's, for screen readers and hyphenation.
 */
export function brandingText(branding: PublicBranding, key: BrandingTextKey | "footerText" | "logoAlt"): BrandingText {
  const value = branding[key];
  if (key !== "footerText" && key !== "logoAlt" && value === BRANDING_DEFAULTS[key]) {
    return { text: P.brandingDefaults[key], lang: undefined };
  }
  return { text: value, lang: otherLanguage(branding.locale) };
}

/** `locale` when it names another language than the page's (de-CH on a German page is the same language). */
function otherLanguage(locale: string): string | undefined {
  if (!locale) return undefined;
  const base = (tag: string) => tag.toLowerCase().split(/[-_]/)[0];
  return base(locale) === base(currentLanguage()) ? undefined : locale;
}
