// The provider's own pages: plain words in the person's language, a way back only where it is safe, the request id, the protocol's words as a detail.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { DEFAULT_BRAND } from '../config/brand.ts';
import { providerPages } from './html.ts';
import { errorKind, renderErrorPage, renderLogoutPage } from './provider-pages.ts';
import { appOrigin } from './return-link.ts';

const settings = { pages: providerPages(DEFAULT_BRAND), brandName: 'Gatehouse', defaultLocale: 'en' as const };
const registered = { clientId: 'shop', clientName: 'The Shop', redirectUris: ['https://shop.example/cb', 'com.example.shop:/cb'] };

/** A provider context as renderError sees it: headers, the parsed parameters, maybe the resumed interaction. */
function context({
  headers = {},
  params,
  interaction,
  client,
}: {
  headers?: Record<string, string>;
  params?: Record<string, string>;
  interaction?: Record<string, string>;
  client?: typeof registered;
} = {}) {
  const ctx = {
    type: '',
    body: '',
    query: {},
    get: (name: string) => headers[name.toLowerCase()] ?? '',
    oidc: {
      params,
      client,
      entities: interaction ? { Interaction: { params: interaction } } : {},
      provider: { Client: { find: async (id: string) => (id === registered.clientId ? registered : undefined) } },
    },
  };
  return ctx as unknown as KoaContextWithOIDC & { body: string };
}

const notFound = Object.assign(new Error('interaction session not found'), { name: 'SessionNotFound' });

test('the protocol code names what the person is told', () => {
  assert.equal(errorKind('invalid_client', 'InvalidClient'), 'invalid_client');
  assert.equal(errorKind('invalid_redirect_uri', 'InvalidRedirectUri'), 'invalid_redirect_uri');
  assert.equal(errorKind('invalid_request', 'SessionNotFound'), 'expired');
  assert.equal(errorKind('server_error', 'Error'), 'server_error');
  assert.equal(errorKind('invalid_request', 'InvalidRequest'), 'other');
});

test('an unknown client: plain words, no link, the request id, the code only inside <details>', async () => {
  const ctx = context({ headers: { 'x-request-id': 'req-123' }, params: { client_id: 'nobody', redirect_uri: 'https://evil.example/cb' } });
  await renderErrorPage(settings, ctx, { error: 'invalid_client', error_description: 'client is invalid' }, new Error('x'));
  const html = ctx.body;
  assert.match(html, /<html lang="en">/);
  assert.match(html, /<h1>This sign-in link is not from a known app<\/h1>/);
  assert.match(html, /Go back to the app you came from/);
  assert.doesNotMatch(html, /<a /, 'no link anywhere');
  assert.match(html, /give them this request id: <code>req-123<\/code>/);
  const details = /<details>.*<\/details>/s.exec(html)?.[0] ?? '';
  assert.match(details, /<code>invalid_client<\/code>/);
  assert.match(details, /client is invalid/);
  assert.doesNotMatch(html.replace(details, ''), /invalid_client|client is invalid/, 'the protocol words only in the details');
});

test('a disabled client: the page says the app is disabled, not that it is unknown; still no link', async () => {
  const disabled = { ...settings, clientDisabled: async (id: string) => id === 'paused' };
  const ctx = context({ params: { client_id: 'paused', redirect_uri: 'https://paused.example/cb' } });
  await renderErrorPage(disabled, ctx, { error: 'invalid_client', error_description: 'client is invalid' }, new Error('x'));
  assert.match(ctx.body, /<h1>This app is disabled<\/h1>/);
  assert.match(ctx.body, /turned off sign-in to this app/);
  assert.doesNotMatch(ctx.body, /not registered/);
  assert.doesNotMatch(ctx.body, /<a /, 'no link anywhere');
  const unknown = context({ params: { client_id: 'nobody' } });
  await renderErrorPage(disabled, unknown, { error: 'invalid_client', error_description: 'client is invalid' }, new Error('x'));
  assert.match(unknown.body, /<h1>This sign-in link is not from a known app<\/h1>/);
});

test("a server_error page gives the request id in place of the provider's 'oops! something went wrong'", async () => {
  const ctx = context({ headers: { 'x-request-id': 'req-500' } });
  await renderErrorPage(settings, ctx, { error: 'server_error', error_description: 'oops! something went wrong' }, new Error('db down'));
  assert.match(ctx.body, /<code>req-500<\/code>/);
  assert.match(ctx.body, /an unexpected error occurred \(request id req-500\)/);
  assert.doesNotMatch(ctx.body, /oops|db down/);
});

