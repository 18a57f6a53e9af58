// runs-on: mounts
// Dead ends a person can meet, over HTTP: plain words in their language, a way back only where it is safe, the request id, the protocol code as a detail.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TestBrowser } from '../support/browser.ts';
import { authorizationRequest, baseUrl, makeClient, redirectUri } from '../support/fixtures.ts';

/** The page's text without the markup, for what a person reads. */
const text = (html: string) =>
  html
    .replace(/<style>.*?<\/style>/gs, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ');
/** The page outside its <details>: what a person sees before asking for the technical details. */
const withoutDetails = (html: string) => html.replace(/<details>.*?<\/details>/gs, '');
const links = (html: string) => [...html.matchAll(/<a [^>]*href="([^"]+)"/g)].map((m) => m[1]);

async function authorizeUrl(clientId: string, overrides: Record<string, string> = {}) {
  const url = new URL('/oauth/authorize', baseUrl);
  url.search = new URLSearchParams({
    client_id: clientId,
    response_type: 'code',
    redirect_uri: redirectUri,
    scope: 'openid',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
    ...overrides,
  }).toString();
  return url;
}

test('an unknown client: what happened in plain words, no link, the request id of the answer, the code only as a detail', async () => {
  const response = await fetch(await authorizeUrl('no-such-client'), { redirect: 'manual' });
  assert.equal(response.status, 400);
  const html = await response.text();
  const requestId = response.headers.get('x-request-id');
  assert.ok(requestId);
  assert.match(html, /<html lang="en">/);
  assert.match(text(html), /This sign-in link is not from a known app/);
  assert.match(text(html), /Go back to the app you came from and try again/);
  assert.match(html, new RegExp(`<code>${requestId}</code>`));
  assert.deepEqual(links(html), [], 'a clear stop: nowhere to be sent');
  assert.match(html, /<details><summary>Technical details<\/summary><p><code>invalid_client<\/code>/);
  assert.doesNotMatch(withoutDetails(html), /invalid_client|client is invalid/);
});

test('an unregistered redirect_uri: a stop in the browser’s language, never a link to that address', async () => {
  const client = await makeClient();
  const response = await fetch(await authorizeUrl(client.id, { redirect_uri: 'https://evil.example/callback' }), {
    redirect: 'manual',
    headers: { 'accept-language': 'de-CH, en;q=0.5' },
  });
  assert.equal(response.status, 400);
  const html = await response.text();
  assert.match(html, /<html lang="de">/);
  assert.match(text(html), /Diese Anmeldung wurde zu Ihrem Schutz angehalten/);
  assert.match(text(html), /Anfrage-ID/);
  assert.deepEqual(links(html), []);
  assert.doesNotMatch(withoutDetails(html), /evil\.example/);
  assert.match(html, /<code>invalid_redirect_uri<\/code>/);
});

test('ui_locales of the request picks the language of the provider’s error page', async () => {
  const response = await fetch(await authorizeUrl('no-such-client', { ui_locales: 'de' }), { redirect: 'manual', headers: { 'accept-language': 'en' } });
  assert.match(await response.text(), /<html lang="de">/);
});

test('an interaction opened in another browser: expired, with a link back to the application’s registered origin and the request id', async () => {
  const client = await makeClient();
  const { url } = await authorizationRequest(client);
  const login = await new TestBrowser(baseUrl).navigate(url);
  const stranger = await fetch(login.url);
  const html = await stranger.text();
  assert.match(text(html), /This sign-in request has expired/);
  assert.match(text(html), new RegExp(`Go back to ${client.name} and sign in again`));
  assert.deepEqual(links(html), ['http://127.0.0.1:9/']);
  assert.ok(html.includes(stranger.headers.get('x-request-id')!), 'the request id of the answer is on the page');
});

test('a form sent after its request expired comes back with the application to return to, checked against the registration', async () => {
  const client = await makeClient();
  const post = (fields: Record<string, string>) =>
    fetch(new URL('/interaction/gone-for-good/login', baseUrl), {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(baseUrl).origin },
      body: new URLSearchParams({ username: 'a', password: 'b', ...fields }).toString(),
    });
  const expired = await post({ client_id: client.id, redirect_uri: redirectUri });
  assert.equal(expired.status, 303);
  const location = new URL(expired.headers.get('location')!);
  assert.equal(location.searchParams.get('error'), 'expired');
  const page = await (await fetch(location)).text();
  assert.deepEqual(links(page), ['http://127.0.0.1:9/']);
  assert.match(text(page), new RegExp(`Back to ${client.name}`));

  // A redirect_uri the client did not register (or an unknown client) is no way back: a clear stop.
  for (const fields of [
    { client_id: client.id, redirect_uri: 'https://evil.example/callback' },
    { client_id: 'no-such-client', redirect_uri: redirectUri },
  ]) {
    const refused = await post(fields);
    const again = await (await fetch(new URL(refused.headers.get('location')!))).text();
    assert.deepEqual(links(again), [], JSON.stringify(fields));
    assert.match(text(again), /Go back to the app you came from and sign in again/);
  }
});

test('resuming an authorization request without its cookie: the provider’s expired page, no link', async () => {
  const response = await fetch(new URL('/oauth/authorize/not-a-real-uid', baseUrl), { redirect: 'manual' });
  assert.equal(response.status, 400);
  const html = await response.text();
  assert.match(text(html), /This sign-in request has expired/);
  assert.deepEqual(links(html), []);
  assert.match(html, /<code>invalid_request<\/code>/);
});

test('the 404 page in the browser’s language, <html lang> too, with the request id', async () => {
  const response = await fetch(new URL('/no-such-page', baseUrl), { headers: { 'accept-language': 'de' } });
  assert.equal(response.status, 404);
  const html = await response.text();
  assert.match(html, /<html lang="de"/);
  assert.match(html, /Seite nicht gefunden/);
  assert.ok(html.includes(response.headers.get('x-request-id')!));
});
