/**
 * WCAG 2.2 AA, measured (issue 12): every page of the sign-in, consent,
 * second-factor, recovery and error areas, of /account and of /admin, in the
 * light and the dark scheme (colorScheme emulation, which prefers-color-scheme
 * follows) at desktop (1280×800) and phone (390×844) sizes, scanned by axe-core
 * with the WCAG 2.0/2.1/2.2 A and AA rules, and its form fields' boundaries
 * measured (WCAG 1.4.11, which axe skips). A serious or critical violation on
 * any page fails its walk, with the page, the rule and the elements named
 * (e2e/support/axe.ts). Pages are reached the way people reach them, forms with
 * their errors shown included; each walk is one browser context that signs in once.
 * The scheme is pure CSS (app/globals.css, prefers-color-scheme, which changes
 * colours and nothing else), so one walk per size scans each page as it stands in
 * the light scheme and again in the dark one (emulateMedia switches the scheme in
 * place): the same pages and states as a walk per scheme, reached once. In the dark
 * scheme axe runs the rules colours decide (contrast, links told apart by colour)
 * and the boundary check; the rest read the same document as in the light scheme.
 *
 * With GATEHOUSE_SCREENSHOTS=1 the same walks also run in German and write a
 * full-page PNG of every page to test-results/screenshots/<language>-<scheme>-<size>/<area>/,
 * numbered in walk order (not committed: test-results/ is ignored), and walks issue 23's new
 * states too (an area of their own, `new-states`, which their own specs scan in the suite).
 * Without it the run stays in English and writes none, to keep the suite fast.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { database } from '../../lib/db/database.ts';
import { insertMailLink, newLinkToken } from '../../lib/mail-links/repository.ts';
import { ACCOUNTS_COOKIE } from '../../lib/sign-in/remembered-accounts.ts';
import { createLogger } from '../../lib/ops/log.ts';
import { inviteUser } from '../../lib/users/invitations.ts';
import { capturingMailer } from '../../lib/testing.ts';
import { totpCode } from '../../lib/factors/totp.ts';
import { COLOUR_RULES, controlFindings, describeFindings, type Finding, wcagFindings } from '../support/axe.ts';
import { authorizationRequest, baseUrl, codeFlow, databaseUrl, enrolTotp, makeClient, makeUser } from '../support/fixtures.ts';
import { enrolPasskey } from '../support/passkeys.ts';

const screenshotsOn = process.env.GATEHOUSE_SCREENSHOTS === '1';
const languages = screenshotsOn ? (['en', 'de'] as const) : (['en'] as const);
const schemes = ['light', 'dark'] as const;
const sizes = {
  desktop: { viewport: { width: 1280, height: 800 } },
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
} as const;

type User = Awaited<ReturnType<typeof makeUser>>;

/** A redirect URI this server answers (with its 404 page), so a finished sign-in ends on a page, not a refused port. */
const landing = `${baseUrl}/test-callback`;
/** A page's own submit button: every sign-in card also has the language switcher's buttons (name=locale). */
const SUBMIT = 'button[type=submit]:not([name=locale])';

/** One walk through an area: scans each page it is shown in every scheme, and photographs it when screenshots are on. */
class Walk {
  readonly findings: Finding[] = [];
  readonly pages: string[] = [];

  readonly page: Page;
  /** The name of what a scheme's findings and screenshots were seen in: `<language>-<scheme>-<size>`. */
  private readonly variantOf: (scheme: (typeof schemes)[number]) => string;
  private readonly area: string;

  constructor(page: Page, variantOf: (scheme: (typeof schemes)[number]) => string, area: string) {
    this.page = page;
    this.variantOf = variantOf;
    this.area = area;
  }

  /** Scans the page as it is now under `name` in each scheme (after waiting for what `ready` names, when given). */
  async check(name: string, ready?: string) {
    if (ready) await expect(this.page.locator(ready).first()).toBeVisible();
    await this.page.waitForLoadState('load');
    this.pages.push(name);
    for (const scheme of schemes) {
      await this.page.emulateMedia({ colorScheme: scheme });
      const variant = this.variantOf(scheme);
      // Every WCAG rule in the first scheme; in the next, of the same document, the rules that colours decide.
      const rules = scheme === schemes[0] ? undefined : COLOUR_RULES;
      const findings = [...(await wcagFindings(this.page, name, variant, rules)), ...(await controlFindings(this.page, name, variant))];
      this.findings.push(...findings);
      // Soft: the walk goes on, so one run lists every page's violations (and a later step's failure keeps them).
      expect.soft(findings.length, `serious or critical WCAG violations:\n${describeFindings(findings)}\n`).toBe(0);
      if (screenshotsOn) {
        const dir = resolve('test-results/screenshots', variant, this.area);
        mkdirSync(dir, { recursive: true });
        const file = `${String(this.pages.length).padStart(2, '0')}-${name}.png`;
        await this.page.screenshot({ path: join(dir, file), fullPage: true });
      }
    }
    // The walk goes on in the first scheme, as it began.
    await this.page.emulateMedia({ colorScheme: schemes[0] });
  }

