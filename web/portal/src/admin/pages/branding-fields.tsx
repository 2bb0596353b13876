import { Card, Field } from "../../../../common/components/ui.tsx";
import type { BrandingSettings, ClientLink } from "../../api/public-types.ts";
import { A } from "../../strings/admin.ts";
import { BrandingContrast } from "./branding-contrast.tsx";

export type Draft = BrandingSettings & { name: string };
type Setter = <K extends keyof Draft>(key: K, value: Draft[K]) => void;

const TEXT_LIMITS: Partial<Record<keyof Draft, number>> = {
  name: 100,
  appTitle: 100,
  subtitle: 200,
  welcomeHeadline: 200,
  usernameHint: 200,
  logoAlt: 200,
  footerText: 500,
  registrationText: 2000,
  successText: 2000,
};

function TextInput({
  draft,
  set,
  field,
  label,
  hint,
  long,
}: {
  draft: Draft;
  set: Setter;
  field: keyof Draft;
  label: string;
  hint?: string;
  long?: boolean;
}) {
  const value = (draft[field] as string | null) ?? "";
  const onInput = (event: Event) => set(field, (event.currentTarget as HTMLInputElement).value as never);
  return (
    <Field label={label} hint={hint}>
      {(props) =>
        long ? (
          <textarea {...props} rows={3} maxLength={TEXT_LIMITS[field]} value={value} onInput={onInput} />
        ) : (
          <input {...props} type="text" maxLength={TEXT_LIMITS[field] ?? 2000} value={value} onInput={onInput} />
        )
      }
    </Field>
  );
}

function ColourInput({
  draft,
  set,
  field,
  label,
}: {
  draft: Draft;
  set: Setter;
  field: "primaryColor" | "accentColor" | "backgroundColor" | "textColor";
  label: string;
}) {
  const value = draft[field];
  const valid = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.test(value);
  const full = valid && value.length === 4 ? `#${[...value.slice(1)].map((c) => c + c).join("")}` : value;
  return (
    <Field label={label} error={valid ? null : A.branding.colourRule}>
      {(props) => (
        <div class="colour-input">
          <input
            type="color"
            value={valid ? full : "#000000"}
            aria-label={A.branding.pick(label)}
            onInput={(e) => set(field, e.currentTarget.value)}
          />
          <input
            {...props}
            type="text"
            spellcheck={false}
            maxLength={7}
            value={value}
            onInput={(e) => set(field, e.currentTarget.value)}
          />
        </div>
      )}
    </Field>
  );
}

function ClientLinks({ links, onChange }: { links: ClientLink[]; onChange: (links: ClientLink[]) => void }) {
  const update = (index: number, patch: Partial<ClientLink>) =>
    onChange(links.map((link, i) => (i === index ? { ...link, ...patch } : link)));
  return (
    <fieldset class="client-links">
      <legend>{A.branding.clientLinks}</legend>
      <p class="hint">{A.branding.clientLinksHint}</p>
      <ul>
        {links.map((link, index) => (
          <li key={index} class="client-link-row">
            <input
              type="text"
              aria-label={A.branding.clientName(index + 1)}
              maxLength={60}
              value={link.name}
              onInput={(e) => update(index, { name: e.currentTarget.value })}
            />
            <input
              type="url"
              aria-label={A.branding.clientUrl(index + 1)}
              maxLength={2000}
              value={link.url}
              onInput={(e) => update(index, { url: e.currentTarget.value })}
            />
            <select
              aria-label={A.branding.clientPlatform(index + 1)}
              value={link.platform}
              onChange={(e) => update(index, { platform: e.currentTarget.value as ClientLink["platform"] })}
            >
              {(["web", "desktop", "ios", "android", "other"] as const).map((platform) => (
                <option key={platform} value={platform}>
                  {A.branding.platforms[platform]}
                </option>
              ))}
            </select>
            <button
              type="button"
              class="btn btn-small btn-icon"
              aria-label={A.branding.removeClient(index + 1)}
              onClick={() => onChange(links.filter((_, i) => i !== index))}
            >
              ✕
            </button>
          </li>
        ))}
      </ul>
      <button
        type="button"
        class="btn btn-small"
        disabled={links.length >= 10}
        onClick={() => onChange([...links, { name: "", url: "https://", platform: "web" }])}
      >
        {A.branding.addClient}
      </button>
    </fieldset>
  );
}

