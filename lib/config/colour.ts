/**
 * Colour arithmetic for the operator's accent colour (lib/config/brand.ts):
 * WCAG 2.2 relative luminance and contrast ratio (§1.4.3, §1.4.11 and the
 * definitions of "relative luminance" and "contrast ratio"), and lightness
 * moves in HSL, which keep the hue the operator chose. Pure; no imports.
 */

export type Rgb = readonly [number, number, number];

/** `#rgb` or `#rrggbb` (the `#` optional, any case) as `#rrggbb`; undefined for anything else. */
export function normalizeHex(text: string): string | undefined {
  const match = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(text.trim());
  if (!match) return undefined;
  const digits = match[1].length === 3 ? [...match[1]].map((d) => d + d).join('') : match[1];
  return `#${digits.toLowerCase()}`;
}

export function hexToRgb(hex: string): Rgb {
  const normal = normalizeHex(hex);
  if (!normal) throw new Error(`not a hex colour: ${hex}`);
  const n = Number.parseInt(normal.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

export function rgbToHex(rgb: Rgb): string {
  return `#${rgb
    .map((c) =>
      Math.round(Math.min(255, Math.max(0, c)))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

/** WCAG's relative luminance of an sRGB colour, 0 (black) to 1 (white). */
export function luminance(hex: string): number {
  const [r, g, b] = hexToRgb(hex).map((c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG's contrast ratio, 1 to 21, whichever colour is lighter. */
export function contrast(a: string, b: string): number {
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (high + 0.05) / (low + 0.05);
}

function rgbToHsl([r, g, b]: Rgb): [number, number, number] {
  const [rs, gs, bs] = [r / 255, g / 255, b / 255];
  const max = Math.max(rs, gs, bs);
  const min = Math.min(rs, gs, bs);
  const l = (max + min) / 2;
  if (max === min) return [0, 0, l];
  const d = max - min;
  const s = l > 0.5 ? d / (2 - max - min) : d / (max + min);
  const h = max === rs ? (gs - bs) / d + (gs < bs ? 6 : 0) : max === gs ? (bs - rs) / d + 2 : (rs - gs) / d + 4;
  return [h / 6, s, l];
}

function hslToRgb([h, s, l]: [number, number, number]): Rgb {
  if (s === 0) return [l * 255, l * 255, l * 255];
  const q = l < 0.5 ? l * (1 + s) : l + s - l * s;
  const p = 2 * l - q;
  const channel = (t: number) => {
    const u = t < 0 ? t + 1 : t > 1 ? t - 1 : t;
    if (u < 1 / 6) return p + (q - p) * 6 * u;
    if (u < 1 / 2) return q;
    if (u < 2 / 3) return p + (q - p) * (2 / 3 - u) * 6;
    return p;
  };
  return [channel(h + 1 / 3) * 255, channel(h) * 255, channel(h - 1 / 3) * 255];
}

/** The colour with its HSL lightness moved by `delta` (-1 to 1), clamped. */
export function shiftLightness(hex: string, delta: number): string {
  const [h, s, l] = rgbToHsl(hexToRgb(hex));
  return rgbToHex(hslToRgb([h, s, Math.min(1, Math.max(0, l + delta))]));
}

/** `weight` of `a` mixed into `b` in sRGB (0: all b, 1: all a), as a tint on a background looks. */
export function mix(a: string, b: string, weight: number): string {
  const [x, y] = [hexToRgb(a), hexToRgb(b)];
  return rgbToHex([0, 1, 2].map((i) => x[i] * weight + y[i] * (1 - weight)) as unknown as Rgb);
}

/**
 * The colour, made darker (or lighter) one lightness step at a time until it
 * reaches `ratio` against every one of `backgrounds`; unchanged when it already
 * does. Ends at black or white, which reach 4.5:1 on any light (or dark) background.
 */
export function withContrast(hex: string, backgrounds: string[], ratio: number, direction: 'darker' | 'lighter'): string {
  let colour = normalizeHex(hex) ?? hex;
  for (let step = 0; step < 100; step++) {
    if (backgrounds.every((bg) => contrast(colour, bg) >= ratio)) return colour;
    colour = shiftLightness(colour, direction === 'darker' ? -0.01 : 0.01);
  }
  return colour;
}

/** The near-black text Gatehouse uses on light fills (slate-950). */
export const INK = '#020617';

/**
 * Text for a filled background: white where it reaches 4.5:1 (WCAG 1.4.3 AA),
 * else Gatehouse's near-black where that does, else plain black (against black
 * or white every colour reaches at least √21 ≈ 4.58:1).
 */
export function readableOn(background: string): string {
  if (contrast('#ffffff', background) >= 4.5) return '#ffffff';
  if (contrast(INK, background) >= 4.5) return INK;
  return contrast('#000000', background) >= contrast('#ffffff', background) ? '#000000' : '#ffffff';
}
