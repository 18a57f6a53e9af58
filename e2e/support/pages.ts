/**
 * What the browser specs (e2e/browser) share: screenshots of the pages, alerts and
 * statuses found by their text, and Gatehouse's own login form and code step.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, type Page, type Request } from '@playwright/test';
import { TOTP_PERIOD, timeStep, totpCode } from '../../lib/factors/totp.ts';
import { makeUser } from './fixtures.ts';

/**
 * A full-page screenshot taker writing e2e/screenshots/<prefix>-<name>.png, for people to look at; under CI
 * (nobody does) it takes none unless GATEHOUSE_SCREENSHOTS is set: ~150 full-page PNGs cost CPU in every run.
 */
export function screenshots(prefix: string) {
  if (process.env.CI && !process.env.GATEHOUSE_SCREENSHOTS) return async (_page: Page, _name: string) => undefined;
  const dir = resolve('e2e/screenshots');
  mkdirSync(dir, { recursive: true });
  return (page: Page, name: string) => page.screenshot({ path: join(dir, `${prefix}-${name}.png`), fullPage: true });
}

/** Next.js's route announcer is a role=alert too: match alerts and statuses by text. */
export const alert = (page: Page, text: string | RegExp) => page.getByRole('alert').filter({ hasText: text });
export const status = (page: Page, text: string | RegExp) => page.getByRole('status').filter({ hasText: text });

/**
 * Gatehouse's own login form, as any relying party's users see it; for a user
 * with TOTP on (`totpSecret`, as fixtures.ts gives admins), the code step too.
 */
export async function gatehouseLogin(page: Page, user: { username: string; password: string; totpSecret?: string }) {
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await page.getByLabel('Username').fill(user.username);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  if (user.totpSecret) await gatehouseCode(page, await unusedTotpCode(user.totpSecret));
}

/** gatehouseLogin on the German sign-in page (a browser whose language is German), the code step included for a TOTP user. */
export async function gatehouseLoginGerman(page: Page, user: { username: string; password: string; totpSecret?: string }) {
  await page.getByLabel('Benutzername').fill(user.username);
  await page.getByLabel('Passwort').fill(user.password);
  await page.getByRole('button', { name: 'Anmelden', exact: true }).click();
  if (!user.totpSecret) return;
  await page.getByLabel('Geben Sie den Code aus Ihrer Authenticator-App ein').fill(await unusedTotpCode(user.totpSecret));
  await page.getByRole('button', { name: 'Bestätigen' }).click();
}

/** The step of the last code gatehouseLogin typed for each secret, in this worker. */
const typedSteps = new Map<string, number>();

/**
 * A code the server takes for `secret`: it takes a code once, and only of a later step than the last one
 * it took, within a step of its clock (lib/factors/totp.ts). The first sign-in types the current step's
 * code; a second one within the same step types the next step's, which the server takes as well; only a
 * third within one step waits (rather than every repeated sign-in waiting out a whole step).
 */
export async function unusedTotpCode(secret: string): Promise<string> {
  const last = typedSteps.get(secret);
  let step = timeStep(Date.now());
  if (last !== undefined && last > step) {
    // The next step's code is used already: wait until that step begins, then type the one after it.
    await new Promise((resolve) => setTimeout(resolve, (last * TOTP_PERIOD + 0.5) * 1000 - Date.now()));
    step = timeStep(Date.now());
  }
  const use = last === undefined ? step : Math.max(step, last + 1);
  typedSteps.set(secret, use);
  return totpCode(secret, use * TOTP_PERIOD * 1000);
}

/**
 * The portal's Sign out, in one click: Gatehouse's logout (RP-initiated logout with the ID
 * token as id_token_hint) confirms itself for the portal (lib/oidc/provider-pages.ts), then
 * back on the area's signed-out page. Without JavaScript its one Continue button does.
 */
export async function portalSignOut(page: Page, signedOutPath: '/admin/signed-out' | '/account/signed-out') {
  await page.getByRole('button', { name: 'Sign out' }).click();
  const signedOut = page.getByRole('heading', { name: 'You are signed out' });
  const noScript = page.getByRole('button', { name: 'Continue signing out' });
  // Three hops (the server action, the logout page confirming itself, the signed-out page) in one wait.
  await expect(signedOut.or(noScript)).toBeVisible({ timeout: 20_000 });
  if (await noScript.isVisible()) await noScript.click();
  await expect(page).toHaveURL(new RegExp(`${signedOutPath}$`));
  await expect(page.getByRole('heading', { name: 'You are signed out' })).toBeVisible();
}

/** Gatehouse's code step after a right password, for a person with two-step verification on: the code from their app. */
export async function gatehouseCode(page: Page, code: string) {
  await expect(page.getByRole('heading', { name: 'Two-step verification' })).toBeVisible();
  await page.getByLabel('Enter the code from your authenticator app').fill(code);
  await page.getByRole('button', { name: 'Verify' }).click();
}

/** A new admin (TOTP on, as the default policy wants) signed in to the portal from a signed-out browser, landing on `path`. */
export async function adminSignedIn(page: Page, path = '/admin/clients') {
  const admin = await makeUser({ role: 'admin', name: 'Ada Admin' });
  await page.goto(path);
  await expect(page).toHaveURL(/\/interaction\/[^/?]+$/);
  await gatehouseLogin(page, admin);
  await expect(page).toHaveURL((url) => `${url.pathname}${url.search}` === path);
  return admin;
}

/**
 * A token just issued on an admin page (a registration token, a SCIM token), back on its list with Done: its row
 * shows `shows`, its value is nowhere on the page, and its row's Revoke revokes it.
 */
export async function revokeListedToken(page: Page, { name, token, shows }: { name: string; token: string; shows: string[] }) {
  await page.getByRole('link', { name: 'Done' }).click();
  const listed = page.getByRole('row').filter({ hasText: name });
  for (const text of shows) await expect(listed).toContainText(text);
  await expect(page.getByText(token)).toHaveCount(0);
  await listed.getByRole('button', { name: `Revoke the token ${name}` }).click();
  await expect(page.getByText('The token is revoked')).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: name })).toContainText('Revoked');
}

/** An auditor signed in on a list of issued tokens (`path`, headed `heading`): the list, and no form to issue or revoke one. */
export async function auditorSeesTokensOnly(page: Page, path: string, heading: string) {
  const auditor = await makeUser({ role: 'auditor' });
  await page.goto(path);
  await gatehouseLogin(page, auditor);
  await expect(page).toHaveURL(new RegExp(`${path}$`));
  await expect(page.getByRole('heading', { name: heading })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Issue token' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Revoke/ })).toHaveCount(0);
}

/**
 * The URL the browser was sent to at the app's callback (`request`, from page.waitForRequest before the step that
 * sends it there). Nothing listens at the test apps' callback (127.0.0.1:9, a port Chromium refuses), so Chromium's
 * error page follows; it is awaited here so that it cannot land during, and cut short, the page's next navigation.
 */
export async function callbackReached(page: Page, request: Promise<Request>): Promise<string> {
  const url = (await request).url();
  await page.waitForURL(/^chrome-error:/);
  return url;
}