  async visit(path: string, name: string, ready?: string) {
    await this.page.goto(path);
    await this.check(name, ready);
  }

  /** Says what was scanned, in the test's annotations (the list reporter's JSON and HTML show them). */
  done() {
    test.info().annotations.push({ type: 'pages scanned', description: `${this.pages.length}: ${this.pages.join(', ')}` });
    test.info().annotations.push({ type: 'violations', description: String(this.findings.length) });
  }
}

/** Gatehouse's login form, by its fields (the walk runs in every language). */
async function signIn(page: Page, user: { username: string; password: string }) {
  const form = page.locator('form[action$="/login"]');
  await form.locator('input[name=username]').fill(user.username);
  await form.locator('input[name=password]').fill(user.password);
  await form.locator('button[type=submit]').click();
}

async function submitCode(page: Page, code: string) {
  const form = page.locator('form[action$="/second-factor"]');
  await form.locator('input[name=code]').fill(code);
  await form.locator('button[type=submit]').click();
}

/** An authorization request of `client`'s, opened in the walk's page; lands on the login step. */
async function startSignIn(walk: Walk, client: Awaited<ReturnType<typeof makeClient>>, params: Record<string, string> = {}) {
  await walk.page.context().clearCookies();
  const { url } = await authorizationRequest(client, params);
  await walk.page.goto(url.href);
  await expect(walk.page).toHaveURL(/\/interaction\/[^/?]+$/);
  return walk.page.url();
}

/** A mailed link of `purpose` for `user`, written where the server keeps links (the mail itself is the mail tests' business). */
async function mailLink(user: User, purpose: 'password_reset' | 'email_verification', path: string) {
  const token = newLinkToken();
  await insertMailLink(database(databaseUrl), { token, userId: user.id, purpose, email: user.email!, expiresAt: new Date(Date.now() + 3_600_000) });
  return `${path}/${token}`;
}

/** An invited person's link, through the same use case as the portal's, its mail kept in memory. */
async function invitationLink(origin: string) {
  const { sent, mailer } = capturingMailer();
  const username = `ivy-${randomBytes(5).toString('hex')}`;
  await inviteUser(
    {
      db: database(databaseUrl),
      mailer,
      log: createLogger({ level: 'silent' }),
      now: Date.now,
      config: { ISSUER: origin, BRAND_NAME: 'Gatehouse', BRAND_ACCENT_COLOR: '#4f46e5' },
    },
    { username, email: `${username}@example.test`, name: 'Ivy Invited' },
  );
  const link = sent[0].text.split(/\s+/).find((word) => word.startsWith(`${origin}/invitation/`));
  if (!link) throw new Error('the invitation mail carries no link');
  return new URL(link).pathname;
}

