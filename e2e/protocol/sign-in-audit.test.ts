// runs-on: stores
// alone: counts the failed sign-ins of unknown names from 127.0.0.1 since it began: other files make some
// Failed sign-ins in the audit log over HTTP: a flood of unknown usernames is not a flood of entries, and nothing typed for them is kept.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import * as oidc from 'openid-client';
import { database } from '../../lib/db/database.ts';
import { listAuditEvents } from '../../lib/audit/repository.ts';
import { TestBrowser } from '../support/browser.ts';
import { baseUrl, databaseUrl, discover, makeClient, makeUser, pkce, redirectUri } from '../support/fixtures.ts';

/** Posts the login form of one authorization request `tries` times with the given credentials. */
async function failSignIns(tries: Array<{ username: string; password: string }>) {
  const client = await makeClient();
  const config = await discover(client);
  const { challenge } = await pkce();
  const browser = new TestBrowser(baseUrl);
  let page = await browser.navigate(
    oidc.buildAuthorizationUrl(config, { redirect_uri: redirectUri, scope: 'openid', code_challenge: challenge, code_challenge_method: 'S256' }),
  );
  for (const credentials of tries) {
    const html = await page.response.text();
    page = await browser.submit(html, '/login', credentials);
    assert.equal(page.location, undefined, 'refused');
  }
  return client;
}

async function signInFailuresSince(since: Date) {
  const { events } = await listAuditEvents(database(databaseUrl), { actions: ['sign_in.failed'], from: since }, { skip: 0, take: 200 });
  return events;
}

test('twenty sign-ins with unknown usernames from one address leave at most one entry, and none of what was typed', async () => {
  const since = new Date(Date.now() - 1);
  const typed = Array.from({ length: 20 }, (_, i) => ({ username: `pw-in-the-wrong-field-${randomBytes(6).toString('hex')}-${i}`, password: 'x' }));
  await failSignIns(typed);
  await new Promise((r) => setTimeout(r, 300)); // entries are written just after the response
  const unknown = (await signInFailuresSince(since)).filter((e) => e.details.reason === 'unknown_user');
  assert.ok(unknown.length <= 1, `${unknown.length} entries for 20 failures`);
  for (const event of unknown) {
    assert.equal(event.target, null);
    assert.equal(typeof event.details.count, 'number');
    assert.equal('username' in event.details, false);
  }
  const everything = JSON.stringify(await signInFailuresSince(since));
  for (const { username } of typed) assert.equal(everything.includes(username), false, 'what was typed is not stored');
});

test('a wrong password for an account is recorded at once, under the account as it is spelled, whatever the case typed', async () => {
  const since = new Date(Date.now() - 1);
  const user = await makeUser();
  const client = await failSignIns([{ username: user.username.toUpperCase(), password: 'not the password' }]);
  await new Promise((r) => setTimeout(r, 300));
  const mine = (await signInFailuresSince(since)).filter((e) => e.target?.id === user.id);
  assert.deepEqual(
    mine.map((e) => [e.target?.label, e.details]),
    [[user.username, { username: user.username, reason: 'wrong_password', clientId: client.id, clientName: client.name }]],
  );
});
