import assert from 'node:assert/strict';
import { test } from 'node:test';
import type Provider from 'oidc-provider';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { DEFAULT_BRAND } from '../config/brand.ts';
import QRCode from 'qrcode';
import { devicePageSettings, userCodeConfirmSource, userCodeInputSource, useUserCodeThrottle } from './device-pages.ts';

type Middleware = (ctx: KoaContextWithOIDC, next: () => Promise<void>) => Promise<void>;

function fakeContext(method: string, path: string, headers: Record<string, string> = {}) {
  const set: Record<string, string> = {};
  const ctx = {
    method,
    path,
    query: {},
    status: 200,
    body: undefined as unknown,
    type: '',
    cookies: { get: () => undefined },
    get: (name: string) => headers[name.toLowerCase()] ?? '',
    set: (name: string, value: string) => {
      set[name] = value;
    },
    oidc: { urlFor: () => 'http://localhost/oauth/device', session: { state: { secret: 'xsrf-secret' } }, params: {} },
  };
  return { ctx: ctx as unknown as KoaContextWithOIDC & { body: string }, set };
}

const settings = devicePageSettings(DEFAULT_BRAND, 'en');

test('a source that must wait is refused before the code is looked up: 429, Retry-After, in its language', async () => {
  let middleware: Middleware | undefined;
  const provider = { use: (fn: Middleware) => void (middleware = fn) } as unknown as Provider;
  useUserCodeThrottle(provider, '/oauth/device', settings, {
    beforeLinkCheck: async () => ({ allowed: false, reason: 'delay', retryAfterSeconds: 120 }) as never,
  });
  const { ctx, set } = fakeContext('POST', '/oauth/device', { 'accept-language': 'de' });
  let passed = false;
  await middleware!(ctx, async () => void (passed = true));
  assert.equal(passed, false);
  assert.equal(ctx.status, 429);
  assert.equal(set['Retry-After'], '120');
  assert.match(ctx.body, /Zu viele falsche Codes/);
  assert.match(ctx.body, /2 Minuten/);
});

test('other requests, and a source that may try, pass on', async () => {
  let middleware: Middleware | undefined;
  let asked = 0;
  const provider = { use: (fn: Middleware) => void (middleware = fn) } as unknown as Provider;
  useUserCodeThrottle(provider, '/oauth/device', settings, {
    beforeLinkCheck: async () => {
      asked++;
      return { allowed: true };
    },
  });
  for (const [method, path] of [
    ['GET', '/oauth/device'],
    ['POST', '/oauth/token'],
    ['POST', '/oauth/device'],
  ]) {
    let passed = false;
    await middleware!(fakeContext(method, path).ctx, async () => void (passed = true));
    assert.ok(passed, `${method} ${path}`);
  }
  assert.equal(asked, 1, 'only the code lookup is checked');
});

test('a wrong code counts against the source; an expired or used one does not', async () => {
  const failed: (string | null)[] = [];
  const render = userCodeInputSource(settings, {
    linkFailed: async (ip) => {
      failed.push(ip);
      return { locked: false };
    },
  });
  const wrong = Object.assign(new Error('the code was not found'), { name: 'NotFoundError', userCode: 'BCDF-GHJK' });
  const { ctx } = fakeContext('POST', '/oauth/device');
  await render(ctx, '', undefined, wrong);
  assert.equal(failed.length, 1);
  assert.match(ctx.body, /role="alert"/);
  assert.match(ctx.body, /value="BCDF-GHJK"/);
  assert.match(ctx.body, /name="xsrf" value="xsrf-secret"/);
  await render(fakeContext('POST', '/oauth/device').ctx, '', undefined, Object.assign(new Error('expired'), { name: 'ExpiredError', userCode: 'X' }));
  assert.equal(failed.length, 1);
});

test("the confirmation shows the QR code of verification_uri_complete, drawn inline, with its caption in the page's language", async () => {
  const expected = await QRCode.toString('http://localhost/oauth/device?user_code=BCDF-GHJK', { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  for (const [language, caption] of [
    ['en', /Or scan this code with your phone/],
    ['de', /Oder scannen Sie diesen Code/],
  ] as const) {
    const { ctx } = fakeContext('GET', '/oauth/device', { 'accept-language': language });
    await userCodeConfirmSource(settings)(ctx, '', { clientId: 'tv', clientName: 'Living Room TV' }, undefined, 'BCDF-GHJK');
    const figure = /<figure class="qr">(<svg[\s\S]*<\/svg>)<figcaption>([^<]*)<\/figcaption><\/figure>/.exec(ctx.body);
    assert.ok(figure, ctx.body.slice(-800));
    assert.equal(figure[1].replace(' aria-hidden="true" focusable="false"', ''), expected.trim(), 'the code of the page with the code filled in');
    assert.match(figure[2], caption);
    assert.doesNotMatch(ctx.body, /<img /, 'no image fetched from anywhere');
  }
});
