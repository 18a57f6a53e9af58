import assert from 'node:assert/strict';
import { test } from 'node:test';
import type Provider from 'oidc-provider';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { DEFAULT_BRAND } from '../config/brand.ts';
import { devicePageSettings, userCodeInputSource, useUserCodeThrottle } from './device-pages.ts';

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
