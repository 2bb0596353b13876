/**
 * What a branding profile holds and its defaults, as plain constants and types. A leaf module on purpose (no
 * imports): the sign-up page and the admin console take these through `portal/src/contract.ts`, and
 * `branding.schema.ts` builds the request schemas on them.
 */

export const ASSET_PURPOSES = ["logo", "favicon", "hero", "background"] as const;
export type AssetPurpose = (typeof ASSET_PURPOSES)[number];

/** Size limits per purpose (portal spec): favicon 256 KB, everything else 2 MB. */
export const ASSET_LIMITS: Record<AssetPurpose, number> = {
  logo: 2 * 1024 * 1024,
  favicon: 256 * 1024,
  hero: 2 * 1024 * 1024,
  background: 2 * 1024 * 1024,
};

export const LAYOUT_PRESETS = ["centered", "split", "minimal"] as const;
export const COLOR_SCHEMES = ["auto", "light", "dark"] as const;
export const CLIENT_PLATFORMS = ["web", "desktop", "ios", "android", "other"] as const;

export interface ClientLink {
  name: string;
  url: string;
  platform: (typeof CLIENT_PLATFORMS)[number];
}

/** Every customisable field of a branding profile, as stored (only set fields) and as returned (defaults filled in). */
export interface BrandingSettings {
  appTitle: string;
  subtitle: string;
  welcomeHeadline: string;
  registrationText: string;
  successText: string;
  footerText: string;
  usernameHint: string;
  logoAlt: string;
  primaryColor: string;
  accentColor: string;
  backgroundColor: string;
  textColor: string;
  colorScheme: (typeof COLOR_SCHEMES)[number];
  layoutPreset: (typeof LAYOUT_PRESETS)[number];
  locale: string;
  privacyPolicyUrl: string | null;
  termsUrl: string | null;
  imprintUrl: string | null;
  supportUrl: string | null;
  contactEmail: string | null;
  clientLinks: ClientLink[];
}

/**
 * The values of every unset field: a sign-up page that works and reads well without any customisation. The client
 * links are the Matrix clients people most often install (Element on the web and desktop, Element X on phones, and
 * FluffyChat); Element X cannot sign up with a registration token itself, so people create the account here first.
 * The colours pass every contrast check the branding editor shows (web/portal/src/public/contrast-checks.ts, tested in
 * contrast-checks.test.ts): the primary green reaches 4.9:1 on the white card (text and links), 3.3:1 on the dark
 * card (the button), and white on it 4.9:1. Element's lighter #0dbd8b, the default before, reached only 2.4:1 on white.
 */
export const BRANDING_DEFAULTS: Readonly<BrandingSettings> = Object.freeze<BrandingSettings>({
  appTitle: "Matrix registration",
  subtitle: "Create your Matrix account",
  welcomeHeadline: "Welcome",
  registrationText:
    "Choose a username and a password. You need the registration token (invitation code) you were given to sign up.",
  successText: "Your account is ready. Sign in with any Matrix client using your username and password.",
  footerText: "",
  usernameHint: "Lower-case letters, digits and . _ = - only",
  logoAlt: "",
  primaryColor: "#0a7f5f",
  accentColor: "#238cf5",
  backgroundColor: "#f4f6fa",
  textColor: "#17191c",
  colorScheme: "auto",
  layoutPreset: "centered",
  locale: "en",
  privacyPolicyUrl: null,
  termsUrl: null,
  imprintUrl: null,
  supportUrl: null,
  contactEmail: null,
  clientLinks: [
    { name: "Element Web", url: "https://app.element.io/", platform: "web" },
    { name: "Element Desktop", url: "https://element.io/download", platform: "desktop" },
    { name: "Element X for iOS", url: "https://apps.apple.com/app/element-x-secure-chat-call/id1631335820", platform: "ios" },
    {
      name: "Element X for Android",
      url: "https://play.google.com/store/apps/details?id=io.element.android.x",
      platform: "android",
    },
    { name: "FluffyChat", url: "https://fluffychat.im/", platform: "other" },
  ],
});

export const SETTING_KEYS = Object.keys(BRANDING_DEFAULTS) as (keyof BrandingSettings)[];
