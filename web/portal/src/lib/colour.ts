/** sRGB colour arithmetic for the branding theme: parsing, WCAG contrast, mixing. No dependencies. */

export type Rgb = readonly [number, number, number];

/** `#abc` or `#aabbcc` → [r, g, b]; undefined for anything else. */
export function parseHex(hex: string): Rgb | undefined {
  const match = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(hex.trim());
  if (!match?.[1]) return undefined;
  const digits = match[1].length === 3 ? [...match[1]].map((d) => d + d).join("") : match[1];
  return [0, 2, 4].map((i) => Number.parseInt(digits.slice(i, i + 2), 16)) as unknown as Rgb;
}

export const toHex = (rgb: Rgb) => `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, "0")).join("")}`;

function channel(c: number): number {
  const s = c / 255;
  return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
}

/** WCAG relative luminance. */
export const luminance = ([r, g, b]: Rgb) => 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);

/** WCAG contrast ratio (1 to 21). */
export function contrast(a: Rgb, b: Rgb): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** `a` moved towards `b` by `amount` (0..1). */
export const mix = (a: Rgb, b: Rgb, amount: number): Rgb => a.map((c, i) => c + ((b[i] ?? c) - c) * amount) as unknown as Rgb;

const BLACK: Rgb = [0, 0, 0];
const WHITE: Rgb = [255, 255, 255];

/** Black or white, whichever reads better on `background`. */
export const readableOn = (background: Rgb): Rgb => (contrast(WHITE, background) >= contrast(BLACK, background) ? WHITE : BLACK);

/**
 * `colour`, darkened or lightened (whichever direction gains contrast) in small steps until it reaches `ratio`
 * against `background`: the brand's hue is kept as far as accessibility allows.
 */
export function ensureContrast(colour: Rgb, background: Rgb, ratio: number): Rgb {
  if (contrast(colour, background) >= ratio) return colour;
  const target = readableOn(background);
  let result = colour;
  for (let step = 1; step <= 20 && contrast(result, background) < ratio; step++) result = mix(colour, target, step / 20);
  return result;
}
