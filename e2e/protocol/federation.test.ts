// runs-on: stores
// Signing in with another identity provider, over HTTP as a browser would: the bare oidc-provider as the upstream on
// 127.0.0.2 and a forging one on 127.0.0.3 (e2e/support/upstreams.ts), openid-client as the relying party of Gatehouse.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import * as oidc from 'openid-client';
import { listAuditEvents } from '../../lib/audit/repository.ts';
import { database } from '../../lib/db/database.ts';
import { setPasswordForm } from '../../lib/federation/client-sign-in.ts';
import { createConnection, type NewConnectionInput } from '../../lib/federation/manage.ts';
import { findIdentity, listIdentitiesOf } from '../../lib/federation/repository.ts';
import { findUserByUsername, setVerifiedEmail } from '../../lib/users/repository.ts';
import { adminToken, api, makeAdminApiClient } from '../support/admin-api.ts';
import { TestBrowser, credentials } from '../support/browser.ts';
import { authorizationRequest, baseUrl, databaseUrl, makeClient, makeUser } from '../support/fixtures.ts';
import { type FORGER_MODES, startBareProvider, startForger, startGitHubShaped, type UpstreamAccount } from '../support/upstreams.ts';

const db = () => database(databaseUrl);
const callbackUrl = new URL('/federation/callback', baseUrl).toString();
const upstreamSecret = randomBytes(24).toString('base64url');
const unique = () => randomBytes(5).toString('hex');

let bare: Awaited<ReturnType<typeof startBareProvider>>;
let forger: Awaited<ReturnType<typeof startForger>>;
let github: Awaited<ReturnType<typeof startGitHubShaped>>;
before(async () => {
  bare = await startBareProvider(callbackUrl, upstreamSecret);
  forger = await startForger();
  github = await startGitHubShaped(upstreamSecret);
});
after(async () => {
  await bare?.close();
  await forger?.close();
  await github?.close();
});

type Client = Awaited<ReturnType<typeof makeClient>>;

async function connection(client: Client | undefined, input: Partial<NewConnectionInput> = {}) {
  return createConnection(db(), {
    slug: `up-${unique()}`,
    displayName: 'Company Login',
    issuer: bare.issuer,
    clientId: 'gatehouse',
    clientSecret: upstreamSecret,
    clientIds: client ? [client.id] : [],
    ...input,
  });
}

/** An upstream account of the bare provider: its login name is its subject. */
function upstreamAccount(account: UpstreamAccount = {}) {
  const login = `ext-${unique()}`;
  bare.accounts.set(login, { email: `${login}@upstream.example`, email_verified: true, name: 'Ext Person', preferred_username: login, ...account });
  return login;
}

const formPost = (fields: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});

/** Gatehouse's sign-in page for a new authorization request of `client`. */
async function signInPage(client: Client, params: Record<string, string> = {}) {
  const request = await authorizationRequest(client, params);
  const browser = new TestBrowser(baseUrl);
  const page = await browser.navigate(request.url);
  return { ...request, browser, html: await page.response.text(), pageUrl: page.url };
}

/** Presses the connection's button: where Gatehouse sends the browser (upstream), or the page it stays on. */
async function pressButton(start: Awaited<ReturnType<typeof signInPage>>, slug: string) {
  return start.browser.submit(start.html, '/federation', { connection: slug, client_id: start.config.clientMetadata().client_id });
}

/** At the bare provider: its development login (any name) and consent pages, until it sends the browser back. */
async function atBareProvider(authorizeUrl: URL, login: string, upstream = new TestBrowser(authorizeUrl.origin)): Promise<URL> {
  let step = await upstream.navigate(authorizeUrl);
  for (let i = 0; i < 4 && !step.location; i++) {
    const html = await step.response.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    assert.ok(action, `a form at the upstream: ${html.slice(0, 200)}`);
    const fields: Record<string, string> = html.includes('name="login"') ? { prompt: 'login', login, password: 'any' } : { prompt: 'consent' };
    step = await upstream.navigate(action, formPost(fields));
  }
  assert.ok(step.location, 'the upstream sent the browser back');
  return step.location;
}

/** Back at Gatehouse: follows its redirects, agrees to the consent page when one comes, and returns where it ends. */
async function backAtGatehouse(browser: TestBrowser, callback: URL) {
  let step = await browser.navigate(callback);
  if (!step.location && step.response.status === 200) {
    const html = await step.response.text();
    if (html.includes('/confirm"')) step = await browser.submit(html, '/confirm');
    else return { ...step, html };
  }
  return { ...step, html: step.location ? '' : await step.response.text() };
}

