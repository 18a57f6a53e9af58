/**
 * "Keep me signed in" on Gatehouse's sign-in page: unticked (the default), the session cookie is the
 * browser's session only; ticked, it lasts SESSION_TTL. Without JavaScript too (a plain checkbox).
 */
import { expect, test, type Page } from '@playwright/test';
import { authorizationRequest, makeClient, makeUser } from '../support/fixtures.ts';
import { screenshots } from '../support/pages.ts';

const shoot = screenshots('sign-in');

async function signIn(page: Page, keep: boolean) {
  const client = await makeClient({ firstParty: true });
  const user = await makeUser();
  const { url } = await authorizationRequest(client);
  await page.goto(url.href);
  const box = page.getByLabel('Keep me signed in');
  await expect(box).not.toBeChecked();
  await page.getByLabel('Username').fill(user.username);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  if (keep) await box.check();
  if (keep) await shoot(page, 'keep-signed-in');
  const callback = page.waitForRequest(/^http:\/\/127\.0\.0\.1:9\/callback\?/);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await callback;
  return (await page.context().cookies()).find((c) => c.name === '_session');
}

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('unticked: the session cookie ends with the browser', async ({ page }) => {
    const cookie = await signIn(page, false);
    expect(cookie?.expires, 'a session cookie (no Expires)').toBe(-1);
  });

  test('ticked: the session cookie lasts SESSION_TTL (14 days by default)', async ({ page }) => {
    const cookie = await signIn(page, true);
    const days = (cookie!.expires - Date.now() / 1000) / 86_400;
    expect(days).toBeGreaterThan(13.9);
    expect(days).toBeLessThan(14.1);
  });
});
