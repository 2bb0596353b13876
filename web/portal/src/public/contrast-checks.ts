import type { BrandingSettings } from "../api/public-types.ts";
import { contrast, parseHex, type Rgb, readableOn, toHex } from "../lib/colour.ts";

/**
 * The fixed surfaces of the sign-up page the branding's colours are drawn on: the card is white in the light scheme;
 * the dark scheme is the portal's own (background, card and text built in), where the brand shows as the button.
 */
export const SURFACES = {
  lightCard: [255, 255, 255] as Rgb,
  darkCard: [27, 30, 35] as Rgb,
  darkText: [232, 234, 237] as Rgb,
} as const;

/** WCAG 2.x AA: 4.5:1 for text, 3:1 for the parts of controls people must see (WCAG 1.4.3, 1.4.11). */
export const TEXT_RATIO = 4.5;
export const NON_TEXT_RATIO = 3;

export type ContrastCheckId =
  | "textOnCard"
  | "textOnBackground"
  | "buttonOnCard"
  | "buttonLabel"
  | "linksOnCard"
  | "focusOnCard"
  | "buttonOnDarkCard"
  | "buttonLabelDark"
  | "focusOnDarkCard";

/** One measured pair: what is drawn on what, its WCAG ratio and the ratio AA asks for. */
export interface ContrastCheck {
  id: ContrastCheckId;
  scheme: "light" | "dark";
  /** The colour drawn (hex), exactly as used on the page. */
  foreground: string;
  /** The colour it is drawn on (hex). */
  background: string;
  ratio: number;
  required: number;
  pass: boolean;
}

type Colours = Pick<BrandingSettings, "primaryColor" | "accentColor" | "backgroundColor" | "textColor" | "colorScheme">;

/** A colour of the branding, or undefined while it is not a valid hex colour (the editor flags the field itself). */
const colourOf = (hex: string) => parseHex(hex);

function check(id: ContrastCheckId, scheme: "light" | "dark", fg: Rgb, bg: Rgb, required: number): ContrastCheck {
  const ratio = contrast(fg, bg);
  // WCAG does not round: 4.49:1 fails 4.5:1 (and formatRatio shows it as 4.4:1).
  return { id, scheme, foreground: toHex(fg), background: toHex(bg), ratio, required, pass: ratio >= required };
}

/** A ratio as `4.9:1`, rounded down so that a failing ratio never reads like the one it missed. */
export const formatRatio = (ratio: number) => `${(Math.floor(ratio * 10) / 10).toFixed(1)}:1`;

/** Links are drawn in the primary colour on the light card when it is readable as text there, else in the text colour. */
export function linksUsePrimary(primary: Rgb): boolean {
  return check("linksOnCard", "light", primary, SURFACES.lightCard, TEXT_RATIO).pass;
}

/**
 * Every contrast the chosen colours make on the sign-up page, for the schemes visitors can see (`colorScheme`): the
 * branding editor lists them with their ratios, and a failing one is a warning. The page never alters a chosen
 * colour to pass (theme.ts): what is measured here is what visitors get.
 */
export function contrastChecks(branding: Colours): ContrastCheck[] {
  const primary = colourOf(branding.primaryColor);
  const accent = colourOf(branding.accentColor);
  const background = colourOf(branding.backgroundColor);
  const text = colourOf(branding.textColor);
  const checks: ContrastCheck[] = [];
  if (branding.colorScheme !== "dark") {
    const card = SURFACES.lightCard;
    if (text) checks.push(check("textOnCard", "light", text, card, TEXT_RATIO));
    if (text && background) checks.push(check("textOnBackground", "light", text, background, TEXT_RATIO));
    if (primary) {
      checks.push(check("buttonOnCard", "light", primary, card, NON_TEXT_RATIO));
      checks.push(check("buttonLabel", "light", readableOn(primary), primary, TEXT_RATIO));
      checks.push(check("linksOnCard", "light", primary, card, TEXT_RATIO));
    }
    if (accent) checks.push(check("focusOnCard", "light", accent, card, NON_TEXT_RATIO));
  }
  if (branding.colorScheme !== "light") {
    const card = SURFACES.darkCard;
    if (primary) {
      checks.push(check("buttonOnDarkCard", "dark", primary, card, NON_TEXT_RATIO));
      checks.push(check("buttonLabelDark", "dark", readableOn(primary), primary, TEXT_RATIO));
    }
    if (accent) checks.push(check("focusOnDarkCard", "dark", accent, card, NON_TEXT_RATIO));
  }
  return checks;
}