/** The sign-in, consent, second-factor, recovery and error pages: what anyone reaches without a portal session. */
async function signInPages(walk: Walk) {
  const { page } = walk;
  const client = await makeClient({ name: 'Notes' });
  const origin = new URL(baseUrl).origin;

  await walk.visit('/', 'home', 'h1');

  const login = await startSignIn(walk, client);
  await walk.check('sign-in', 'form[action$="/login"]');
  await signIn(page, { username: 'nobody-here', password: 'not the password' });
  await walk.check('sign-in-wrong-password', '[role=alert]');

  const signUp = page.locator(`a[href$="/sign-up"]`);
  if ((await signUp.count()) > 0) {
    await walk.visit(`${new URL(login).pathname}/sign-up`, 'sign-up', 'input#username');
    await page.locator('input#password').fill('short');
    await page.locator(SUBMIT).click();
    await walk.check('sign-up-errors', '[aria-invalid=true]');
    const username = `new-${randomBytes(5).toString('hex')}`;
    await page.locator('input#username').fill(username);
    await page.locator('input#email').fill(`${username}@example.test`);
    await page.locator('input#password').fill('a long enough password');
    await page.locator('input#confirmPassword').fill('a long enough password');
    await page.locator(SUBMIT).click();
    await walk.check('check-mail', 'form[action$="/resend"]');
  } else {
    test.info().annotations.push({ type: 'not scanned', description: 'sign-up and check-mail: this server does not offer sign-up' });
  }

  await walk.visit(`/password-reset?from=${encodeURIComponent(new URL(login).pathname)}`, 'password-reset', 'h1');
  if ((await page.locator('input#identifier').count()) > 0) {
    await page.locator('input#identifier').fill(`nobody-${Date.now()}@example.test`);
    await page.locator(SUBMIT).click();
    await walk.check('password-reset-sent', '[role=status]');
  } else {
    test.info().annotations.push({ type: 'not scanned', description: 'password-reset-sent: this server mails no links' });
  }
  const resetUser = await makeUser();
  await walk.visit(await mailLink(resetUser, 'password_reset', '/password-reset'), 'password-reset-link', 'input#password');
  await page.locator('input#password').fill('a long new password');
  await page.locator('input#confirmPassword').fill('not the same password');
  await page.locator(SUBMIT).click();
  await walk.check('password-reset-link-errors', '[aria-invalid=true]');
  await walk.visit('/password-reset/not-a-link-we-sent', 'password-reset-link-unknown', 'h1');
  await walk.visit(await mailLink(resetUser, 'email_verification', '/verify-email'), 'verify-email', SUBMIT);
  await walk.visit(await invitationLink(origin), 'invitation', 'input#password');

  // Consent: a person with nothing else to do signs in to the app.
  const person = await makeUser({ name: 'Grace Hopper' });
  await startSignIn(walk, client);
  await signIn(page, person);
  await walk.check('consent', 'form[action$="/confirm"]');
  // The account chooser: prompt=select_account in a browser that now has a session.
  await page.goto((await authorizationRequest(client, { prompt: 'select_account' })).url.href);
  await walk.check('select-account', 'form[action$="/select-account"]');

  // The code step, a wrong code, the recovery-code form; the page after a recovery code.
  const coded = await makeUser({ secondFactor: false });
  const { secret, recoveryCodes } = await enrolTotp(coded);
  await startSignIn(walk, client);
  await signIn(page, coded);
  await walk.check('second-factor', 'input[name=code]');
  const wrong = String((Number(totpCode(secret, Date.now())) + 500_000) % 1_000_000).padStart(6, '0');
  await submitCode(page, wrong);
  await walk.check('second-factor-wrong-code', '[role=alert]');
  await page.goto(`${new URL(page.url()).pathname}?method=recovery_code`);
  await walk.check('second-factor-recovery-code', 'input[name=code]');
  await submitCode(page, recoveryCodes[0]);
  await walk.check('recovery-code-used', 'a[href*="/oauth/authorize"]');

  // A passkey as the second step.
  const keyed = await makeUser({ secondFactor: false });
  await enrolPasskey(keyed);
  await startSignIn(walk, client);
  await signIn(page, keyed);
  // The login page offers a passkey too: the step is the page without the password form.
  await expect(page.locator('form[action$="/login"]')).toHaveCount(0);
  await walk.check('second-factor-passkey', 'form[action$="/passkey"]');

  // Errors: an interaction that is gone, a request the provider refuses, a missing page, the portal's sign-in error.
  await walk.visit('/interaction/no-such-interaction', 'interaction-expired', 'h1');
  await walk.visit(
    `/oauth/authorize?${new URLSearchParams({ client_id: 'no-such-client', response_type: 'code', scope: 'openid', redirect_uri: 'http://127.0.0.1:9/callback' })}`,
    'provider-error',
    'h1',
  );
  await walk.visit('/no-such-page', 'not-found', 'h1');
  await walk.visit('/sign-in?error=OAuthCallback&callbackUrl=%2Fadmin', 'portal-sign-in-error', 'h1');
  await walk.visit('/sign-in?error=OAuthCallback&callbackUrl=%2Faccount', 'account-sign-in-error', 'h1');

  // Sign-out: the provider's confirmation and its signed-out page, the portals' own.
  await page.context().clearCookies();
  await startSignIn(walk, client);
  await signIn(page, person);
  await expect(page.locator('form[action$="/confirm"]')).toBeVisible();
  await walk.visit('/oauth/logout', 'logout', 'button[name=logout]');
  await page.locator('button[name=logout]').click();
  await walk.check('logged-out', 'h1');
  await walk.visit('/account/signed-out', 'account-signed-out', 'h1');
  await walk.visit('/admin/signed-out', 'admin-signed-out', 'h1');
}

