import * as v from "valibot";
import { objectMessage } from "../schema-messages.ts";

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
  primaryColor: "#0dbd8b",
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

const text = (field: string, max: number) =>
  v.pipe(v.string(`${field} must be a string`), v.maxLength(max, `${field} must be at most ${max} characters`));
const hexColor = (field: string) =>
  v.pipe(
    v.string(`${field} must be a string`),
    v.regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, `${field} must be a hex colour such as #0dbd8b`),
    v.toLowerCase(),
  );
/** Only http(s): a `javascript:` link on a public page would be a script injection. */
const webUrl = (field: string) =>
  v.pipe(
    v.string(`${field} must be a string`),
    v.maxLength(2000, `${field} must be at most 2000 characters`),
    v.url(`${field} must be a URL`),
    v.check((value) => /^https?:\/\//i.test(value), `${field} must be an http(s) URL`),
  );

/** A field in `PUT /api/admin/branding/:id`: its value, or `null` to go back to the default. */
const SettingsFields = {
  appTitle: text("appTitle", 100),
  subtitle: text("subtitle", 200),
  welcomeHeadline: text("welcomeHeadline", 200),
  registrationText: text("registrationText", 2000),
  successText: text("successText", 2000),
  footerText: text("footerText", 500),
  usernameHint: text("usernameHint", 200),
  logoAlt: text("logoAlt", 200),
  primaryColor: hexColor("primaryColor"),
  accentColor: hexColor("accentColor"),
  backgroundColor: hexColor("backgroundColor"),
  textColor: hexColor("textColor"),
  colorScheme: v.picklist(COLOR_SCHEMES, `colorScheme must be one of ${COLOR_SCHEMES.join(", ")}`),
  layoutPreset: v.picklist(LAYOUT_PRESETS, `layoutPreset must be one of ${LAYOUT_PRESETS.join(", ")}`),
  locale: v.pipe(
    v.string("locale must be a string"),
    v.regex(/^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8}){0,3}$/, "locale must be a language tag such as en or pt-BR"),
  ),
  privacyPolicyUrl: webUrl("privacyPolicyUrl"),
  termsUrl: webUrl("termsUrl"),
  imprintUrl: webUrl("imprintUrl"),
  supportUrl: webUrl("supportUrl"),
  contactEmail: v.pipe(
    v.string("contactEmail must be a string"),
    v.maxLength(254, "contactEmail is too long"),
    v.email("contactEmail must be an e-mail address"),
  ),
  clientLinks: v.pipe(
    v.array(
      v.strictObject(
        {
          name: v.pipe(text("name", 60), v.nonEmpty("name must not be empty")),
          url: webUrl("url"),
          platform: v.optional(v.picklist(CLIENT_PLATFORMS, `platform must be one of ${CLIENT_PLATFORMS.join(", ")}`), "other"),
        },
        objectMessage,
      ),
      "clientLinks must be a list",
    ),
    v.maxLength(10, "clientLinks may hold at most 10 links"),
  ),
} satisfies Record<keyof BrandingSettings, v.GenericSchema>;

const ProfileName = v.pipe(
  v.string("name must be a string"),
  v.trim(),
  v.nonEmpty("name is required"),
  v.maxLength(100, "name must be at most 100 characters"),
);

/** `POST /api/admin/branding`: a name; the profile starts as a draft with every field at its default. */
export const CreateProfileBody = v.strictObject({ name: ProfileName }, objectMessage);

/** `PUT /api/admin/branding/:id`: any subset of the fields (and `name`); `null` resets a field to its default. */
export const UpdateProfileBody = v.pipe(
  v.strictObject(
    {
      name: v.optional(ProfileName),
      ...(Object.fromEntries(Object.entries(SettingsFields).map(([key, schema]) => [key, v.optional(v.nullable(schema))])) as {
        [K in keyof typeof SettingsFields]: v.OptionalSchema<v.NullableSchema<(typeof SettingsFields)[K], undefined>, undefined>;
      }),
    },
    objectMessage,
  ),
  v.check((body) => Object.keys(body).length > 0, "the body names no field to update"),
);
export type UpdateProfileInput = v.InferOutput<typeof UpdateProfileBody>;

export const ProfileActionBody = v.strictObject(
  { action: v.picklist(["publish", "reset"], "action must be publish or reset") },
  objectMessage,
);

export const AssetPurposeField = v.picklist(ASSET_PURPOSES, `purpose must be one of ${ASSET_PURPOSES.join(", ")}`);

/** `GET /api/branding`: which server's page asks (optional; the active profile otherwise). */
export const PublicBrandingQuery = v.object(
  {
    serverId: v.optional(v.pipe(v.string(), v.maxLength(100))),
    slug: v.optional(v.pipe(v.string(), v.maxLength(100))),
    domain: v.optional(v.pipe(v.string(), v.maxLength(500))),
  },
  objectMessage,
);
