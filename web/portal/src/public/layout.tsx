import type { ComponentChildren } from "preact";
import type { PublicBranding } from "../api/public-types.ts";
import { relativeApiPath } from "../lib/paths.ts";
import { P } from "../strings/public.ts";
import { type BrandingText, brandingText } from "./branding-text.ts";
import { LanguageSelect } from "./language-select.tsx";
import { themeStyle } from "./theme.ts";

/** An asset path from the branding (`/api/branding/assets/<id>`), relative to the base; or a blob: URL in the preview. */
export const assetSrc = (url: string | null) => (url === null ? null : url.startsWith("blob:") ? url : relativeApiPath(url));

/** The footer: the branding's text and links, and the language picker (inert in the admin's preview). */
function Footer({ branding, preview }: { branding: PublicBranding; preview: boolean }) {
  const links = [
    [branding.privacyPolicyUrl, P.footer.privacy],
    [branding.termsUrl, P.footer.terms],
    [branding.imprintUrl, P.footer.imprint],
    [branding.supportUrl, P.footer.support],
    [branding.contactEmail ? `mailto:${branding.contactEmail}` : null, P.footer.contact],
  ].filter((entry): entry is [string, string] => Boolean(entry[0]));
  const footerText = brandingText(branding, "footerText");
  return (
    <footer class="su-footer">
      {footerText.text ? <p lang={footerText.lang}>{footerText.text}</p> : null}
      {links.length > 0 ? (
        <ul>
          {links.map(([href, label]) => (
            <li key={label}>
              <a href={href} rel="noopener noreferrer">
                {label}
              </a>
            </li>
          ))}
        </ul>
      ) : null}
      <LanguageSelect label={P.language} className="su-language" disabled={preview} />
    </footer>
  );
}

/**
 * The branded frame of the public page: colours (both schemes), layout preset, background and hero images, logo,
 * title, headline, texts and footer. `children` is the form, the success page or a message. The branding editor
 * renders the very same frame as its live preview (`preview`), so what the admin sees is what visitors get.
 */
export function SignupLayout({
  branding,
  demo = false,
  preview = false,
  intro = true,
  children,
}: {
  branding: PublicBranding;
  demo?: boolean;
  preview?: boolean;
  /** Shows the headline and registration text (the sign-up form); the success page has its own heading. */
  intro?: boolean;
  children: ComponentChildren;
}) {
  const layout = branding.layoutPreset;
  const hero = assetSrc(branding.heroUrl);
  const background = assetSrc(branding.backgroundUrl);
  const logo = assetSrc(branding.logoUrl);
  const style: Record<string, string> = { ...themeStyle(branding) };
  if (background) style["--su-bg-image"] = `url("${background}")`;
  const Heading = preview ? "p" : "h1";
  const [title, headline, subtitle, registration, logoAlt] = (
    ["appTitle", "welcomeHeadline", "subtitle", "registrationText", "logoAlt"] as const
  ).map((key) => brandingText(branding, key)) as [BrandingText, BrandingText, BrandingText, BrandingText, BrandingText];
  const brand = (
    <div class="su-brand">
      {logo ? <img class="su-logo" src={logo} alt={logoAlt.text} lang={logoAlt.text ? logoAlt.lang : undefined} /> : null}
      <span class="su-app-title" lang={title.lang}>
        {title.text}
      </span>
      {demo ? (
        <span class="su-demo" title={P.demoTitle} data-testid="demo-badge">
          {P.demo}
        </span>
      ) : null}
    </div>
  );
  const introText = (
    <>
      <Heading class="su-headline" id={preview ? undefined : "su-title"} tabIndex={-1} lang={headline.lang}>
        {headline.text}
      </Heading>
      {subtitle.text ? (
        <p class="su-subtitle" lang={subtitle.lang}>
          {subtitle.text}
        </p>
      ) : null}
      {registration.text ? (
        <p class="su-text" lang={registration.lang}>
          {registration.text}
        </p>
      ) : null}
    </>
  );
  const Main = preview ? "div" : "main";
  return (
    <div
      class={`su su-${layout}${background ? " su-has-bg" : ""}${preview ? " su-preview" : ""}`}
      data-scheme={branding.colorScheme}
      data-layout={layout}
      style={style}
    >
      {layout === "split" ? (
        // Beside the form on wide screens, above it on phones.
        <div
          class="su-hero"
          style={hero ? { backgroundImage: `url("${hero}")` } : undefined}
          data-has-image={hero ? "" : undefined}
        >
          <div class="su-hero-inner">
            {brand}
            {intro ? introText : null}
          </div>
        </div>
      ) : null}
      <Main class="su-main">
        <div class="su-card">
          {layout === "centered" && hero ? <img class="su-banner" src={hero} alt="" /> : null}
          {layout !== "split" ? brand : null}
          {layout !== "split" && intro ? introText : null}
          {children}
        </div>
        <Footer branding={branding} preview={preview} />
      </Main>
    </div>
  );
}
