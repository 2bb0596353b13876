/**
 * The colour conversions of HA's `homeassistant/util/color.py` that lights use to fill `hs_color`, `rgb_color` and
 * `xy_color` from whichever one the light is in, and to translate a requested colour into a supported mode.
 */
import { pyRound } from "../core/json.ts";

export type Rgb = [number, number, number];
export type Hs = [number, number];
export type Xy = [number, number];

function rgbToHsv(r: number, g: number, b: number): [number, number, number] {
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const v = max;
  if (min === max) return [0, 0, v];
  const s = (max - min) / max;
  const rc = (max - r) / (max - min);
  const gc = (max - g) / (max - min);
  const bc = (max - b) / (max - min);
  let h: number;
  if (r === max) h = bc - gc;
  else if (g === max) h = 2 + rc - bc;
  else h = 4 + gc - rc;
  h = (((h / 6) % 1) + 1) % 1;
  return [h, s, v];
}

function hsvToRgb(h: number, s: number, v: number): [number, number, number] {
  if (s === 0) return [v, v, v];
  const i = Math.floor(h * 6);
  const f = h * 6 - i;
  const p = v * (1 - s);
  const q = v * (1 - s * f);
  const t = v * (1 - s * (1 - f));
  switch (((i % 6) + 6) % 6) {
    case 0:
      return [v, t, p];
    case 1:
      return [q, v, p];
    case 2:
      return [p, v, t];
    case 3:
      return [p, q, v];
    case 4:
      return [t, p, v];
    default:
      return [v, p, q];
  }
}

/** `color_RGB_to_hs`: hue in degrees and saturation in percent, rounded to 3 decimals. */
export function rgbToHs(r: number, g: number, b: number): Hs {
  const [h, s] = rgbToHsv(r / 255, g / 255, b / 255);
  return [pyRound(h * 360, 3), pyRound(s * 100, 3)];
}

/** `color_hs_to_RGB` at full value. */
export function hsToRgb(h: number, s: number): Rgb {
  const [r, g, b] = hsvToRgb(h / 360, s / 100, 1);
  return [pyRound(r * 255), pyRound(g * 255), pyRound(b * 255)];
}

/** `color_RGB_to_xy` with HA's Wide RGB D65 matrix and gamma, without a lamp gamut. */
export function rgbToXy(r: number, g: number, b: number): Xy {
  if (r + g + b === 0) return [0, 0];
  const gamma = (c: number) => (c > 0.04045 ? ((c + 0.055) / 1.055) ** 2.4 : c / 12.92);
  const R = gamma(r / 255);
  const G = gamma(g / 255);
  const B = gamma(b / 255);
  const X = R * 0.664511 + G * 0.154324 + B * 0.162028;
  const Y = R * 0.283881 + G * 0.668433 + B * 0.047685;
  const Z = R * 0.000088 + G * 0.07231 + B * 0.986039;
  const sum = X + Y + Z;
  return [pyRound(X / sum, 3), pyRound(Y / sum, 3)];
}

/** `color_xy_to_RGB` (full brightness). */
export function xyToRgb(x: number, y: number): Rgb {
  const Y = 1;
  const vy = y === 0 ? 1e-11 : y;
  const X = (Y / vy) * x;
  const Z = (Y / vy) * (1 - x - vy);
  let r = X * 1.656492 - Y * 0.354851 - Z * 0.255038;
  let g = -X * 0.707196 + Y * 1.655397 + Z * 0.036152;
  let b = X * 0.051713 - Y * 0.121364 + Z * 1.01153;
  const reverse = (c: number) => (c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055);
  [r, g, b] = [reverse(r), reverse(g), reverse(b)].map((c) => Math.max(0, c)) as Rgb;
  const max = Math.max(r, g, b);
  if (max > 1) [r, g, b] = [r / max, g / max, b / max];
  return [Math.trunc(r * 255), Math.trunc(g * 255), Math.trunc(b * 255)];
}

export function xyToHs(x: number, y: number): Hs {
  const [r, g, b] = xyToRgb(x, y);
  return rgbToHs(r, g, b);
}

export function hsToXy(h: number, s: number): Xy {
  const [r, g, b] = hsToRgb(h, s);
  return rgbToXy(r, g, b);
}

/** `color_temperature_to_rgb`: Tanner Helland's black-body approximation, 1000–40000 K. */
export function kelvinToRgb(kelvin: number): Rgb {
  const t = Math.min(40000, Math.max(1000, kelvin)) / 100;
  const clamp = (c: number) => Math.max(0, Math.min(255, c));
  const red = t <= 66 ? 255 : clamp(329.698727446 * (t - 60) ** -0.1332047592);
  const green = t <= 66 ? clamp(99.4708025861 * Math.log(t) - 161.1195681661) : clamp(288.1221695283 * (t - 60) ** -0.0755148492);
  const blue = t >= 66 ? 255 : t <= 19 ? 0 : clamp(138.5177312231 * Math.log(t - 10) - 305.0447927307);
  return [red, green, blue];
}

export function kelvinToHs(kelvin: number): Hs {
  const [r, g, b] = kelvinToRgb(kelvin);
  return rgbToHs(r, g, b);
}

/** `color_xy_to_temperature`: McCamy's approximation, good between 2000 and 10000 K. */
export function xyToKelvin(x: number, y: number): number {
  const n = (x - 0.332) / (0.1858 - y);
  return Math.trunc(437 * n ** 3 + 3601 * n ** 2 + 6861 * n + 5517);
}
