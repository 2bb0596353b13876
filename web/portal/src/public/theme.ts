import { BRANDING_DEFAULTS } from "../../../../portal/src/contract.ts";
import type { BrandingSettings } from "../api/public-types.ts";
import { ensureContrast, mix, parseHex, type Rgb, readableOn, toHex } from "../lib/colour.ts";
import { linksUsePrimary, SURFACES } from "./contrast-checks.ts";

/** The CSS custom properties of one colour scheme of the sign-up page. */
type Palette = Record<
  "bg" | "card" | "text" | "muted" | "border" | "input" | "primary" | "onPrimary" | "link" | "accent",
  string
>;

/** What a colour the branding has not made valid yet falls back to: the built-in defaults. */
const FALLBACK = {
  primary: parseHex(BRANDING_DEFAULTS.primaryColor) as Rgb,
  accent: parseHex(BRANDING_DEFAULTS.accentColor) as Rgb,
  background: parseHex(BRANDING_DEFAULTS.backgroundColor) as Rgb,
  text: parseHex(BRANDING_DEFAULTS.textColor) as Rgb,
};
const DARK_BG: Rgb = [16, 18, 21];

/**
 * The colours of one scheme from the branding. Every chosen colour is used exactly as chosen, never darkened or
 * lightened to pass a contrast rule: the branding editor shows each contrast with its WCAG ratio instead
 * (contrast-checks.ts). Only colours the admin does not choose are derived: the button label (black or white,
 * whichever reads better on the primary colour), muted text and borders, and the dark scheme's surfaces. Links are
 * the primary colour where it is readable as text on the card, else the text colour (the editor says so).
 */
function palette(
  branding: Pick<BrandingSettings, "primaryColor" | "accentColor" | "backgroundColor" | "textColor">,
  dark: boolean,
): Palette {
  const primary = parseHex(branding.primaryColor) ?? FALLBACK.primary;
  const accent = parseHex(branding.accentColor) ?? FALLBACK.accent;
  const bg = dark ? mix(DARK_BG, primary, 0.04) : (parseHex(branding.backgroundColor) ?? FALLBACK.background);
  const card = dark ? SURFACES.darkCard : SURFACES.lightCard;
  const text = dark ? SURFACES.darkText : (parseHex(branding.textColor) ?? FALLBACK.text);
  return {
    bg: toHex(bg),
    card: toHex(card),
    text: toHex(text),
    muted: toHex(ensureContrast(mix(text, card, 0.35), card, 4.5)),
    border: toHex(ensureContrast(mix(text, card, 0.6), card, 3)),
    input: toHex(dark ? mix(SURFACES.darkCard, [0, 0, 0], 0.25) : SURFACES.lightCard),
    primary: toHex(primary),
    onPrimary: toHex(readableOn(primary)),
    link: toHex(!dark && linksUsePrimary(primary) ? primary : text),
    accent: toHex(accent),
  };
}

/**
 * The inline style of the page root: both palettes as `--su-<name>-light` / `--su-<name>-dark`; public.css picks
 * one by `data-scheme` and prefers-color-scheme (`auto` follows the visitor's device).
 */
export function themeStyle(branding: BrandingSettings): Record<string, string> {
  const style: Record<string, string> = {};
  for (const [scheme, dark] of [
    ["light", false],
    ["dark", true],
  ] as const) {
    for (const [name, value] of Object.entries(palette(branding, dark))) style[`--su-${name}-${scheme}`] = value;
  }
  return style;
}
