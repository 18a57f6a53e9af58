// runs-on: everywhere
// Choosing the account over HTTP: "Use another account" on the consent and sign-in pages, and prompt=select_account.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as oidc from 'openid-client';
import { credentials, TestBrowser } from '../support/browser.ts';
import { authorizationRequest, baseUrl, makeClient, makeUser } from '../support/fixtures.ts';

type Flow = Awaited<ReturnType<typeof authorizationRequest>>;
type Step = Awaited<ReturnType<TestBrowser['navigate']>>;

/** The hidden inputs of the page's first form, and where it posts (the provider's own form_post pages). */
function firstForm(html: string): { action: string; fields: Record<string, string> } {
  const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
  assert.ok(action, 'a form on the page');
  const fields = Object.fromEntries(
    [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\/?>/g)].map((m) => [
      m[1],
      m[2].replace(/&amp;/g, '&').replace(/&#(\d+);/g, (_, c) => String.fromCharCode(Number(c))),
    ]),
  );
  return { action: action.replace(/&amp;/g, '&'), fields };
}

/**
 * Goes on from `step` as a browser would until the app gets its answer: through the provider's
 * logout hop (an auto-submitting form, when another account replaces the session's) and consent.
 */
async function finish(browser: TestBrowser, step: Step): Promise<URL> {
  for (let i = 0; i < 6 && !step.location; i++) {
    const html = await step.response.text();
    if (/action="[^"]*\/oauth\/logout\/confirm"/.test(html)) {
      const { action, fields } = firstForm(html);
      step = await browser.navigate(action, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: baseUrl },
        body: new URLSearchParams(fields).toString(),
      });
    } else if (/\/confirm"/.test(html)) step = await browser.submit(html, '/confirm');
    else assert.fail(`unexpected page at ${step.url}`);
  }
  assert.ok(step.location, 'back at the app');
  return step.location;
}

async function subjectOf(flow: Flow, callback: URL): Promise<string | undefined> {
  const tokens = await oidc.authorizationCodeGrant(flow.config, callback, { pkceCodeVerifier: flow.verifier, expectedState: flow.state });
  return tokens.claims()?.sub;
}

test('Not you? on the consent page: the sign-in form again, empty; another person signs in and the code is theirs', async () => {
  const [a, b] = [await makeUser(), await makeUser()];
  const client = await makeClient();
  const browser = new TestBrowser(baseUrl);
  const flow = await authorizationRequest(client);
  const login = await browser.navigate(flow.url);
  const consent = await browser.submit(await login.response.text(), '/login', credentials(a));
  const consentPage = await consent.response.text();
  assert.match(consentPage, new RegExp(`Signed in as ${a.username}\\. Not you\\?`));

  const another = await browser.submit(consentPage, '/another-account');
  assert.equal(another.location, undefined);
  assert.match(another.url.pathname, /^\/interaction\/[^/]+$/);
  assert.notEqual(another.url.pathname, consent.url.pathname, 'a new interaction');
  const form = await another.response.text();
  assert.match(form, /name="password"/);
  assert.doesNotMatch(form, new RegExp(`value="${a.username}"`), 'the earlier account is not filled in');

  const signedIn = await browser.submit(form, '/login', credentials(b));
  assert.equal(await subjectOf(flow, await finish(browser, signedIn)), b.id);

  // A's session in this browser was ended for B's: the next request goes on as B, without a sign-in.
  const again = await authorizationRequest(client);
  const next = await browser.navigate(again.url);
  assert.equal(await subjectOf(again, await finish(browser, next)), b.id);
});

test('Use another account on a sign-in page filled in from login_hint: the form again without the hint', async () => {
  const client = await makeClient();
  const browser = new TestBrowser(baseUrl);
  const flow = await authorizationRequest(client, { login_hint: 'grace-hopper' });
  const login = await browser.navigate(flow.url);
  const page = await login.response.text();
  assert.match(page, /value="grace-hopper"/);
  assert.match(page, /Use another account/);
  const another = await browser.submit(page, '/another-account');
  const form = await another.response.text();
  assert.match(form, /name="username"/);
  assert.doesNotMatch(form, /grace-hopper/);
  assert.doesNotMatch(form, /Use another account/, 'nothing left to switch from');
  const user = await makeUser();
  const signedIn = await browser.submit(form, '/login', credentials(user));
  assert.equal(await subjectOf(flow, await finish(browser, signedIn)), user.id);
});

test('Use another account is a form post like the others: a cross-origin one is refused, an expired one says so', async () => {
  const client = await makeClient();
  const browser = new TestBrowser(baseUrl);
  const login = await browser.navigate((await authorizationRequest(client, { login_hint: 'x' })).url);
  const foreign = await browser.request(`${login.url.pathname}/another-account`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' },
    body: '',
  });
  assert.equal(foreign.status, 403);
  const stranger = await fetch(new URL(`${login.url.pathname}/another-account`, baseUrl), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(baseUrl).origin },
    body: '',
  });
  assert.equal(stranger.status, 303);
  assert.match(stranger.headers.get('location')!, /error=expired/);
});

