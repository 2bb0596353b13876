import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { BRANDING_DEFAULTS } from "../../../../portal/src/contract.ts";
import { setCurrentLanguage } from "../../../common/i18n.ts";
import type { PublicBranding } from "../api/public-types.ts";
import { P } from "../strings/public.ts";
import { brandingText } from "./branding-text.ts";
import { DEFAULT_BRANDING } from "./signup-app.tsx";

// Branding texts on the sign-up page: a text left at the portal's default speaks the visitor's language, a text the
// admin wrote is shown as written and marked with the profile's language when the page's is another.

const branding = (changes: Partial<PublicBranding>): PublicBranding => ({ ...DEFAULT_BRANDING, ...changes });

describe("brandingText", () => {
  it("shows an unchanged default from the page's table, without a lang of its own", () => {
    // P holds whatever language was loaded (English here): the default comes from it, not from the profile.
    const shown = brandingText(branding({ locale: "fr" }), "welcomeHeadline");
    assert.deepEqual(shown, { text: P.brandingDefaults.welcomeHeadline, lang: undefined });
    assert.equal(DEFAULT_BRANDING.welcomeHeadline, BRANDING_DEFAULTS.welcomeHeadline);
  });

  it("marks a custom text with the profile's language when the page speaks another", () => {
    setCurrentLanguage("en");
    const custom = branding({ welcomeHeadline: "Willkommen im Verein", locale: "de-CH" });
    assert.deepEqual(brandingText(custom, "welcomeHeadline"), { text: "Willkommen im Verein", lang: "de-CH" });
    setCurrentLanguage("de");
    assert.deepEqual(brandingText(custom, "welcomeHeadline"), { text: "Willkommen im Verein", lang: undefined });
    assert.deepEqual(brandingText(branding({ footerText: "Ein Verein", locale: "" }), "footerText"), {
      text: "Ein Verein",
      lang: undefined,
    });
    setCurrentLanguage("en");
  });
});
