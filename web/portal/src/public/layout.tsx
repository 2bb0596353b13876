import type { ComponentChildren } from "preact";
import type { PublicBranding } from "../api/public-types.ts";
import { relativeApiPath } from "../lib/paths.ts";
import { P } from "../strings/public.ts";
import { themeStyle } from "./theme.ts";

/** An asset path from the branding (`/api/branding/assets/<id>`), relative to the base; or a blob: URL in the preview. */
export const assetSrc = (url: string | null) => (url === null ? null : url.startsWith("blob:") ? url : relativeApiPath(url));

function FooterLinks({ branding }: { branding: PublicBranding }) {
  const links = [
    [branding.privacyPolicyUrl, P.footer.privacy],
    [branding.termsUrl, P.footer.terms],
    [branding.imprintUrl, P.footer.imprint],
    [branding.supportUrl, P.footer.support],
    [branding.contactEmail ? `mailto:${branding.contactEmail}` : null, P.footer.contact],
  ].filter((entry): entry is [string, string] => Boolean(entry[0]));
  if (links.length === 0 && !branding.footerText) return null;
  return (
    <footer class="su-footer">
      {branding.footerText ? <p>{branding.footerText}</p> : null}
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
  const brand = (
    <div class="su-brand">
      {logo ? <img class="su-logo" src={logo} alt={branding.logoAlt || ""} /> : null}
      <span class="su-app-title">{branding.appTitle}</span>
      {demo ? (
        <span class="su-demo" title={P.demoTitle} data-testid="demo-badge">
          {P.demo}
        </span>
      ) : null}
    </div>
  );
  const introText = (
    <>
      <Heading class="su-headline" id={preview ? undefined : "su-title"} tabIndex={-1}>
        {branding.welcomeHeadline}
      </Heading>
      {branding.subtitle ? <p class="su-subtitle">{branding.subtitle}</p> : null}
      {branding.registrationText ? <p class="su-text">{branding.registrationText}</p> : null}
    </>
  );
  const Main = preview ? "div" : "main";
  return (
    <div
      class={`su su-${layout}${background ? " su-has-bg" : ""}${preview ? " su-preview" : ""}`}
      data-scheme={branding.colorScheme}
      data-layout={layout}
      style={style}
      lang={branding.locale || undefined}
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
        <FooterLinks branding={branding} />
      </Main>
    </div>
  );
}