/** Every /account page (with an app connected, forms with their errors shown), then the 403 of /admin. */
async function accountPages(walk: Walk) {
  const { page } = walk;
  const client = await makeClient({ name: 'Notes', redirectUris: [landing] });
  const other = await makeUser();
  const person = await makeUser({ name: 'Grace Hopper' });
  // An app connected first, so the apps page lists one; the Gatehouse session then opens /account without a second sign-in.
  await startSignIn(walk, client, { scope: 'openid profile offline_access', prompt: 'consent', redirect_uri: landing });
  await signIn(page, person);
  await page.locator('form[action$="/confirm"] button[type=submit]').click();
  await page.waitForURL((url) => url.href.startsWith(landing) && url.searchParams.has('code'));

  await walk.visit('/account', 'account-profile', 'input#email');
  await page.locator('input#email').fill(other.email!);
  await page.locator('input#email').press('Enter');
  await walk.check('account-profile-error', 'input#email[aria-invalid=true]');

  await walk.visit('/account/password', 'account-password', 'input#currentPassword');
  await page.locator('input#currentPassword').fill('not my password');
  await page.locator('input#newPassword').fill('a brand new password');
  await page.locator('input#confirmPassword').fill('a different new password');
  await page.locator('input#confirmPassword').press('Enter');
  await walk.check('account-password-errors', '[aria-invalid=true]');

  await walk.visit('/account/security', 'account-security', 'h1');
  await page.locator('main form').first().locator('button[type=submit]').click();
  await walk.check('account-security-set-up', 'input#code');
  await page.locator('input#code').fill('000000');
  await page.locator('input#code').press('Enter');
  await walk.check('account-security-set-up-error', 'input#code[aria-invalid=true]');

  // Two-step verification on, with a passkey: the page's other state, then new recovery codes, shown once.
  await enrolTotp(person);
  await enrolPasskey(person);
  await walk.visit('/account/security', 'account-security-on', 'input#codes-currentPassword');
  await page.locator('input#codes-currentPassword').fill(person.password);
  await page.locator('input#codes-currentPassword').press('Enter');
  await walk.check('account-security-recovery-codes', 'main li, main ol, main code');

  await walk.visit('/account/apps', 'account-apps', 'h1');
  await walk.visit('/account/sessions', 'account-sessions', 'h1');
  await walk.visit('/admin/clients', 'forbidden', 'h1');
}

/** Every /admin page: the lists (one empty), a client and a user with their forms (errors shown), the audit log, the system page. */
async function adminPages(walk: Walk) {
  const { page } = walk;
  const client = await makeClient({ name: 'Notes' });
  // A person with a session and a grant, so the user page shows both.
  const { user } = await codeFlow(client, 'openid profile');
  const admin = await makeUser({ role: 'admin', name: 'Ada Admin' });
  await page.goto('/admin/clients');
  await signIn(page, admin);
  await submitCode(page, totpCode(admin.totpSecret!, Date.now()));
  await expect(page).toHaveURL(/\/admin\/clients$/);
  await walk.check('admin-clients', 'table');
  await walk.visit('/admin/clients?q=nothing-matches-this', 'admin-clients-empty', 'table');

  await walk.visit('/admin/clients/new', 'admin-client-kinds', 'main nav a');
  await walk.visit('/admin/clients/new?kind=web', 'admin-client-new', 'input#name');
  await page.locator('input#name').fill('Reports');
  await page.locator('textarea#redirectUris, input#redirectUris').fill('not a url');
  await page.locator('main form:has(#name, #username) button[type=submit]').last().click();
  await walk.check('admin-client-new-errors', '[aria-invalid=true]');
  await page.locator('textarea#redirectUris, input#redirectUris').fill('https://reports.example.test/callback');
  await page.locator('main form:has(#name, #username) button[type=submit]').last().click();
  await walk.check('admin-client-created', 'input[data-secret]');

  await walk.visit(`/admin/clients/${encodeURIComponent(client.id)}`, 'admin-client', 'h1');
  await page.getByRole('button', { name: 'Rotate secret' }).click();
  await walk.check('admin-client-confirm-unticked', '[role=alert]:has-text("Tick")');
  await walk.visit(`/admin/clients/${encodeURIComponent(client.id)}/edit`, 'admin-client-edit', 'input#name');
  await page.locator('input#name').fill('');
  await page.locator('main form:has(#name, #username) button[type=submit]').last().click();
  await walk.check('admin-client-edit-errors', '[aria-invalid=true]');

  await walk.visit('/admin/users', 'admin-users', 'table');
  await walk.visit('/admin/users/new', 'admin-user-new', 'input#username');
  await page.locator('input#username').fill('not a valid name!');
  await page.locator('main form:has(#name, #username) button[type=submit]').last().click();
  await walk.check('admin-user-new-errors', '[aria-invalid=true]');
  await walk.visit(`/admin/users/${encodeURIComponent(user.id)}`, 'admin-user', 'h1');
  await walk.visit(`/admin/users/${encodeURIComponent(user.id)}/edit`, 'admin-user-edit', 'input#email');
  await page.locator('input#email').fill('not-an-address');
  await page.locator('main form:has(input#email) button[type=submit]').click();
  await walk.check('admin-user-edit-errors', '[aria-invalid=true]');

  await walk.visit('/admin/audit', 'admin-audit', 'table');
  await walk.visit('/admin/audit?action=sign_in.failed', 'admin-audit-filtered', 'table');
  await walk.visit('/admin/system', 'admin-system', 'h1');
  await walk.visit('/admin/access', 'admin-access', 'h1');
}

