// The brand settings and what the pages derive from the accent: colour parsing, the WCAG
// contrast of every derived shade in both schemes, and the start-up errors of bad settings.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { brandCss, brandFrom, DEFAULT_BRAND, imageOrigins, LOGO_FILE_PATH, mailBrand, schemeContrast, SURFACES } from './brand.ts';
import { LOGO_MAX_BYTES, readLogoFile, sniffImageType } from './brand-logo.ts';
import { contrast, normalizeHex, readableOn } from './colour.ts';
import { parseEnv } from './env.ts';
import { GATE_MARK_PATH } from './gate-mark.ts';

const settings = (accent: string, more: { BRAND_LOGO_URL?: string; BRAND_LOGO_FILE?: string } = {}) =>
  brandFrom({ BRAND_NAME: 'Acme ID', BRAND_ACCENT_COLOR: accent, BRAND_LOGO_URL: undefined, BRAND_LOGO_FILE: undefined, ...more });

test('hex colours: #rgb and #rrggbb, with or without #, any case; nothing else', () => {
  assert.equal(normalizeHex('#4F46E5'), '#4f46e5');
  assert.equal(normalizeHex('0af'), '#00aaff');
  assert.equal(normalizeHex(' #123456 '), '#123456');
  for (const bad of ['', '#12345', '#gggggg', 'red', 'rgb(0,0,0)', '#1234567', '#12']) assert.equal(normalizeHex(bad), undefined, bad);
});

test('contrast ratios are WCAG 2.2 figures', () => {
  assert.equal(contrast('#000000', '#ffffff'), 21);
  assert.equal(contrast('#777777', '#777777'), 1);
  assert.equal(contrast('#767676', '#ffffff').toFixed(2), '4.54'); // the classic lightest AA grey on white
});

test('text on a fill: white where it reaches 4.5:1, otherwise dark', () => {
  assert.equal(readableOn('#4f46e5'), '#ffffff');
  assert.equal(readableOn('#facc15'), '#020617'); // yellow
  assert.equal(readableOn('#777777'), '#020617'); // mid grey: white gives only 4.48:1
  for (const fill of ['#808080', '#7a7a7a', '#ff0000', '#00ff00', '#0000ff', '#ffffff', '#000000', '#e11d48'])
    assert.ok(contrast(readableOn(fill), fill) >= 4.5, fill);
});

test('every derived shade meets WCAG AA in both schemes, whatever the accent', () => {
  const accents = ['#4f46e5', '#000000', '#ffffff', '#111111', '#facc15', '#f59e0b', '#0ea5e9', '#10b981', '#e11d48', '#7c3aed', '#808080', '#1e293b'];
  for (const accent of accents) {
    const brand = settings(accent);
    for (const [name, scheme] of [
      ['light', brand.light],
      ['dark', brand.dark],
    ] as const) {
      const figures = schemeContrast(scheme, SURFACES[name]);
      assert.ok(figures.onAccent >= 4.5, `${accent} ${name}: text on the accent ${figures.onAccent}`);
      assert.ok(figures.onHover >= 4.5, `${accent} ${name}: text on hover ${figures.onHover}`);
      assert.ok(figures.text >= 4.5, `${accent} ${name}: accent as text ${figures.text}`);
      assert.ok(figures.ring >= 4.5, `${accent} ${name}: focus ring ${figures.ring}`);
    }
    // Dark: the fill itself stands out from the page and the card.
    assert.ok(contrast(brand.dark.accent, SURFACES.dark.card) >= 3, `${accent}: dark fill`);
  }
});

test("the light scheme's fill is the operator's colour as given; the hover keeps the text's colour", () => {
  const brand = settings('#e11d48');
  assert.equal(brand.light.accent, '#e11d48');
  assert.equal(brand.light.onAccent, brand.light.onHover);
  assert.equal(DEFAULT_BRAND.light.accent, '#4f46e5');
  assert.equal(DEFAULT_BRAND.dark.onAccent, DEFAULT_BRAND.dark.onHover);
});