/** Every branding field, grouped; `set` updates the draft (the preview follows at once). */
export function BrandingFields({ draft, set }: { draft: Draft; set: Setter }) {
  return (
    <>
      <Card title={A.branding.texts}>
        <TextInput draft={draft} set={set} field="name" label={A.branding.name} hint={A.branding.nameHint} />
        <TextInput draft={draft} set={set} field="appTitle" label={A.branding.appTitle} hint={A.branding.appTitleHint} />
        <TextInput draft={draft} set={set} field="welcomeHeadline" label={A.branding.welcomeHeadline} />
        <TextInput draft={draft} set={set} field="subtitle" label={A.branding.subtitle} />
        <TextInput draft={draft} set={set} field="registrationText" label={A.branding.registrationText} long />
        <TextInput draft={draft} set={set} field="usernameHint" label={A.branding.usernameHint} />
        <TextInput draft={draft} set={set} field="successText" label={A.branding.successText} long />
        <TextInput draft={draft} set={set} field="footerText" label={A.branding.footerText} />
        <TextInput draft={draft} set={set} field="logoAlt" label={A.branding.logoAlt} hint={A.branding.logoAltHint} />
      </Card>
      <Card title={A.branding.look}>
        <fieldset>
          <legend>{A.branding.layout}</legend>
          <div class="radio-cards">
            {(["centered", "split", "minimal"] as const).map((layout) => (
              <label key={layout} class="radio-card">
                <input
                  type="radio"
                  name="layoutPreset"
                  value={layout}
                  checked={draft.layoutPreset === layout}
                  onChange={() => set("layoutPreset", layout)}
                />
                <span>
                  <strong>{A.branding.layouts[layout]}</strong>
                  <span class="block small muted">{A.branding.layoutHints[layout]}</span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
        <div class="form-grid">
          <ColourInput draft={draft} set={set} field="primaryColor" label={A.branding.primaryColor} />
          <ColourInput draft={draft} set={set} field="accentColor" label={A.branding.accentColor} />
          <ColourInput draft={draft} set={set} field="backgroundColor" label={A.branding.backgroundColor} />
          <ColourInput draft={draft} set={set} field="textColor" label={A.branding.textColor} />
          <Field label={A.branding.colorScheme} hint={A.branding.colorSchemeHint}>
            {(props) => (
              <select
                {...props}
                value={draft.colorScheme}
                onChange={(e) => set("colorScheme", e.currentTarget.value as Draft["colorScheme"])}
              >
                <option value="auto">{A.branding.schemeAuto}</option>
                <option value="light">{A.branding.light}</option>
                <option value="dark">{A.branding.dark}</option>
              </select>
            )}
          </Field>
        </div>
        <BrandingContrast draft={draft} />
      </Card>
      <Card title={A.branding.links}>
        <div class="form-grid">
          <TextInput draft={draft} set={set} field="privacyPolicyUrl" label={A.branding.privacyPolicyUrl} />
          <TextInput draft={draft} set={set} field="termsUrl" label={A.branding.termsUrl} />
          <TextInput draft={draft} set={set} field="imprintUrl" label={A.branding.imprintUrl} />
          <TextInput draft={draft} set={set} field="supportUrl" label={A.branding.supportUrl} />
          <TextInput draft={draft} set={set} field="contactEmail" label={A.branding.contactEmail} />
          <TextInput draft={draft} set={set} field="locale" label={A.branding.locale} hint={A.branding.localeHint} />
        </div>
        <ClientLinks links={draft.clientLinks} onChange={(links) => set("clientLinks", links)} />
      </Card>
    </>
  );
}