/** A new authorization request in a browser that ended its sessions but kept its list of accounts (ACCOUNT_CHOOSER). */
async function keepingAccounts(walk: Walk, client: Awaited<ReturnType<typeof makeClient>>, params: Record<string, string> = {}) {
  const context = walk.page.context();
  const accounts = (await context.cookies()).filter((cookie) => cookie.name === ACCOUNTS_COOKIE);
  await context.clearCookies();
  await context.addCookies(accounts);
  await walk.page.goto((await authorizationRequest(client, params)).url.href);
  await expect(walk.page).toHaveURL(/\/interaction\/[^/?]+$/);
}

/** Consent, then back at the app (its landing page). */
async function allow(page: Page) {
  await page.locator('form[action$="/confirm"] button[type=submit]').click();
  await page.waitForURL((url) => url.href.startsWith(landing) && url.searchParams.has('code'));
}

/**
 * The states issue 23 added, for the screenshot run only: each is scanned by axe in its own spec
 * (consent-remembered, account-chooser, password-fields, mail-codes, logos, admin-presets, admin-bulk),
 * so the suite's walk does not pay for them twice (the suite's walk has some of them too: the trust
 * box, the recovery codes, the presets). The email sign-in code needs EMAIL_SIGN_IN_CODES, which the
 * suite's server leaves off: email-sign-in-codes.spec.ts photographs it on an instance of its own.
 */
