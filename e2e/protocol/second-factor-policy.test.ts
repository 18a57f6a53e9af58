// runs-on: databases
// SECOND_FACTOR_REQUIRED at its default (admins), over HTTP: an admin without a second factor gets no code for an
// app, is told to set one up, and may still sign in to the portal, which sends them to do it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as oidc from 'openid-client';
import { auditEventsFor } from '../../lib/audit/log.ts';
import { database } from '../../lib/db/database.ts';
import { TestBrowser, credentials } from '../support/browser.ts';
import { baseUrl, databaseUrl, discover, enrolTotp, makeClient, makeUser, pkce, redirectUri } from '../support/fixtures.ts';

async function loginStep(client: Awaited<ReturnType<typeof makeClient>>, user: { username: string; password: string }) {
  const config = await discover(client);
  const { challenge } = await pkce();
  const browser = new TestBrowser(baseUrl);
  const start = await browser.navigate(
    oidc.buildAuthorizationUrl(config, { redirect_uri: redirectUri, scope: 'openid', code_challenge: challenge, code_challenge_method: 'S256' }),
  );
  return browser.submit(await start.response.text(), '/login', credentials(user));
}

test('an admin without a second factor: no code for an app, a page saying what to do, the refusal audited', async () => {
  const client = await makeClient({ firstParty: true });
  const admin = await makeUser({ role: 'admin', secondFactor: false });
  const step = await loginStep(client, admin);
  assert.equal(step.location, undefined, 'not sent back to the app');
  const html = await step.response.text();
  assert.match(html, /Your account must use two-step verification before you can sign in here/);
  assert.match(html, /href="\/account\/security"/);
  const events = await auditEventsFor(database(databaseUrl), { involvingUserId: admin.id, actions: ['sign_in.failed'] });
  assert.deepEqual(
    events.map((e) => (e.details as { reason?: string }).reason),
    ['second_factor_required'],
  );

  // Once set up, the same sign-in asks for the code.
  await enrolTotp(admin);
  const again = await loginStep(client, admin);
  assert.match(await again.response.text(), /Enter the code from your authenticator app/);
});

test('a person without the admin role and without a second factor signs in to apps as before (default policy)', async () => {
  const client = await makeClient({ firstParty: true });
  const person = await makeUser();
  const step = await loginStep(client, person);
  assert.ok(step.location, 'back at the app');
  assert.ok(step.location.searchParams.get('code'));
});
