/**
 * Signing out of /account in one click (issue 23, item 12): the portal's Sign out ends the
 * Gatehouse session too without a second page asking; without JavaScript one Continue button
 * does it. Either way the next visit to /account asks for the password again. Another app's
 * logout request still asks (e2e/protocol covers the provider's confirmation).
 */
import { expect, type Page, test } from '@playwright/test';
import { controlFindings, describeFindings, wcagFindings } from '../support/axe.ts';
import { makeUser } from '../support/fixtures.ts';
import { gatehouseLogin, screenshots } from '../support/pages.ts';

const shoot = screenshots('sign-out');

async function signInToAccount(page: Page, user: { username: string; password: string }) {
  await page.goto('/account');
  await gatehouseLogin(page, user);
  await expect(page).toHaveURL(/\/account$/);
}

async function expectSignedOutOfGatehouse(page: Page) {
  await expect(page).toHaveURL(/\/account\/signed-out$/);
  await page.goto('/account');
  await expect(page.getByRole('heading', { name: 'Sign in' }), 'the Gatehouse session ended too: the password is asked').toBeVisible();
}

test('with JavaScript: one click, no confirmation page', async ({ page }) => {
  test.slow(); // a sign-in, the sign-out's hops, and the sign-in page again
  await signInToAccount(page, await makeUser());
  const pages: string[] = [];
  page.on('framenavigated', (frame) => frame === page.mainFrame() && pages.push(new URL(frame.url()).pathname));
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'You are signed out' })).toBeVisible();
  await expect(page.getByText(/asked to end your session/)).toHaveCount(0);
  expect(pages.filter((path) => path.startsWith('/oauth/logout')).length, 'the logout page passes by itself').toBeLessThanOrEqual(2);
  await expectSignedOutOfGatehouse(page);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  for (const colorScheme of ['light', 'dark'] as const) {
    test(`one button, no question (${colorScheme})`, async ({ browser, page }) => {
      test.slow(); // a sign-in, a second browser for axe, and the sign-in page again
      await page.emulateMedia({ colorScheme });
      await signInToAccount(page, await makeUser());
      await page.getByRole('button', { name: 'Sign out' }).click();
      await expect(page.getByRole('heading', { name: 'Signing you out of Gatehouse…' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'No, stay signed in' })).toHaveCount(0);
      // axe runs as a script, which this page cannot: the same document, its script left out and its <noscript> shown, in a page that can.
      const html = (await page.content()).replace(/<script>[\s\S]*?<\/script>/, '').replace(/<\/?noscript>/g, '');
      const scan = await (await browser.newContext({ colorScheme, javaScriptEnabled: true })).newPage();
      await scan.setContent(html);
      await expect(scan.getByRole('button', { name: 'Continue signing out' })).toBeVisible();
      const findings = [...(await wcagFindings(scan, 'signing-out', colorScheme)), ...(await controlFindings(scan, 'signing-out', colorScheme))];
      expect(findings.length, describeFindings(findings)).toBe(0);
      await scan.context().close();
      await shoot(page, `no-js-${colorScheme}`);
      await page.getByRole('button', { name: 'Continue signing out' }).click();
      await expectSignedOutOfGatehouse(page);
    });
  }
});
