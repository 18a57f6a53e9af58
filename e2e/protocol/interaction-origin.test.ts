// runs-on: mounts
// The sign-in pages' form posts are taken from Gatehouse's own pages only: a post whose Origin is another site's,
// or that names none (browsers send it on every form post), gets a 403 page in the person's language, and
// changes nothing: the same sign-in goes on from the browser's own page.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { credentials, TestBrowser } from '../support/browser.ts';
import { authorizationRequest, baseUrl, makeClient, makeUser } from '../support/fixtures.ts';

/** Every form target under /interaction/{uid} (app/interaction/[uid]/<step>/route.ts). */
const STEPS = [
  'login',
  'confirm',
  'abort',
  'another-account',
  'select-account',
  'continue',
  'restart',
  'resend',
  'second-factor',
  'passkey',
  'code',
  'email-code',
  'email-code/verify',
  'email-code/cancel',
];

const text = (html: string) =>
  html
    .replace(/<style[\s\S]*?<\/style>|<svg[\s\S]*?<\/svg>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ')
    .trim();

test('a post from another site or from nowhere: 403 with a page saying so and the way back, for every step; the sign-in then goes on', async () => {
  const user = await makeUser();
  const client = await makeClient();
  const browser = new TestBrowser(baseUrl);
  const login = await browser.navigate((await authorizationRequest(client)).url);
  const page = login.url.pathname;
  for (const step of STEPS) {
    for (const origin of [undefined, 'https://evil.example', 'null', `${new URL(baseUrl).origin}.evil.example`]) {
      const answer = await browser.request(`${page}/${step}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'en', ...(origin ? { origin } : {}) },
        body: new URLSearchParams(credentials(user)).toString(),
      });
      const what = `${step} from ${origin ?? 'no Origin'}`;
      assert.equal(answer.status, 403, what);
      assert.match(answer.headers.get('content-type') ?? '', /^text\/html/, what);
      const html = await answer.text();
      assert.match(text(html), /This form did not come from Gatehouse's own page/, what);
      assert.ok(html.includes(`href="${page}"`), `${what}: the way back to the sign-in page`);
      // Its one inline style runs under the page policy the answer carries.
      const nonce = /'nonce-([^']+)'/.exec(answer.headers.get('content-security-policy') ?? '')?.[1];
      assert.ok(nonce && html.includes(`<style nonce="${nonce}">`), `${what}: the style carries the policy's nonce`);
    }
  }
  const signedIn = await browser.submit(await login.response.text(), '/login', credentials(user));
  assert.ok(signedIn.location ?? signedIn.url.pathname.startsWith('/interaction/'), 'the refused posts left the sign-in going');
  assert.doesNotMatch(await signedIn.response.text(), /expired|not right/i);
});

test('the 403 page is in the language the browser asks for', async () => {
  const client = await makeClient();
  const browser = new TestBrowser(baseUrl);
  const login = await browser.navigate((await authorizationRequest(client)).url);
  const answer = await browser.request(`${login.url.pathname}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'de-DE,de;q=0.9', origin: 'https://evil.example' },
    body: 'username=a&password=b',
  });
  assert.equal(answer.status, 403);
  const html = await answer.text();
  assert.match(html, /<html lang="de"/);
  assert.match(text(html), /Dieses Formular kam nicht von einer Seite von Gatehouse/);
  assert.match(text(html), /Zurück zur Anmeldeseite/);
});