test('the CSS carries both schemes and nothing but the derived colours', () => {
  const css = brandCss(settings('#0ea5e9'));
  assert.match(css, /^:root\{--brand-accent:#0ea5e9;/);
  assert.match(css, /@media \(prefers-color-scheme:dark\)\{:root\{--brand-accent:#[0-9a-f]{6};/);
  assert.deepEqual(css.replace(/#[0-9a-f]{6}/g, '').match(/[^-a-z:;{}()@ ]/g), null, css);
});

test('logo: none (the gate mark), a path here, an https URL whose origin the CSP allows, or the file served at /brand/logo', () => {
  assert.equal(settings('#000').logo, undefined);
  assert.deepEqual(settings('#000', { BRAND_LOGO_URL: '/logo.svg' }).logo, { src: '/logo.svg', origin: undefined });
  const remote = settings('#000', { BRAND_LOGO_URL: 'https://cdn.acme.example/brand/logo.png' });
  assert.deepEqual(imageOrigins(remote), ['https://cdn.acme.example']);
  assert.deepEqual(settings('#000', { BRAND_LOGO_FILE: '/etc/acme/logo.svg' }).logo, { src: LOGO_FILE_PATH });
  assert.deepEqual(mailBrand({ BRAND_NAME: 'Acme ID', BRAND_ACCENT_COLOR: '#0ea5e9' }), { name: 'Acme ID', accent: '#0ea5e9' });
});

test('environment: safe defaults, and a bad value stops the start with a message naming it', () => {
  const defaults = parseEnv({});
  assert.equal(defaults.BRAND_NAME, 'Gatehouse');
  assert.equal(defaults.BRAND_ACCENT_COLOR, '#4f46e5');
  assert.equal(defaults.BRAND_LOGO_URL, undefined);
  assert.equal(parseEnv({ BRAND_ACCENT_COLOR: '0EA5E9', BRAND_NAME: '  Acme ID ' }).BRAND_ACCENT_COLOR, '#0ea5e9');
  assert.equal(parseEnv({ BRAND_NAME: '  Acme ID ' }).BRAND_NAME, 'Acme ID');
  const refused: Array<[Record<string, string>, RegExp]> = [
    [{ BRAND_ACCENT_COLOR: 'blue' }, /BRAND_ACCENT_COLOR: BRAND_ACCENT_COLOR must be a hex colour such as #4f46e5 \(got "blue"\)/],
    [{ BRAND_ACCENT_COLOR: '#12345' }, /BRAND_ACCENT_COLOR/],
    [{ BRAND_NAME: '   ' }, /BRAND_NAME: BRAND_NAME must not be empty/],
    [{ BRAND_NAME: 'Acme\nBcc: x@evil.example' }, /BRAND_NAME must be one line/],
    [{ BRAND_LOGO_URL: 'http://cdn.acme.example/logo.png' }, /BRAND_LOGO_URL must be an https:\/\/ URL or a path/],
    [{ BRAND_LOGO_URL: '//cdn.acme.example/logo.png' }, /BRAND_LOGO_URL/],
    [{ BRAND_LOGO_URL: '/../etc/passwd' }, /BRAND_LOGO_URL/],
    [{ BRAND_LOGO_URL: 'javascript:alert(1)' }, /BRAND_LOGO_URL/],
    [{ BRAND_LOGO_FILE: '/etc/passwd' }, /BRAND_LOGO_FILE must name an \.svg, \.png, \.webp or \.jpg file/],
    [{ BRAND_LOGO_FILE: '/srv/logo.png', BRAND_LOGO_URL: '/logo.svg' }, /set BRAND_LOGO_URL or BRAND_LOGO_FILE, not both/],
  ];
  for (const [source, message] of refused) assert.throws(() => parseEnv(source), message, JSON.stringify(source));
});

test('logo file: read when it is an image of at most 256 kB, refused with its reason otherwise', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-logo-'));
  const file = (name: string, content: string | Uint8Array) => {
    writeFileSync(join(dir, name), content);
    return join(dir, name);
  };
  const svg = file('logo.svg', '<?xml version="1.0"?>\n<!-- Acme -->\n<svg xmlns="http://www.w3.org/2000/svg"/>');
  assert.equal((await readLogoFile(svg)).type, 'image/svg+xml');
  const png = file('logo.png', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]));
  assert.equal((await readLogoFile(png)).type, 'image/png');
  assert.equal(sniffImageType(new TextEncoder().encode('RIFF\0\0\0\0WEBPVP8 ')), 'image/webp');
  assert.equal(sniffImageType(new Uint8Array([0xff, 0xd8, 0xff, 0xe0])), 'image/jpeg');
  await assert.rejects(readLogoFile(file('page.svg', '<html><script>alert(1)</script></html>')), /is not an SVG, PNG, WebP or JPEG image/);
  await assert.rejects(readLogoFile(file('big.svg', `<svg>${' '.repeat(LOGO_MAX_BYTES)}</svg>`)), /a logo may have at most 262144/);
  await assert.rejects(readLogoFile(join(dir, 'missing.svg')), /BRAND_LOGO_FILE: cannot read .*missing\.svg \(ENOENT\)/);
  await assert.rejects(readLogoFile(dir), /is not a file/);
});

test('public/logo.svg and public/favicon.svg draw the gate mark the pages draw inline', () => {
  for (const name of ['logo.svg', 'favicon.svg']) assert.ok(readFileSync(join('public', name), 'utf8').includes(`d="${GATE_MARK_PATH}"`), name);
});
