import * as v from "valibot";
import { objectMessage } from "../schema-messages.ts";
import { ASSET_PURPOSES, type BrandingSettings, CLIENT_PLATFORMS, COLOR_SCHEMES, LAYOUT_PRESETS } from "./branding-settings.ts";

const text = (field: string, max: number) =>
  v.pipe(v.string(`${field} must be a string`), v.maxLength(max, `${field} must be at most ${max} characters`));
const hexColor = (field: string) =>
  v.pipe(
    v.string(`${field} must be a string`),
    v.regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, `${field} must be a hex colour such as #0a7f5f`),
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