async function newStatePages(walk: Walk) {
  const { page } = walk;
  const client = await makeClient({ name: 'Notes', redirectUris: [landing] });
  const grace = await makeUser({ name: 'Grace Hopper' });
  const alan = await makeUser({ name: 'Alan Turing' });

  // Consent asked once: allowed for the profile in one browser, the next asks only for what is new.
  await startSignIn(walk, client, { scope: 'openid profile', redirect_uri: landing });
  await signIn(page, grace);
  await allow(page);
  await keepingAccounts(walk, client, { scope: 'openid profile email', redirect_uri: landing });
  await signIn(page, grace);
  await walk.check('consent-new-scope', 'form[action$="/confirm"]');
  await allow(page);

  // The account chooser with two accounts, then one picked.
  await keepingAccounts(walk, client, { scope: 'openid', redirect_uri: landing });
  await signIn(page, alan);
  await allow(page);
  await keepingAccounts(walk, client, { scope: 'openid', redirect_uri: landing });
  await walk.check('account-chooser-two', 'section[aria-labelledby=account-chooser] a');
  await page.locator('section[aria-labelledby=account-chooser] a').first().click();
  await walk.check('account-chooser-picked', 'input[name=password]');

  // A logo that fails to load: the app's initial, on the sign-in card.
  await page.route('https://logos.example/**', (route) => route.fulfill({ status: 404, contentType: 'text/plain', body: 'not found' }));
  const logoClient = await makeClient({ name: 'Quill Notes', logoUri: 'https://logos.example/broken.png' });
  const login = await startSignIn(walk, logoClient);
  await walk.check('logo-fallback', '[data-initial]');

  // Sign-up's password field: strength guidance as typed, then shown with Show.
  await walk.visit(`${new URL(login).pathname}/sign-up`, 'sign-up', 'input#password');
  // A client component: typed into before it is hydrated, a field can be drawn again empty.
  await page.waitForLoadState('networkidle');
  const username = `new-${randomBytes(5).toString('hex')}`;
  await page.locator('input#username').fill(username);
  await page.locator('input#email').fill(`${username}@example.test`);
  await page.locator('input#password').fill('quiet lanterns fold the harbour map');
  await page.locator('input#confirmPassword').fill('quiet lanterns fold the harbour map');
  await page.locator('button[aria-controls=password]').click();
  await walk.check('sign-up-password-shown', 'input#password[type=text]');

  // The waiting page's code field, a wrong code refused beside it.
  await page.locator(SUBMIT).click();
  await walk.check('check-mail-code', 'form[action$="/code"] input[name=code]');
  await page.locator('form[action$="/code"] input[name=code]').fill('000000');
  await page.locator('form[action$="/code"] button[type=submit]').click();
  await walk.check('check-mail-wrong-code', '[role=alert]');

  // The second step with "Don't ask again on this device": with the code form, and with a passkey alone.
  const coded = await makeUser({ secondFactor: true });
  await startSignIn(walk, client, { redirect_uri: landing });
  await signIn(page, coded);
  await walk.check('second-factor-trust', 'input[name=trust_device]');
  const keyed = await makeUser();
  await enrolPasskey(keyed);
  await startSignIn(walk, client, { redirect_uri: landing });
  await signIn(page, keyed);
  await walk.check('second-factor-passkey-trust', 'form[action$="/passkey"] input[name=trust_device]');

  // New recovery codes in /account, with Copy, Download and Print.
  await page.context().clearCookies();
  await page.goto('/account');
  await signIn(page, grace);
  await expect(page).toHaveURL(/\/account$/);
  await enrolTotp(grace);
  await page.goto('/account/security');
  await page.locator('input#codes-currentPassword').fill(grace.password);
  await page.locator('input#codes-currentPassword').press('Enter');
  await walk.check('recovery-codes-actions', 'ul#recovery-codes li');

  // Admin: a kind that is public (no secret), a client's quickstart, the bulk actions' confirmation pages.
  const admin = await makeUser({ role: 'admin', name: 'Ada Admin' });
  await page.context().clearCookies();
  await page.goto('/admin/clients');
  await signIn(page, admin);
  await submitCode(page, totpCode(admin.totpSecret!, Date.now()));
  await expect(page).toHaveURL(/\/admin\/clients$/);
  await walk.visit('/admin/clients/new?kind=spa', 'admin-client-new-spa', 'input#name');
  await walk.visit(`/admin/clients/${encodeURIComponent(client.id)}`, 'admin-client-quickstart', 'main pre, main code');
  await walk.visit(`/admin/users/bulk?action=disable&id=${grace.id}&id=${alan.id}&id=${admin.id}`, 'admin-users-bulk-confirm', 'main li');
  await walk.visit(
    `/admin/clients/bulk?action=delete&id=${encodeURIComponent(client.id)}&id=${encodeURIComponent(logoClient.id)}`,
    'admin-clients-bulk-confirm',
    'main li',
  );
}

/** Each area's walk, by the folder its screenshots go to. */
const areas = [
  { area: 'sign-in', title: 'sign-in, consent, second factor, recovery, errors', walkThrough: signInPages },
  { area: 'account', title: 'account', walkThrough: accountPages },
  { area: 'admin', title: 'admin', walkThrough: adminPages },
  // Only photographed: see newStatePages.
  ...(screenshotsOn ? [{ area: 'new-states', title: 'issue 23’s new states', walkThrough: newStatePages }] : []),
];

for (const language of languages) {
  for (const [size, device] of Object.entries(sizes)) {
    test.describe(`${language}-${schemes.join('+')}-${size}`, () => {
      test.use({ colorScheme: schemes[0], locale: language === 'de' ? 'de-DE' : 'en-US', ...device });
      for (const { area, title, walkThrough } of areas) {
        test(`WCAG 2.2 AA: ${title}`, async ({ page }) => {
          test.setTimeout(360_000);
          const walk = new Walk(page, (scheme) => `${language}-${scheme}-${size}`, area);
          try {
            await walkThrough(walk);
          } finally {
            walk.done();
          }
        });
      }
    });
  }
}
