/**
 * The operator's brand (BRAND_* in lib/config/env.ts), read by every surface
 * from here: the root layout's colour variables and metadata, the sign-in card
 * and the portal's header (components/ui/brand.tsx), the provider's own pages
 * (lib/oidc/html.ts), the pages' Content-Security-Policy (the logo's origin),
 * and every mail (lib/mail/templates/layout.ts takes `mailBrand`).
 *
 * The accent colour is the operator's, used as given for filled buttons on
 * light pages (lightened to 3:1 against the dark ones); what is drawn on it and
 * what is drawn *with* it is derived so that it meets WCAG 2.2 AA in both schemes:
 * - text on the accent (and on its hover shade) is white or near-black,
 *   whichever reaches 4.5:1 (1.4.3; `readableOn`);
 * - the accent as text (links, the card's brand line, the current navigation
 *   item) is darkened on light and lightened on dark surfaces until it reaches
 *   4.5:1 against each of them (1.4.3), so it also exceeds 3:1 as a UI colour;
 * - the focus ring reaches 4.5:1 against the page and the card (1.4.11 asks
 *   3:1; more keeps it apart from the filled button it surrounds).
 */
import { contrast, mix, readableOn, shiftLightness, withContrast } from './colour.ts';
import { env, type Env } from './env.ts';

export type BrandSettings = Pick<Env, 'BRAND_NAME' | 'BRAND_ACCENT_COLOR' | 'BRAND_LOGO_URL' | 'BRAND_LOGO_FILE'>;

/**
 * The page and card backgrounds of each scheme. The same values as
 * app/globals.css gives `bg-slate-50` and `bg-white` there (keep them in step):
 * the derived shades are checked against them.
 */
export const SURFACES = {
  light: { page: '#f8fafc', card: '#ffffff' },
  dark: { page: '#020617', card: '#0f172a' },
} as const;

/** The path a BRAND_LOGO_FILE is served at (app/brand/logo/route.ts). */
export const LOGO_FILE_PATH = '/brand/logo';

/** The accent and its derived shades in one colour scheme; each is a `#rrggbb`. */
export interface AccentScheme {
  /** Filled: primary buttons. */
  accent: string;
  /** Text on `accent`. */
  onAccent: string;
  hover: string;
  onHover: string;
  /** A filled button while disabled (no contrast requirement: WCAG 1.4.3 exempts inactive controls). */
  muted: string;
  /** The accent as text: links, the brand line, the current navigation item; 4.5:1 on the page, the card and `soft`. */
  text: string;
  /** Focus rings and the border of a focused field; 4.5:1 on the page and the card (3:1 is the requirement). */
  ring: string;
  /** A tint behind accent text: the current navigation item, a chosen option, an accent badge. */
  soft: string;
}

export interface Brand {
  name: string;
  /** An image's URL, or none for the built-in gate mark (drawn inline in the accent colour). */
  logo?: { src: string /** Only for an https URL elsewhere: what img-src must allow. */; origin?: string };
  light: AccentScheme;
  dark: AccentScheme;
}

/**
 * One scheme's shades. On light surfaces the fill is the operator's colour as given (their brand,
 * chosen for white pages); on dark ones it is lightened, if need be, to 3:1 against the page and
 * the card, so a dark brand colour does not vanish into them (WCAG 1.4.11).
 */
function scheme(given: string, surfaces: { page: string; card: string }, toward: 'darker' | 'lighter'): AccentScheme {
  const accent = toward === 'lighter' ? withContrast(given, [surfaces.page, surfaces.card], 3, 'lighter') : given;
  const onAccent = readableOn(accent);
  // Hover moves away from the surface, unless that would flip the text's colour: then toward it.
  const hovers = [shiftLightness(accent, toward === 'darker' ? -0.07 : 0.07), shiftLightness(accent, toward === 'darker' ? 0.07 : -0.07)];
  const hover = hovers.find((h) => readableOn(h) === onAccent) ?? hovers[0];
  const soft = mix(accent, surfaces.card, toward === 'darker' ? 0.1 : 0.2);
  return {
    accent,
    onAccent,
    hover,
    onHover: readableOn(hover),
    muted: mix(accent, surfaces.card, 0.55),
    text: withContrast(accent, [surfaces.page, surfaces.card, soft], 4.5, toward),
    // 4.5:1, past 1.4.11's 3:1, so the ring also stands apart from a filled button it surrounds.
    ring: withContrast(accent, [surfaces.page, surfaces.card], 4.5, toward),
    soft,
  };
}

/** The brand of these settings (pure: the unit tests give their own). */
export function brandFrom(settings: BrandSettings): Brand {
  const accent = settings.BRAND_ACCENT_COLOR;
  const url = settings.BRAND_LOGO_URL;
  const logo = settings.BRAND_LOGO_FILE
    ? { src: LOGO_FILE_PATH }
    : url
      ? { src: url, origin: url.startsWith('https:') ? new URL(url).origin : undefined }
      : undefined;
  return {
    name: settings.BRAND_NAME,
    logo,
    light: scheme(accent, SURFACES.light, 'darker'),
    dark: scheme(accent, SURFACES.dark, 'lighter'),
  };
}

/** Gatehouse's own brand, what the defaults of BRAND_* give (for tests and tools without an environment). */
export const DEFAULT_BRAND = brandFrom({ BRAND_NAME: 'Gatehouse', BRAND_ACCENT_COLOR: '#4f46e5', BRAND_LOGO_URL: undefined, BRAND_LOGO_FILE: undefined });

let cached: { settings: BrandSettings; brand: Brand } | undefined;

/** The server's brand, from its environment (derived once). */
export function brand(): Brand {
  const settings = env();
  if (cached?.settings !== settings) cached = { settings, brand: brandFrom(settings) };
  return cached.brand;
}

const variables = (s: AccentScheme) =>
  `--brand-accent:${s.accent};--brand-on-accent:${s.onAccent};--brand-accent-hover:${s.hover};--brand-on-accent-hover:${s.onHover};` +
  `--brand-accent-muted:${s.muted};--brand-accent-text:${s.text};--brand-accent-ring:${s.ring};--brand-accent-soft:${s.soft}`;

/**
 * The brand's CSS custom properties for both schemes, which app/globals.css
 * turns into Tailwind's `accent` colours. Only validated `#rrggbb` values go in.
 */
export function brandCss(b: Brand): string {
  return `:root{${variables(b.light)}}@media (prefers-color-scheme:dark){:root{${variables(b.dark)}}}`;
}

/** The origins images may come from besides this server's own (CSP img-src). */
export const imageOrigins = (b: Brand): string[] => (b.logo?.origin ? [b.logo.origin] : []);

/** What a mail needs of the brand: its name and the accent (mails load nothing, so no logo). */
export interface MailBrand {
  name: string;
  accent: string;
}

export const mailBrand = (settings: Pick<Env, 'BRAND_NAME' | 'BRAND_ACCENT_COLOR'>): MailBrand => ({
  name: settings.BRAND_NAME,
  accent: settings.BRAND_ACCENT_COLOR,
});

/** A scheme's contrast figures: the tests hold every scheme to WCAG's contrast minimums with them. */
export function schemeContrast(s: AccentScheme, surfaces: { page: string; card: string }) {
  return {
    onAccent: contrast(s.onAccent, s.accent),
    onHover: contrast(s.onHover, s.hover),
    text: Math.min(contrast(s.text, surfaces.page), contrast(s.text, surfaces.card), contrast(s.text, s.soft)),
    ring: Math.min(contrast(s.ring, surfaces.page), contrast(s.ring, surfaces.card)),
  };
}
