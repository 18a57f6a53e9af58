/**
 * The portal's page of initial access tokens for dynamic client registration: an admin issues one with limits (the
 * token shown once, only its hash stored), sees it listed with them, revokes it; each step is in the audit log as
 * done by that admin. Bad limits come back next to their fields. An auditor (clients.read) sees the list but no form.
 * axe finds no serious or critical violation, light and dark.
 */
import { createHash } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { database } from '../../lib/db/database.ts';
import { describeFindings, wcagFindings } from '../support/axe.ts';
import { databaseUrl } from '../support/fixtures.ts';
import { adminSignedIn, auditorSeesTokensOnly, revokeListedToken } from '../support/pages.ts';

test.slow(true, 'an admin sign-in, a token issued, then used by a client registration');

test('an admin issues a token with limits, sees it once, and revokes it; both audited', async ({ page }) => {
  const admin = await adminSignedIn(page, '/admin/registration');
  const db = database(databaseUrl);
  const name = `Agents ${Date.now()}`;

  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByLabel('Clients it may register').fill('0');
  await page.getByRole('button', { name: 'Issue token' }).click();
  await expect(page.getByRole('alert').first()).toBeVisible();
  await expect(page.getByLabel('Clients it may register')).toHaveAttribute('aria-invalid', 'true');

  await page.getByLabel('Clients it may register').fill('3');
  await page.getByLabel('Days until it expires').fill('14');
  await page.getByLabel('Allowed redirect URI hosts').fill('app.example.test\nagents.example.test');
  await page.getByRole('checkbox', { name: 'refresh_token' }).uncheck();
  await page.getByRole('checkbox', { name: 'offline_access' }).uncheck();
  await page.getByLabel("Clients wait for an admin's approval").check();
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const findings = await wcagFindings(page, 'registration-tokens', scheme);
    expect(findings.length, describeFindings(findings)).toBe(0);
  }
  await page.getByRole('button', { name: 'Issue token' }).click();
  await expect(page.getByText(`Token for ${name} issued`)).toBeVisible();
  const token = await page.getByRole('textbox', { name: 'Initial access token' }).inputValue();
  expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);

  const row = await db.prisma.initialAccessToken.findFirstOrThrow({ where: { name } });
  expect(row.tokenHash).toBe(createHash('sha256').update(token).digest('hex'));
  expect(row).toMatchObject({ maxClients: 3, requireApproval: true });
  expect(JSON.parse(row.redirectHosts)).toEqual(['app.example.test', 'agents.example.test']);
  expect(JSON.parse(row.grantTypes)).toEqual(['authorization_code']);
  expect(JSON.parse(row.scopes)).toEqual(['openid', 'profile', 'email']);
  expect(Math.round((row.expiresAt.getTime() - row.createdAt.getTime()) / 86_400_000)).toBe(14);

  await revokeListedToken(page, { name, token, shows: ['0 of 3', 'app.example.test, agents.example.test', 'Usable'] });

  const events = await db.prisma.auditEvent.findMany({ where: { targetId: row.id }, orderBy: { at: 'asc' } });
  expect(events.map((e) => [e.action, e.actorId])).toEqual([
    ['registration_token.issued', admin.id],
    ['registration_token.revoked', admin.id],
  ]);
});

test('an auditor sees the tokens but cannot issue or revoke one', async ({ page }) => {
  await auditorSeesTokensOnly(page, '/admin/registration', 'Client registration');
});
