import type { BrandingSettings } from "../api/public-types.ts";
import { contrast, ensureContrast, mix, parseHex, type Rgb, readableOn, toHex } from "../lib/colour.ts";

/** The CSS custom properties of one colour scheme of the sign-up page. */
type Palette = Record<
  "bg" | "card" | "text" | "muted" | "border" | "input" | "primary" | "onPrimary" | "link" | "accent",
  string
>;

const FALLBACK = {
  primary: [13, 189, 139] as Rgb,
  accent: [35, 140, 245] as Rgb,
  background: [244, 246, 250] as Rgb,
  text: [23, 25, 28] as Rgb,
};
const WHITE: Rgb = [255, 255, 255];
const DARK_BG: Rgb = [16, 18, 21];
const DARK_CARD: Rgb = [27, 30, 35];
const DARK_TEXT: Rgb = [232, 234, 237];

/**
 * The colours of one scheme from the branding, held to WCAG AA: body text 4.5:1 on the card, links and the accent
 * 4.5:1, the button's label 4.5:1 on the button and the button itself 3:1 against the card (non-text contrast).
 * The brand hue is kept and only darkened or lightened as far as needed, so a light brand colour still works.
 */
function palette(
  branding: Pick<BrandingSettings, "primaryColor" | "accentColor" | "backgroundColor" | "textColor">,
  dark: boolean,
): Palette {
  const primary = parseHex(branding.primaryColor) ?? FALLBACK.primary;
  const accent = parseHex(branding.accentColor) ?? FALLBACK.accent;
  const bg = dark ? mix(DARK_BG, primary, 0.04) : (parseHex(branding.backgroundColor) ?? FALLBACK.background);
  const card = dark ? DARK_CARD : WHITE;
  const text = dark ? DARK_TEXT : ensureContrast(parseHex(branding.textColor) ?? FALLBACK.text, card, 7);
  const button = ensureContrast(primary, card, 3);
  // The label: white or black, and if neither reaches 4.5:1 on this hue, the button is shifted until one does.
  let buttonBg = button;
  for (let step = 1; step <= 10 && contrast(readableOn(buttonBg), buttonBg) < 4.5; step++) {
    buttonBg = mix(button, dark ? WHITE : [0, 0, 0], step / 20);
  }
  return {
    bg: toHex(bg),
    card: toHex(card),
    text: toHex(text),
    muted: toHex(ensureContrast(mix(text, card, 0.35), card, 4.5)),
    border: toHex(ensureContrast(mix(text, card, 0.6), card, 3)),
    input: toHex(dark ? mix(DARK_CARD, [0, 0, 0], 0.25) : WHITE),
    primary: toHex(buttonBg),
    onPrimary: toHex(readableOn(buttonBg)),
    link: toHex(ensureContrast(primary, card, 4.5)),
    accent: toHex(ensureContrast(accent, card, 4.5)),
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

/** Contrast problems of the chosen colours, for the branding editor's warnings (ratio below what AA asks). */
export function contrastWarnings(branding: BrandingSettings): { pair: "text" | "primary"; ratio: number }[] {
  const warnings: { pair: "text" | "primary"; ratio: number }[] = [];
  const text = parseHex(branding.textColor);
  const bg = parseHex(branding.backgroundColor);
  if (text && bg && contrast(text, bg) < 4.5) warnings.push({ pair: "text", ratio: contrast(text, bg) });
  const primary = parseHex(branding.primaryColor);
  if (primary && contrast(primary, WHITE) < 3) warnings.push({ pair: "primary", ratio: contrast(primary, WHITE) });
  return warnings;
}