test('discovery lists select_account among prompt_values_supported', async () => {
  const discovery = await (await fetch(new URL('/.well-known/openid-configuration', baseUrl))).json();
  assert.ok(discovery.prompt_values_supported.includes('select_account'), JSON.stringify(discovery.prompt_values_supported));
  for (const value of ['none', 'login', 'consent']) assert.ok(discovery.prompt_values_supported.includes(value), value);
});

test('prompt=select_account without a session: the sign-in form is the choice, and no chooser follows the sign-in', async () => {
  const user = await makeUser();
  const client = await makeClient();
  const browser = new TestBrowser(baseUrl);
  const flow = await authorizationRequest(client, { prompt: 'select_account' });
  const login = await browser.navigate(flow.url);
  const page = await login.response.text();
  assert.match(page, /name="password"/);
  assert.doesNotMatch(page, /Choose an account/);
  const signedIn = await browser.submit(page, '/login', credentials(user));
  assert.equal(await subjectOf(flow, await finish(browser, signedIn)), user.id);
});

test('prompt=select_account with a session: Continue as A, or another account B; the next chooser shows B', async () => {
  const [a, b] = [await makeUser(), await makeUser()];
  const client = await makeClient();
  const browser = new TestBrowser(baseUrl);
  const first = await authorizationRequest(client);
  const login = await browser.navigate(first.url);
  assert.equal(await subjectOf(first, await finish(browser, await browser.submit(await login.response.text(), '/login', credentials(a)))), a.id);

  // The chooser, and Continue: the code is A's, no password asked.
  const choose = await authorizationRequest(client, { prompt: 'select_account' });
  const chooser = await browser.navigate(choose.url);
  const chooserPage = await chooser.response.text();
  assert.equal(chooser.location, undefined, 'asked, not answered at once');
  assert.match(chooserPage, /Choose an account/);
  assert.match(chooserPage, new RegExp(`Continue as ${a.username}`));
  assert.doesNotMatch(chooserPage, /name="password"/);
  const continued = await browser.submit(chooserPage, '/select-account');
  assert.equal(await subjectOf(choose, await finish(browser, continued)), a.id);

  // Another account: the empty sign-in form, B signs in, the code is B's.
  const again = await authorizationRequest(client, { prompt: 'select_account' });
  const another = await browser.submit(await (await browser.navigate(again.url)).response.text(), '/another-account');
  const form = await another.response.text();
  assert.match(form, /name="password"/);
  assert.doesNotMatch(form, new RegExp(a.username));
  assert.equal(await subjectOf(again, await finish(browser, await browser.submit(form, '/login', credentials(b)))), b.id);

  // The next chooser shows B, and Continue goes on as B.
  const third = await authorizationRequest(client, { prompt: 'select_account' });
  const thirdPage = await (await browser.navigate(third.url)).response.text();
  assert.match(thirdPage, new RegExp(`Continue as ${b.username}`));
  assert.equal(await subjectOf(third, await finish(browser, await browser.submit(thirdPage, '/select-account'))), b.id);
});

test('prompt=select_account with prompt=none is refused at the client (OIDC Core §3.1.2.1: none goes alone)', async () => {
  const client = await makeClient();
  const flow = await authorizationRequest(client, { prompt: 'none select_account' });
  const response = await fetch(flow.url, { redirect: 'manual' });
  const location = new URL(response.headers.get('location')!);
  assert.equal(location.searchParams.get('error'), 'invalid_request');
});

test('prompt=login with a session: the form is filled in with the session’s account, and another account is offered', async () => {
  const user = await makeUser();
  const client = await makeClient({ firstParty: true });
  const browser = new TestBrowser(baseUrl);
  const first = await authorizationRequest(client);
  const login = await browser.navigate(first.url);
  await finish(browser, await browser.submit(await login.response.text(), '/login', credentials(user)));

  const again = await authorizationRequest(client, { prompt: 'login' });
  const page = await (await browser.navigate(again.url)).response.text();
  assert.match(page, new RegExp(`name="username" value="${user.username}"`));
  assert.match(page, /Use another account/);
  const another = await browser.submit(page, '/another-account');
  const form = await another.response.text();
  assert.doesNotMatch(form, new RegExp(`value="${user.username}"`));
  assert.doesNotMatch(form, /Use another account/);
});

test('the chooser speaks the request’s language (ui_locales=de)', async () => {
  const user = await makeUser();
  const client = await makeClient({ firstParty: true });
  const browser = new TestBrowser(baseUrl);
  const first = await authorizationRequest(client);
  await finish(browser, await browser.submit(await (await browser.navigate(first.url)).response.text(), '/login', credentials(user)));
  const page = await (await browser.navigate((await authorizationRequest(client, { prompt: 'select_account', ui_locales: 'de' })).url)).response.text();
  assert.match(page, /<html lang="de"/);
  assert.match(page, /Konto auswählen/);
  assert.match(page, new RegExp(`Weiter als ${user.username}`));
  assert.match(page, /Anderes Konto verwenden/);
});