test('an unregistered redirect_uri of a known client is a stop too, never a link to it', async () => {
  const ctx = context({ params: { client_id: 'shop', redirect_uri: 'https://evil.example/cb' }, client: registered });
  await renderErrorPage(settings, ctx, { error: 'invalid_redirect_uri', error_description: 'redirect_uri did not match' }, new Error('x'));
  assert.match(ctx.body, /stopped here so that nothing about your account goes there/);
  assert.doesNotMatch(ctx.body, /<a |evil\.example/);
});

test('a lost interaction whose client and redirect_uri are registered links back to the application, in German when asked', async () => {
  const ctx = context({
    headers: { 'accept-language': 'de-DE,de;q=0.9' },
    interaction: { client_id: 'shop', redirect_uri: 'https://shop.example/cb' },
  });
  await renderErrorPage(settings, ctx, { error: 'invalid_request', error_description: 'interaction session not found' }, notFound);
  assert.match(ctx.body, /<html lang="de">/);
  assert.match(ctx.body, /<h1>Diese Anmeldeanfrage ist abgelaufen<\/h1>/);
  assert.match(ctx.body, /<a class="button" href="https:\/\/shop\.example\/">Zurück zu The Shop<\/a>/);
});

test('ui_locales comes before Accept-Language; a redirect_uri not registered for the client gives no link', async () => {
  const ctx = context({ headers: { 'accept-language': 'en' }, params: { ui_locales: 'de', client_id: 'shop', redirect_uri: 'https://other.example/cb' } });
  await renderErrorPage(settings, ctx, { error: 'invalid_request', error_description: 'x' }, notFound);
  assert.match(ctx.body, /<html lang="de">/);
  assert.doesNotMatch(ctx.body, /<a /);
});

test('the logout confirmation in the request’s language', () => {
  const ctx = context({ params: { ui_locales: 'de' }, client: registered });
  renderLogoutPage(settings, ctx, '<form id="op.logoutForm"></form>');
  assert.match(ctx.body, /<html lang="de">/);
  assert.match(ctx.body, /Von Gatehouse abmelden\?/);
  assert.match(ctx.body, /The Shop hat darum gebeten/);
});

test('the portal asking with the signed-in person’s ID token: no question, the form confirms itself under a policy allowing that script alone', () => {
  const portal = { ...registered, clientId: 'gatehouse-portal', clientName: 'Gatehouse account portal' };
  const hint = (sub: string, aud = 'gatehouse-portal') => ({ IdTokenHint: { payload: { sub, aud } } });
  const page = (entities: object, accountId = 'u1') => {
    const headers = new Map([['content-security-policy', "default-src 'none'; script-src 'none'; style-src 'sha256-x'"]]);
    const ctx = context({ client: portal }) as unknown as Record<string, unknown> & { oidc: Record<string, unknown>; body: string };
    Object.assign(ctx.oidc, { entities, session: { accountId } });
    Object.assign(ctx, { response: { get: (name: string) => headers.get(name) }, set: (name: string, value: string) => headers.set(name, value) });
    renderLogoutPage(
      settings,
      ctx as unknown as KoaContextWithOIDC,
      '<form id="op.logoutForm" method="post" action="/oauth/logout/confirm"><input type="hidden" name="xsrf" value="s"/></form>',
    );
    return { body: ctx.body, policy: headers.get('content-security-policy') ?? '' };
  };
  const own = page(hint('u1'));
  assert.match(own.body, /Signing you out of Gatehouse/);
  assert.match(own.body, /name="xsrf" value="s"\/><input type="hidden" name="logout" value="yes"\/><\/form>/, 'the session’s xsrf secret still goes with it');
  assert.match(own.policy, /script-src 'sha256-[A-Za-z0-9+/=]+';/);
  assert.doesNotMatch(own.policy, /script-src 'none'/);
  for (const [why, other] of [
    ['another person’s token', page(hint('u2'))],
    ['no token', page({})],
    ['a token for another app', page(hint('u1', 'shop'))],
  ] as const) {
    assert.match(other.body, /Sign out of Gatehouse\?/, why);
    assert.match(other.policy, /script-src 'none'/, why);
  }
});

test('appOrigin: only a registered http(s) redirect URI, as its origin', () => {
  assert.equal(appOrigin(registered.redirectUris, 'https://shop.example/cb'), 'https://shop.example/');
  assert.equal(appOrigin(registered.redirectUris, 'com.example.shop:/cb'), undefined);
  assert.equal(appOrigin(registered.redirectUris, 'https://shop.example/cb/'), undefined);
  assert.equal(appOrigin(registered.redirectUris, undefined), undefined);
  assert.equal(appOrigin(undefined, 'https://shop.example/cb'), undefined);
});