/** The whole federated sign-in of `login` through the bare provider, with the code redeemed when it comes back. */
async function federatedSignIn(client: Client, slug: string, login: string) {
  const start = await signInPage(client);
  const sent = await pressButton(start, slug);
  assert.ok(sent.location, `sent upstream (${sent.url})`);
  const callback = await atBareProvider(sent.location, login);
  assert.equal(callback.origin + callback.pathname, callbackUrl, 'back at the registered callback');
  const end = await backAtGatehouse(start.browser, callback);
  return { ...start, callback, end };
}

async function redeem(flow: Awaited<ReturnType<typeof federatedSignIn>>) {
  assert.ok(flow.end.location, `back at the app (${flow.end.url}: ${flow.end.html.slice(0, 300)})`);
  return oidc.authorizationCodeGrant(flow.config, flow.end.location, { pkceCodeVerifier: flow.verifier, expectedState: flow.state });
}

/** The federation.failed entries of a connection since `since`, waiting briefly for them to be written. */
async function failures(slug: string, since: Date) {
  for (let i = 0; i < 20; i++) {
    const { events } = await listAuditEvents(db(), { actions: ['federation.failed'], from: since }, { skip: 0, take: 200 });
    const mine = events.filter((event) => event.details.connection === slug);
    if (mine.length) return mine.map((event) => event.details.reason);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return [];
}

const errorOf = (url: URL) => url.searchParams.get('error');

describe('a sign-in through the bare oidc-provider', () => {
  test('no connection for the client: the sign-in page is as it was, with no button', async () => {
    const client = await makeClient();
    await connection(undefined, { displayName: 'Nobody Allowed' });
    const { html } = await signInPage(client);
    assert.ok(!html.includes('/federation"'), 'no connection button');
    assert.ok(!html.includes('Nobody Allowed'));
    assert.match(html, /name="password"/);
  });

  test('just in time: the first sign-in creates the person (amr fed), the next one finds the same account by issuer and subject', async () => {
    const client = await makeClient({ firstParty: true });
    const { slug } = await connection(client, { jitCreate: true, displayName: 'Acme SSO' });
    const login = upstreamAccount();
    const start = await signInPage(client);
    assert.match(start.html, /Continue with Acme SSO/);

    const first = await federatedSignIn(client, slug, login);
    const tokens = await redeem(first);
    const claims = tokens.claims()!;
    assert.deepEqual(claims.amr, ['fed']);
    assert.equal(claims.acr, 'urn:gatehouse:acr:federated');
    const identity = await findIdentity(db(), bare.issuer, login);
    assert.ok(identity, 'the identity is stored by issuer and subject');
    assert.equal(claims.sub, identity.userId);
    const userinfo = await oidc.fetchUserInfo(first.config, tokens.access_token, claims.sub);
    assert.equal(userinfo.email, `${login}@upstream.example`, 'the address the upstream vouched for');
    assert.equal(userinfo.email_verified, true);
    assert.equal(userinfo.preferred_username, login);

    const second = await redeem(await federatedSignIn(client, slug, login));
    assert.equal(second.claims()!.sub, identity.userId, 'the same account, not a new one');
  });

  test('an identity whose verified address names an account is linked only after the person signs in to it here', async () => {
    const client = await makeClient({ firstParty: true });
    const { slug } = await connection(client, { displayName: 'Partner IdP' });
    const user = await makeUser();
    await setVerifiedEmail(db(), user.id, user.email!);
    const login = upstreamAccount({ email: user.email!, email_verified: true });

    const flow = await federatedSignIn(client, slug, login);
    assert.equal(flow.end.location, undefined, 'not signed in by the address alone');
    assert.match(flow.end.html, /to link it to your Partner IdP account/);
    assert.equal(await findIdentity(db(), bare.issuer, login), undefined, 'nothing linked yet');

    const signedIn = await flow.browser.submit(flow.end.html, '/login', credentials(user));
    assert.ok(signedIn.location, 'the password signs in');
    const tokens = await oidc.authorizationCodeGrant(flow.config, signedIn.location, { pkceCodeVerifier: flow.verifier, expectedState: flow.state });
    assert.equal(tokens.claims()!.sub, user.id);
    assert.deepEqual(tokens.claims()!.amr, ['pwd'], 'this sign-in was the password');
    assert.equal((await findIdentity(db(), bare.issuer, login))?.userId, user.id, 'linked once the account was proved');

    const next = await redeem(await federatedSignIn(client, slug, login));
    assert.equal(next.claims()!.sub, user.id, 'from then on the upstream signs them in');
    assert.deepEqual(next.claims()!.amr, ['fed']);
  });

  test('email_verified false for an address that names an account: no link, no takeover, no new account', async () => {
    const client = await makeClient({ firstParty: true });
    const { slug } = await connection(client, { jitCreate: true });
    const user = await makeUser();
    await setVerifiedEmail(db(), user.id, user.email!);
    const login = upstreamAccount({ email: user.email!, email_verified: false });
    const since = new Date(Date.now() - 1);

    const flow = await federatedSignIn(client, slug, login);
    assert.equal(flow.end.location, undefined);
    assert.equal(errorOf(flow.end.url), 'federation_email_unverified');
    assert.match(flow.end.html, /does not vouch for your email address/);
    assert.equal(await findIdentity(db(), bare.issuer, login), undefined);
    assert.deepEqual(await listIdentitiesOf(db(), user.id), []);
    assert.equal(await findUserByUsername(db(), login), undefined, 'no account was made for the address');
    assert.deepEqual(await failures(slug, since), ['email_unverified']);
  });

  test('no account and no just-in-time creation: a page that says so, audited', async () => {
    const client = await makeClient({ firstParty: true });
    const { slug } = await connection(client);
    const since = new Date(Date.now() - 1);
    const flow = await federatedSignIn(client, slug, upstreamAccount());
    assert.equal(errorOf(flow.end.url), 'federation_no_account');
    assert.match(flow.end.html, /No account here belongs to that identity/);
    assert.deepEqual(await failures(slug, since), ['no_account']);
  });

  test('a replayed callback, one with another state and one from another browser are refused with a page, never a 500', async () => {
    const client = await makeClient({ firstParty: true });
    const { slug } = await connection(client, { jitCreate: true });
    const login = upstreamAccount();

    // Another browser (no binding cookie) with a genuine callback: refused, and the state is spent.
    const stolen = await signInPage(client);
    const sentStolen = await pressButton(stolen, slug);
    const stolenCallback = await atBareProvider(sentStolen.location!, login);
    const thief = await new TestBrowser(baseUrl).navigate(stolenCallback);
    assert.equal(thief.response.status, 200);
    assert.equal(thief.url.pathname, '/federation/error');
    assert.match(await thief.response.text(), /did not start in this browser/);
    const owner = await stolen.browser.navigate(stolenCallback);
    assert.equal(owner.url.pathname, '/federation/error', 'the state was spent by the first attempt');
    assert.equal(await findIdentity(db(), bare.issuer, login), undefined);

    // State mismatch: the right browser, another state.
    const start = await signInPage(client);
    const sent = await pressButton(start, slug);
    const callback = await atBareProvider(sent.location!, login);
    const forged = new URL(callback);
    forged.searchParams.set('state', 'x'.repeat(43));
    const mismatch = await start.browser.navigate(forged);
    assert.equal(mismatch.url.pathname, '/federation/error');
    assert.equal(mismatch.response.status, 200);

    // The genuine callback still works once, then is a replay.
    const done = await backAtGatehouse(start.browser, callback);
    assert.ok(done.location, 'the genuine answer signs in');
    const replay = await start.browser.navigate(callback);
    assert.equal(replay.url.pathname, '/federation/error');
    assert.equal(replay.url.searchParams.get('reason'), 'state_invalid');
    assert.match(await replay.response.text(), /used already/);
  });

  test('the upstream refuses (access_denied): the sign-in page says so and the person can go on another way', async () => {
    const client = await makeClient({ firstParty: true });
    const { slug } = await connection(client);
    const since = new Date(Date.now() - 1);
    const start = await signInPage(client);
    const sent = await pressButton(start, slug);
    const upstream = new TestBrowser(sent.location!.origin);
    const login = await upstream.navigate(sent.location!);
    const uid = login.url.pathname.split('/').pop();
    const aborted = await upstream.navigate(`/interaction/${uid}/abort`);
    assert.ok(aborted.location);
    assert.equal(aborted.location.searchParams.get('error'), 'access_denied');
    const back = await start.browser.navigate(aborted.location);
    assert.equal(errorOf(back.url), 'federation_access_denied');
    const html = await back.response.text();
    assert.match(html, /cancelled or refused there/);
    assert.match(html, /name="password"/, 'the password form is still there');
    assert.deepEqual(await failures(slug, since), ['access_denied']);
  });

  test('identifier first: an address of a domain a connection serves goes to it with the address as login_hint, no password asked', async () => {
    const client = await makeClient({ firstParty: true });
    const domain = `corp-${unique()}.example`;
    const { slug } = await connection(client, { jitCreate: true, emailDomains: [domain], displayName: 'Corp' });
    const start = await signInPage(client);
    assert.match(start.html, /Continue with your organization/);
    const sent = await start.browser.submit(start.html, '/federation', { username: `ann@${domain}`, password: '' });
    assert.ok(sent.location, `sent upstream (${sent.url})`);
    assert.equal(sent.location.origin, bare.issuer);
    assert.equal(sent.location.searchParams.get('login_hint'), `ann@${domain}`);
    const login = upstreamAccount();
    const end = await backAtGatehouse(start.browser, await atBareProvider(sent.location, login));
    assert.ok(end.location, 'signed in');
    assert.equal((await findIdentity(db(), bare.issuer, login))?.connectionSlug, slug);

    const since = new Date(Date.now() - 1);
    const other = await signInPage(client);
    const refused = await other.browser.submit(other.html, '/federation', { username: 'bob@elsewhere.example', password: '' });
    assert.equal(refused.location, undefined, 'a domain nobody serves goes nowhere');
    assert.equal(errorOf(refused.url), 'federation_connection_unavailable');
    assert.deepEqual(await failures('realm', since), ['connection_unavailable']);
  });

  test('login_hint reaches the upstream unless the connection is set not to pass it (admin API pass_login_hint)', async () => {
    const client = await makeClient({ firstParty: true });
    const domain = `hint-${unique()}.example`;
    const { slug } = await connection(client, { jitCreate: true, emailDomains: [domain] });
    const token = await adminToken(await makeAdminApiClient());
    const path = `/api/admin/connections/${slug}`;
    assert.equal((await api('GET', path, { token })).body.pass_login_hint, true, 'on by default');
    /** What the bare provider received for one authorization request Gatehouse sent it. */
    const received = async (start: Awaited<ReturnType<typeof signInPage>>, sent: { location?: URL; url: URL }) => {
      assert.ok(sent.location, `sent upstream (${sent.url})`);
      assert.equal(sent.location.origin, bare.issuer);
      const before = bare.authorizations.length;
      const upstream = new TestBrowser(sent.location.origin);
      await upstream.navigate(sent.location);
      assert.equal(bare.authorizations.length, before + 1, 'the upstream got the request');
      return { params: bare.authorizations.at(-1)!, start, upstream };
    };

    const withHint = await signInPage(client, { login_hint: 'grace@elsewhere.example' });
    const on = await received(withHint, await pressButton(withHint, slug));
    assert.equal(on.params.get('login_hint'), 'grace@elsewhere.example', "the app's hint goes upstream");

    const off = await api('PATCH', path, { token, json: { pass_login_hint: false } });
    assert.equal(off.status, 200);
    assert.equal(off.body.pass_login_hint, false);
    assert.equal((await api('GET', path, { token })).body.pass_login_hint, false);

    const again = await signInPage(client, { login_hint: 'grace@elsewhere.example' });
    const kept = await received(again, await pressButton(again, slug));
    assert.equal(kept.params.get('login_hint'), null, "off: the app's hint stays here");
    assert.equal(kept.params.get('client_id'), 'gatehouse', 'the rest of the request is unchanged');

    // Identifier first still routes by the typed address, without telling the upstream what was typed; the sign-in completes.
    const typed = await signInPage(client);
    const sent = await typed.browser.submit(typed.html, '/federation', { username: `ann@${domain}`, password: '' });
    const routed = await received(typed, sent);
    assert.equal(routed.params.get('login_hint'), null, 'off: the typed address stays here');
    const login = upstreamAccount();
    const end = await backAtGatehouse(typed.browser, await atBareProvider(sent.location!, login));
    assert.ok(end.location, 'signed in');
    assert.equal((await findIdentity(db(), bare.issuer, login))?.connectionSlug, slug);
  });

  test('prompt=login and max_age go upstream, and the fresh upstream sign-in signs in', async () => {
    const client = await makeClient({ firstParty: true });
    const { slug } = await connection(client, { jitCreate: true });
    const login = upstreamAccount();
    const start = await signInPage(client, { prompt: 'login', max_age: '300' });
    const sent = await pressButton(start, slug);
    assert.ok(sent.location, 'sent upstream');
    assert.equal(sent.location.searchParams.get('prompt'), 'login');
    assert.equal(sent.location.searchParams.get('max_age'), '300');
    const callback = await atBareProvider(sent.location, login);
    const tokens = await redeem({ ...start, callback, end: await backAtGatehouse(start.browser, callback) });
    assert.deepEqual(tokens.claims()!.amr, ['fed']);
    assert.ok(Math.abs(Number(tokens.claims()!.auth_time) - Date.now() / 1000) < 60, 'a fresh Gatehouse sign-in');
  });

  test("a preset's icon is a local file on the button, served from public/connections/; without one, the name's initial", async () => {
    const client = await makeClient({ firstParty: true });
    await connection(client, { displayName: 'With Icon', icon: 'gitlab.svg' });
    await connection(client, { displayName: 'Without Icon' });
    const { html } = await signInPage(client);
    assert.match(html, /<img src="\/connections\/gitlab\.svg"/);
    assert.equal((html.match(/<img src="\/connections\//g) ?? []).length, 1, 'no image for the one without');
    assert.ok(!/<img src="https?:/.test(html), 'no remote image');
    for (const icon of ['google', 'microsoft', 'github', 'gitlab', 'generic']) {
      const served = await fetch(new URL(`/connections/${icon}.svg`, baseUrl));
      assert.equal(served.status, 200, `${icon}.svg`);
      assert.match(served.headers.get('content-type') ?? '', /^image\/svg\+xml/);
    }
  });

  test('German: the refusal is worded in the language of the request', async () => {
    const client = await makeClient({ firstParty: true });
    const { slug } = await connection(client);
    const start = await signInPage(client);
    const page = await start.browser.navigate(`${start.pageUrl.pathname}?error=federation_no_account`, { headers: { 'accept-language': 'de' } });
    assert.match(await page.response.text(), /Zu dieser Identität gibt es hier noch kein Konto/);
    assert.ok(slug);
  });
});

describe('upstream logout', () => {
  /** A federated sign-in whose upstream session lives in `upstream`; the Gatehouse browser and its ID token. */
  async function signedInThrough(client: Client, slug: string, upstream: TestBrowser) {
    const start = await signInPage(client);
    const sent = await pressButton(start, slug);
    assert.ok(sent.location, 'sent upstream');
    const callback = await atBareProvider(sent.location, upstreamAccount(), upstream);
    const tokens = await redeem({ ...start, callback, end: await backAtGatehouse(start.browser, callback) });
    return { browser: start.browser, idToken: tokens.id_token! };
  }

  /** RP-initiated logout at Gatehouse, confirmed: where Gatehouse sends the browser. */
  async function logOutAtGatehouse(browser: TestBrowser, idToken: string) {
    const logout = new URL('/oauth/logout', baseUrl);
    logout.search = new URLSearchParams({ id_token_hint: idToken, post_logout_redirect_uri: 'http://127.0.0.1:9/signed-out', state: 'rp-state' }).toString();
    const page = await (await browser.navigate(logout)).response.text();
    const xsrf = page.match(/name="xsrf" value="([^"]+)"/)?.[1];
    assert.ok(xsrf, 'the logout form');
    return browser.submit(page, '/oauth/logout/confirm', { xsrf, logout: 'yes' });
  }

  /** Whether the upstream still has a session in `upstream`: prompt=none answers login_required when not. */
  async function upstreamSignedIn(upstream: TestBrowser) {
    const auth = new URL('/auth', bare.issuer);
    auth.search = new URLSearchParams({
      client_id: 'gatehouse',
      response_type: 'code',
      scope: 'openid',
      redirect_uri: callbackUrl,
      prompt: 'none',
      state: 's',
    }).toString();
    const answer = await upstream.navigate(auth);
    assert.ok(answer.location, 'the upstream answers at the callback');
    return answer.location.searchParams.get('error') !== 'login_required';
  }

  test("configured: the local session ends, the upstream's ends too (id_token_hint, back through Gatehouse), then the app's post-logout URI", async () => {
    const client = await makeClient({ firstParty: true });
    const { slug } = await connection(client, { jitCreate: true, upstreamLogout: true, keepTokens: true });
    const upstream = new TestBrowser(bare.issuer);
    const { browser, idToken } = await signedInThrough(client, slug, upstream);
    assert.equal(await upstreamSignedIn(upstream), true, 'signed in upstream');

    const out = await logOutAtGatehouse(browser, idToken);
    assert.ok(out.location, 'sent on');
    assert.equal(out.location.origin + out.location.pathname, `${bare.issuer}/session/end`, "to the upstream's end_session_endpoint");
    assert.equal(out.location.searchParams.get('client_id'), 'gatehouse');
    assert.equal(out.location.searchParams.get('post_logout_redirect_uri'), new URL('/federation/logged-out', baseUrl).toString());
    assert.ok(out.location.searchParams.get('id_token_hint'), 'the kept upstream ID token as the hint');
    const silent = await browser.navigate((await authorizationRequest(client, { prompt: 'none' })).url);
    assert.equal(silent.location?.searchParams.get('error'), 'login_required', 'the local session is gone');

    // At the upstream: its own logout confirmation, then back to Gatehouse, then on to the app.
    const confirm = await upstream.navigate(out.location);
    const html = await confirm.response.text();
    const xsrf = html.match(/name="xsrf" value="([^"]+)"/)?.[1];
    assert.ok(xsrf, `the upstream's logout form: ${html.slice(0, 200)}`);
    const back = await upstream.submit(html, '/session/end/confirm', { xsrf, logout: 'yes' });
    const returned = back.location;
    assert.ok(returned, 'sent back');
    assert.ok(returned.href.startsWith(`${baseUrl}/federation/logged-out?`), `back at Gatehouse (${returned})`);
    const app = await browser.navigate(returned);
    assert.ok(app.location, 'on to the app');
    assert.equal(app.location.origin + app.location.pathname, 'http://127.0.0.1:9/signed-out');
    assert.equal(app.location.searchParams.get('state'), 'rp-state', "the app's own state");
    assert.equal(await upstreamSignedIn(upstream), false, 'signed out upstream');

    // The same return again (a replay) goes to the signed-out page, never elsewhere.
    const replay = await browser.navigate(returned);
    assert.equal(replay.location, undefined);
    assert.equal(replay.url.pathname, '/oauth/logout/success');
  });

  test('not configured: the logout ends at the app and the upstream session stays', async () => {
    const client = await makeClient({ firstParty: true });
    const { slug } = await connection(client, { jitCreate: true });
    const upstream = new TestBrowser(bare.issuer);
    const { browser, idToken } = await signedInThrough(client, slug, upstream);
    const out = await logOutAtGatehouse(browser, idToken);
    assert.equal(out.location?.origin, 'http://127.0.0.1:9', 'straight to the app');
    assert.equal(await upstreamSignedIn(upstream), true);
  });
});

describe('a client that turned its password form off', () => {
  test('its sign-in page has only the connection buttons, a password posted anyway is refused, and the upstream still signs in', async () => {
    const client = await makeClient({ firstParty: true });
    const { slug } = await connection(client, { jitCreate: true, displayName: 'Only Way In' });
    await setPasswordForm(db(), client.id, false);
    const user = await makeUser();
    const start = await signInPage(client);
    assert.match(start.html, /Continue with Only Way In/);
    assert.ok(!/name="password"/.test(start.html), 'no password field');
    assert.ok(!start.html.includes('/login"'), 'no form posting to the password step');

    // The right password, posted by hand to the step the page no longer shows: refused, nobody signed in.
    const forced = await start.browser.navigate(`${start.pageUrl.pathname}/login`, {
      ...formPost(credentials(user)),
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: baseUrl },
    });
    assert.equal(forced.location, undefined, 'not sent back to the app');
    assert.equal(errorOf(forced.url), 'password_not_offered');
    assert.match(await forced.response.text(), /Signing in with a password is not available for this app/);

    const tokens = await redeem(await federatedSignIn(client, slug, upstreamAccount()));
    assert.deepEqual(tokens.claims()!.amr, ['fed'], 'the connection signs in');

    await setPasswordForm(db(), client.id, true);
    const again = await signInPage(client);
    const signedIn = await again.browser.submit(again.html, '/login', credentials(user));
    assert.ok(signedIn.location, 'turned on again, the password signs in');
  });
});

test("the admin API reads and turns a client's password form, with the connections it offers; an auditor may only read", async () => {
  const client = await makeClient({ firstParty: true });
  const { slug } = await connection(client);
  const token = await adminToken(await makeAdminApiClient());
  const path = `/api/admin/clients/${encodeURIComponent(client.id)}/sign-in`;
  const read = await api('GET', path, { token });
  assert.equal(read.status, 200);
  assert.deepEqual(read.body, { client_id: client.id, password_form: true, connections: [slug] });
  const off = await api('PATCH', path, { token, json: { password_form: false } });
  assert.equal(off.status, 200);
  assert.equal(off.body.password_form, false);
  assert.ok(!/name="password"/.test((await signInPage(client)).html), 'off on the sign-in page');
  assert.equal((await api('PATCH', path, { token, json: { password_form: 'no' } })).status, 400);
  assert.equal((await api('GET', '/api/admin/clients/no-such-client/sign-in', { token })).status, 404);
  const auditor = await adminToken(await makeAdminApiClient('auditor'));
  assert.equal((await api('GET', path, { token: auditor })).status, 200);
  assert.equal((await api('PATCH', path, { token: auditor, json: { password_form: true } })).status, 403);
});

describe('connections that cannot be used', () => {
  test('a disabled connection and one the client does not allow: no button, and a forced press is refused', async () => {
    const client = await makeClient({ firstParty: true });
    const disabled = await connection(client, { enabled: false, displayName: 'Switched Off' });
    const other = await connection(await makeClient(), { displayName: 'Somebody Else' });
    const since = new Date(Date.now() - 1);
    for (const { slug, displayName } of [disabled, other]) {
      const start = await signInPage(client);
      assert.ok(!start.html.includes(displayName), `no ${displayName} button`);
      const pressed = await start.browser.navigate(`${start.pageUrl.pathname}/federation`, {
        ...formPost({ connection: slug }),
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: baseUrl },
      });
      assert.equal(pressed.location, undefined, 'not sent anywhere');
      assert.equal(errorOf(pressed.url), 'federation_connection_unavailable');
      assert.match(await pressed.response.text(), /not available for this app/);
      assert.deepEqual(await failures(slug, since), ['connection_unavailable']);
    }
  });

  test('an upstream that is down: the sign-in page says it did not answer', async () => {
    const client = await makeClient({ firstParty: true });
    const { slug } = await connection(client, { issuer: 'http://127.0.0.2:1' });
    const since = new Date(Date.now() - 1);
    const start = await signInPage(client);
    const pressed = await pressButton(start, slug);
    assert.equal(pressed.location, undefined);
    assert.equal(pressed.response.status, 200);
    assert.equal(errorOf(pressed.url), 'federation_unreachable');
    assert.match(await pressed.response.text(), /did not answer/);
    assert.deepEqual(await failures(slug, since), ['unreachable']);
  });
});

describe('ID tokens that fail a check (the forging upstream)', () => {
  /** Through the forger's `mode`: where Gatehouse ends and the subject the forger made up. */
  async function throughForger(mode: (typeof FORGER_MODES)[number], params: Record<string, string> = {}) {
    const client = await makeClient({ firstParty: true });
    const { slug } = await connection(client, { issuer: forger.issuerOf(mode), jitCreate: true });
    const since = new Date(Date.now() - 1);
    const start = await signInPage(client, params);
    const sent = await pressButton(start, slug);
    assert.ok(sent.location, `sent to the forger (${errorOf(sent.url)})`);
    const callback = await new TestBrowser(sent.location.origin).navigate(sent.location);
    assert.ok(callback.location);
    const end = await backAtGatehouse(start.browser, callback.location);
    return { end, start, reasons: () => failures(slug, since) };
  }

  test('the control: the forger answering correctly signs in', async () => {
    const { end, start } = await throughForger('valid');
    assert.ok(end.location, `signed in (${end.url})`);
    const tokens = await oidc.authorizationCodeGrant(start.config, end.location, { pkceCodeVerifier: start.verifier, expectedState: start.state });
    assert.deepEqual(tokens.claims()!.amr, ['fed']);
  });

  for (const mode of ['wrong_nonce', 'wrong_issuer', 'wrong_audience', 'expired', 'alg_none', 'hmac_public_key'] as const) {
    test(`${mode}: refused, nobody signed in or created`, async () => {
      const { end, reasons } = await throughForger(mode);
      assert.equal(end.location, undefined, 'not back at the app');
      assert.equal(await db().prisma.federatedIdentity.count({ where: { issuer: forger.issuerOf(mode) } }), 0, 'no identity stored');
      assert.equal(errorOf(end.url), 'federation_token_invalid');
      assert.match(end.html, /could not be verified/);
      assert.deepEqual(await reasons(), ['token_invalid']);
    });
  }

  test('an upstream sign-in older than max_age or prompt=login allow (auth_time): refused; without them it stands', async () => {
    const plain = await throughForger('stale_auth_time');
    assert.ok(plain.end.location, 'nothing asked of freshness: the old upstream session is fine');
    for (const params of [{ max_age: '60' }, { prompt: 'login' }] as Record<string, string>[]) {
      const { end, reasons } = await throughForger('stale_auth_time', params);
      assert.equal(end.location, undefined, `${JSON.stringify(params)}: not back at the app`);
      assert.equal(errorOf(end.url), 'federation_token_invalid');
      assert.deepEqual(await reasons(), ['token_invalid']);
    }
  });

  test('a token endpoint answering 500: the upstream did not answer usably', async () => {
    const { end, reasons } = await throughForger('token_500');
    assert.equal(errorOf(end.url), 'federation_unreachable');
    assert.deepEqual(await reasons(), ['unreachable']);
  });
});

describe('OAuth 2.0, GitHub-shaped (no ID token: the profile and the verified address from the API)', () => {
  async function throughGitHub(client: Client, slug: string) {
    const start = await signInPage(client);
    const sent = await pressButton(start, slug);
    assert.ok(sent.location, `sent to the GitHub-shaped server (${errorOf(sent.url)})`);
    assert.equal(sent.location.origin, github.origin);
    const callback = await new TestBrowser(github.origin).navigate(sent.location);
    assert.ok(callback.location);
    return { start, end: await backAtGatehouse(start.browser, callback.location) };
  }
  const githubConnection = (client: Client, input: Partial<NewConnectionInput> = {}) =>
    connection(client, {
      kind: 'oauth2',
      issuer: null,
      displayName: 'GitHub',
      authorizationEndpoint: `${github.origin}/login/oauth/authorize`,
      tokenEndpoint: `${github.origin}/login/oauth/access_token`,
      userinfoEndpoint: `${github.origin}/user`,
      emailsEndpoint: `${github.origin}/user/emails`,
      scopes: 'read:user user:email',
      claimMapping: { subject: 'id', username: 'login', name: 'name', email: 'email' },
      ...input,
    });

  test('just in time: the numeric id is the subject, the primary verified address the email', async () => {
    const client = await makeClient({ firstParty: true });
    const { slug } = await githubConnection(client, { jitCreate: true });
    const id = Number.parseInt(randomBytes(3).toString('hex'), 16);
    const login = `octo-${unique()}`;
    github.signInNext({
      id,
      login,
      name: 'Octo Cat',
      email: 'public@elsewhere.example',
      emails: [
        { email: 'public@elsewhere.example', primary: false, verified: false },
        { email: `${login}@users.example`, primary: true, verified: true },
      ],
    });
    const { start, end } = await throughGitHub(client, slug);
    assert.ok(end.location, `signed in (${end.url} ${end.html.slice(0, 200)})`);
    const tokens = await oidc.authorizationCodeGrant(start.config, end.location, { pkceCodeVerifier: start.verifier, expectedState: start.state });
    assert.deepEqual(tokens.claims()!.amr, ['fed']);
    const identity = await findIdentity(db(), github.origin, String(id));
    assert.equal(identity?.userId, tokens.claims()!.sub);
    const userinfo = await oidc.fetchUserInfo(start.config, tokens.access_token, tokens.claims()!.sub);
    assert.equal(userinfo.email, `${login}@users.example`);
    assert.equal(userinfo.preferred_username, login);
  });

  test('an unverified address that names an account here: no link, no takeover', async () => {
    const client = await makeClient({ firstParty: true });
    const { slug } = await githubConnection(client, { jitCreate: true });
    const user = await makeUser();
    await setVerifiedEmail(db(), user.id, user.email!);
    const id = Number.parseInt(randomBytes(3).toString('hex'), 16);
    github.signInNext({
      id,
      login: `octo-${unique()}`,
      name: 'Not Them',
      email: user.email!,
      emails: [{ email: user.email!, primary: true, verified: false }],
    });
    const { end } = await throughGitHub(client, slug);
    assert.equal(end.location, undefined);
    assert.equal(errorOf(end.url), 'federation_email_unverified');
    assert.equal(await findIdentity(db(), github.origin, String(id)), undefined);
    assert.deepEqual(await listIdentitiesOf(db(), user.id), []);
  });
});
