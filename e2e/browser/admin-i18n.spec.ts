/**
 * The admin portal in the catalogs' languages and the browser's time zone: a German browser gets the admin in
 * German (<html lang="de">), its new pages too (application kinds, bulk confirmation, System facts); moments are
 * <time datetime> in the browser's zone once its script told it, in UTC and saying so before. axe: no serious or
 * critical violation on the German pages, light and dark.
 */
import { type Browser, expect, test } from '@playwright/test';
import { COLOUR_RULES, describeFindings, type Finding, wcagFindings } from '../support/axe.ts';
import { makeClient, makeUser } from '../support/fixtures.ts';
import { gatehouseLoginGerman, screenshots } from '../support/pages.ts';

test.slow(true, 'a German sign-in with its second factor, then several pages, each scanned by axe');

const shoot = screenshots('admin-de');

/** A German browser (Berlin time, or the options given), an admin signed in through the German sign-in page. */
async function germanAdmin(browser: Browser, options: Parameters<Browser['newContext']>[0] = {}) {
  const context = await browser.newContext({ locale: 'de-DE', timezoneId: 'Europe/Berlin', ...options });
  const page = await context.newPage();
  const admin = await makeUser({ role: 'admin' });
  await page.goto('/admin/users');
  await gatehouseLoginGerman(page, admin);
  await expect(page.getByRole('heading', { name: 'Benutzer', level: 1 })).toBeVisible();
  return { context, page, admin };
}

test('a German browser gets the admin in German, the new pages included, with times in Berlin time', async ({ browser }) => {
  const { context, page, admin } = await germanAdmin(browser);
  expect(await page.locator('html').getAttribute('lang')).toBe('de');
  await expect(page.getByRole('columnheader', { name: 'Zweistufig' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Deaktivieren…' })).toBeVisible();

  await page.goto('/admin/clients/new');
  await expect(page.getByRole('heading', { name: 'Client registrieren', level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: /^Single-Page-App/ })).toBeVisible();
  await shoot(page, 'client-kinds');

  const other = await makeUser();
  await page.goto(`/admin/users/bulk?action=disable&id=${other.id}&id=${admin.id}`);
  await expect(page.getByText('1 Benutzer wird deaktiviert')).toBeVisible();
  await expect(page.getByRole('listitem').filter({ hasText: admin.username })).toContainText('Übersprungen: Ihr eigenes Konto');
  await shoot(page, 'bulk-confirm');

  await page.goto('/admin/system');
  await expect(page.getByText('Anmeldung und Sitzungen')).toBeVisible();
  await expect(page.getByText(/^Geschlossen|^Offen/)).toBeVisible();

  // The zone was told by the first page's script: the moments are Berlin time, not "UTC".
  await page.goto('/admin/audit');
  const first = page.locator('table time[datetime]').first();
  await expect(first).toBeVisible();
  await expect(first).not.toContainText('UTC');
  const iso = await first.getAttribute('datetime');
  const berlin = new Intl.DateTimeFormat('de-DE', { timeStyle: 'short', timeZone: 'Europe/Berlin' }).format(new Date(iso!));
  await expect(first).toContainText(berlin);
  await context.close();
});

test('without JavaScript the zone is not known: times are UTC and say so', async ({ browser }) => {
  const { context, page } = await germanAdmin(browser, { javaScriptEnabled: false });
  await page.goto('/admin/audit');
  const first = page.locator('table time[datetime]').first();
  await expect(first).toContainText('UTC');
  await context.close();
});

for (const scheme of ['light', 'dark'] as const) {
  test(`German admin pages in the ${scheme} scheme: no serious or critical axe violation`, async ({ browser }) => {
    const { context, page, admin } = await germanAdmin(browser, { colorScheme: scheme });
    const client = await makeClient({ name: 'Notizen' });
    const findings: Finding[] = [];
    for (const [path, name] of [
      ['/admin/users', 'users'],
      ['/admin/clients/new', 'client-kinds'],
      ['/admin/clients/new?kind=web', 'client-web'],
      ['/admin/clients/new?kind=spa', 'client-spa'],
      [`/admin/clients/${encodeURIComponent(client.id)}`, 'client-quickstart'],
      [`/admin/users/bulk?action=disable&id=${admin.id}`, 'users-bulk-confirm'],
      ['/admin/audit', 'audit'],
      ['/admin/system', 'system'],
    ] as const) {
      await page.goto(path);
      // The scheme changes colours alone (app/globals.css): in the dark one, the rules that colours decide (as accessibility.spec.ts).
      findings.push(...(await wcagFindings(page, `de-${name}`, scheme, scheme === 'dark' ? COLOUR_RULES : undefined)));
    }
    expect(findings, describeFindings(findings)).toHaveLength(0);
    await context.close();
  });
}
