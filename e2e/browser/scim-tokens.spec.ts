/**
 * The portal's page of SCIM provisioning clients' tokens: an admin issues one (the token shown once, only its hash
 * stored), sees it listed, revokes it; each step is in the audit log as done by that admin. An empty name comes
 * back next to its field. An auditor (access.read) sees the list but no form. The browser suite's server keeps
 * SCIM off, as every deployment has it, and the page says so. axe finds no serious or critical violation, light
 * and dark, in English and in German.
 */
import { createHash } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { database } from '../../lib/db/database.ts';
import { COLOUR_RULES, describeFindings, wcagFindings } from '../support/axe.ts';
import { databaseUrl, makeUser } from '../support/fixtures.ts';
import { adminSignedIn, auditorSeesTokensOnly, gatehouseLoginGerman, revokeListedToken } from '../support/pages.ts';
import { issueScimToken } from '../../lib/scim/tokens.ts';

test.slow(true, 'one sign-in, axe twice and three server actions');

test('an admin issues a SCIM token, sees it once, and revokes it; both audited', async ({ page }) => {
  const admin = await adminSignedIn(page, '/admin/provisioning');
  const db = database(databaseUrl);
  const name = `Okta ${Date.now()}`;
  await expect(page.getByText('SCIM is off on this instance')).toBeVisible();

  await page.getByRole('button', { name: 'Issue token' }).click();
  await expect(page.getByLabel('Name', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await page.getByLabel('Name', { exact: true }).fill(name);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const findings = await wcagFindings(page, 'scim-tokens', scheme);
    expect(findings.length, describeFindings(findings)).toBe(0);
  }
  await page.getByRole('button', { name: 'Issue token' }).click();
  await expect(page.getByText(`Token for ${name} issued`)).toBeVisible();
  const token = await page.getByRole('textbox', { name: 'SCIM token' }).inputValue();
  expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  const row = await db.prisma.scimToken.findFirstOrThrow({ where: { name } });
  expect(row.tokenHash).toBe(createHash('sha256').update(token).digest('hex'));

  await revokeListedToken(page, { name, token, shows: ['Never', 'Usable'] });

  const events = await db.prisma.auditEvent.findMany({ where: { targetId: row.id }, orderBy: { at: 'asc' } });
  expect(events.map((e) => [e.action, e.actorId])).toEqual([
    ['scim_token.issued', admin.id],
    ['scim_token.revoked', admin.id],
  ]);
});

test('an auditor sees the SCIM tokens but cannot issue or revoke one', async ({ page }) => {
  await auditorSeesTokensOnly(page, '/admin/provisioning', 'Provisioning');
});

test('the page in German, light and dark, with a live and a revoked token: no serious or critical axe violation', async ({ browser }) => {
  const db = database(databaseUrl);
  const stamp = Date.now();
  await issueScimToken(db, { name: `Personio ${stamp}` });
  const { record } = await issueScimToken(db, { name: `Entra ${stamp}` });
  await db.prisma.scimToken.update({ where: { id: record.id }, data: { revokedAt: new Date() } });
  for (const scheme of ['light', 'dark'] as const) {
    const context = await browser.newContext({ locale: 'de-DE', colorScheme: scheme });
    const page = await context.newPage();
    await page.goto('/admin/provisioning');
    await gatehouseLoginGerman(page, await makeUser({ role: 'admin' }));
    await expect(page.getByRole('heading', { name: 'Provisionierung', level: 1 })).toBeVisible();
    await expect(page.getByText('SCIM ist auf dieser Instanz ausgeschaltet')).toBeVisible();
    await expect(page.getByRole('row').filter({ hasText: `Personio ${stamp}` })).toContainText('Nutzbar');
    await expect(page.getByRole('button', { name: `Token Personio ${stamp} widerrufen` })).toBeVisible();
    await expect(page.getByRole('button', { name: `Token Entra ${stamp} widerrufen` })).toHaveCount(0);
    // The dark scheme changes colours only (app/globals.css): its colour rules, as admin-i18n.spec.ts does.
    const findings = await wcagFindings(page, 'scim-tokens-de', scheme, scheme === 'dark' ? COLOUR_RULES : undefined);
    expect(findings, describeFindings(findings)).toHaveLength(0);
    await context.close();
  }
});
