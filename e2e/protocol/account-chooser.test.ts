// runs-on: once
// The account chooser over HTTP (ACCOUNT_CHOOSER=on on the test servers): the signed list of a browser's accounts, the sign-in page's
// list, and prompt=select_account offering the others, whose pick fills in the next sign-in form. Neither the store nor the mount changes it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as oidc from 'openid-client';
import { credentials, TestBrowser } from '../support/browser.ts';
import { baseUrl, discover, makeClient, makeUser, pkce, redirectUri } from '../support/fixtures.ts';

type Client = Awaited<ReturnType<typeof makeClient>>;

async function authorize(browser: TestBrowser, client: Client, params: Record<string, string> = {}) {
  const config = await discover(client);
  const { challenge } = await pkce();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: 'openid',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...params,
  });
  return browser.navigate(url);
}

/** Signs in on the page `start` shows and allows the app: back at its redirect_uri. */
async function signIn(browser: TestBrowser, start: Awaited<ReturnType<TestBrowser['navigate']>>, user: { username: string; password: string }) {
  let step = await browser.submit(await start.response.text(), '/login', credentials(user));
  if (!step.location) step = await browser.submit(await step.response.text(), '/confirm');
  assert.ok(step.location, 'back at the client');
}

test('the sign-in page lists the browser’s accounts, Remove takes one off; select_account offers the others, whose pick fills in the form', async () => {
  const client = await makeClient();
  const [a, b] = [await makeUser({ name: 'Ada Chooser' }), await makeUser({ name: 'Bob Chooser' })];
  const browser = new TestBrowser(baseUrl);
  await signIn(browser, await authorize(browser, client), a);
  assert.ok(browser.cookie('gatehouse_accounts'), 'remembered after the right password');
  assert.doesNotMatch(browser.cookie('gatehouse_accounts')!, /Ada|@/, 'the cookie names no one: ids only');

  // The session gone (signed out), the list stays: the page lists Ada, and the form is there for another account.
  browser.keepOnly(['gatehouse_accounts', 'gatehouse_device']);
  const start = await authorize(browser, client);
  const page = await start.response.text();
  assert.match(page, /Ada Chooser/);
  // The address may break after its @ on a narrow screen (<wbr>, components/interaction/account-chooser.tsx).
  const [local, domain] = a.email!.split('@');
  assert.match(page, new RegExp(`${local}@(?:<wbr/>)?${domain.replaceAll('.', '\\.')}`));
  assert.match(page, /action="[^"]*\/login"/);
  await signIn(browser, { ...start, response: new Response(page) }, b);

  // prompt=select_account: Bob is signed in; Ada is offered, and picking her fills in her username.
  const choose = await authorize(browser, client, { prompt: 'select_account' });
  const html = await choose.response.text();
  assert.match(html, /Continue as/);
  assert.match(html, new RegExp(`name="account" value="${a.id}"`));
  const picked = await browser.submit(html, '/another-account', { account: a.id });
  const form = await picked.response.text();
  assert.match(form, new RegExp(`name="username"[^>]*value="${a.username}"|value="${a.username}"[^>]*name="username"`), 'Ada’s username filled in');
  assert.match(form, /name="password"/, 'her password is asked');

  // Remove: Bob leaves this browser's list, Ada stays.
  browser.keepOnly(['gatehouse_accounts']);
  const again = await (await authorize(browser, client)).response.text();
  assert.match(again, /Bob Chooser/);
  const removed = await browser.submit(again, '/forget-account', { account: b.id });
  const left = await removed.response.text();
  assert.doesNotMatch(left, /Bob Chooser/);
  assert.match(left, /Ada Chooser/);
});
