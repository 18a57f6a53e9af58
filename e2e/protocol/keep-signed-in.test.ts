// runs-on: everywhere
// "Keep me signed in" on the login form: ticked, the session cookie lasts SESSION_TTL; unticked, it has no
// expiry (it ends with the browser) and the session ends after SESSION_IDLE_TTL without use.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { listSessionsOfAccount } from '../../lib/account/repository.ts';
import { database } from '../../lib/db/database.ts';
import { authorizeQuery, baseUrl, databaseUrl, makeClient, makeUser, pkce } from '../support/fixtures.ts';
import { credentials, TestBrowser } from '../support/browser.ts';

/** A browser that keeps every Set-Cookie it was sent, as sent. */
class RecordingBrowser extends TestBrowser {
  setCookies: string[] = [];
  override async request(input: string | URL, init: RequestInit = {}): Promise<Response> {
    const response = await super.request(input, init);
    this.setCookies.push(...response.headers.getSetCookie());
    return response;
  }
}

async function signIn(fields: Record<string, string>) {
  const user = await makeUser();
  const client = await makeClient({ firstParty: true });
  const browser = new RecordingBrowser(baseUrl);
  const { challenge } = await pkce();
  const login = await browser.navigate(new URL(`/oauth/authorize?${authorizeQuery(client, challenge)}`, baseUrl));
  const done = await browser.submit(await login.response.text(), '/login', { ...credentials(user), ...fields });
  assert.ok(done.location?.searchParams.get('code'), 'signed in and back at the client');
  const session = browser.setCookies.filter((c) => /^_session=/.test(c) && !/expires=Thu, 01 Jan 1970/i.test(c));
  assert.ok(session.length >= 1, `a session cookie was set: ${browser.setCookies.join(' | ')}`);
  const [stored] = await listSessionsOfAccount(database(databaseUrl), user.id, Date.now());
  return { cookie: session.at(-1)!, lifetime: stored.exp! - Math.floor(Date.now() / 1000) };
}

test('unticked: the session cookie has no Expires (a browser-session cookie) and the session ends after SESSION_IDLE_TTL without use', async () => {
  const { cookie, lifetime } = await signIn({});
  assert.doesNotMatch(cookie, /expires=|max-age=/i);
  assert.ok(Math.abs(lifetime - 3600) <= 5, `the default 60 minutes, got ${lifetime}s`);
});

test('ticked: the session cookie expires with the session, SESSION_TTL from now', async () => {
  const { cookie, lifetime } = await signIn({ remember: 'on' });
  const expires = /expires=([^;]+)/i.exec(cookie)?.[1];
  assert.ok(expires, cookie);
  const seconds = (new Date(expires).getTime() - Date.now()) / 1000;
  assert.ok(Math.abs(seconds - 14 * 86_400) <= 5, `14 days, got ${seconds}s`);
  assert.ok(Math.abs(lifetime - 14 * 86_400) <= 5);
});
