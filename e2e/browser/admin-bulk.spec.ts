/**
 * The admin lists at work on several rows: bulk disable, enable and delete of users and clients through one
 * confirmation page that says what will change (and what is skipped), each change in the audit log; the users
 * list's status (Locked, Disabled, Invited, Active), two-step and verified columns; the audit log's identical
 * failures grouped with their count and reason. axe: no serious or critical violation on these states, light and dark.
 */
import { randomBytes } from 'node:crypto';
import { expect, type Page, test } from '@playwright/test';
import { recordAudit } from '../../lib/audit/log.ts';
import { findClient } from '../../lib/clients/manage.ts';
import { database } from '../../lib/db/database.ts';
import { createLogger } from '../../lib/ops/log.ts';
import { capturingMailer, lockAccount } from '../../lib/testing.ts';
import { inviteUser } from '../../lib/users/invitations.ts';
import { findUserById } from '../../lib/users/manage.ts';
import { describeFindings, type Finding, wcagFindings } from '../support/axe.ts';
import { baseUrl, databaseUrl, makeClient, makeUser } from '../support/fixtures.ts';
import { adminSignedIn, screenshots, status } from '../support/pages.ts';

test.slow(true, 'several admin pages, each scanned by axe, or several bulk changes confirmed page by page');

const shoot = screenshots('admin-bulk');
const db = () => database(databaseUrl);

/** A row of the list, found by a text only it has (a username, a client's name). */
const row = (page: Page, text: string) => page.getByRole('row').filter({ hasText: text });

async function tick(page: Page, ...names: string[]) {
  for (const name of names) await page.getByRole('checkbox', { name: `Select ${name}` }).check();
}

test('users: bulk disable, enable and delete, each confirmed on one page and audited per user; oneself is skipped', async ({ page }) => {
  const tag = randomBytes(4).toString('hex');
  const [ann, bob] = [await makeUser({ email: `ann-${tag}@example.test` }), await makeUser({ email: `bob-${tag}@example.test` })];
  const admin = await adminSignedIn(page, '/admin/users');

  await page.goto(`/admin/users?q=${tag}`);
  await tick(page, ann.username, bob.username);
  await page.getByRole('button', { name: 'Disable…' }).click();
  await expect(page).toHaveURL(/\/admin\/users\/bulk\?/);
  await expect(page.getByRole('heading', { name: 'Change several users', level: 1 })).toBeVisible();
  await expect(page.getByText('2 users will be disabled')).toBeVisible();
  await expect(page.getByRole('listitem').filter({ hasText: ann.username })).toContainText('Will be disabled');
  expect((await findUserById(db(), ann.id))?.disabled, 'the confirmation page changes nothing').toBe(false);
  await shoot(page, 'users-confirm');
  await page.getByRole('button', { name: 'Disable 2 users' }).click();
  await expect(page).toHaveURL(/\/admin\/users\?notice=bulk_disable&count=2$/);
  await expect(status(page, '2 users disabled.')).toBeVisible();
  expect((await findUserById(db(), ann.id))?.disabled).toBe(true);
  expect((await findUserById(db(), bob.id))?.disabled).toBe(true);

  // Enabling one that is enabled already changes nothing for it, and the page says so.
  await page.goto(`/admin/users/bulk?action=enable&id=${ann.id}&id=${admin.id}`);
  await expect(page.getByRole('listitem').filter({ hasText: admin.username })).toContainText('Unchanged: already so');
  await page.getByRole('button', { name: 'Enable 1 user' }).click();
  await expect(status(page, '1 user enabled.')).toBeVisible();
  expect((await findUserById(db(), ann.id))?.disabled).toBe(false);

  // Deleting oneself is skipped; the others go, each with its own audit entry.
  await page.goto(`/admin/users/bulk?action=delete&id=${ann.id}&id=${bob.id}&id=${admin.id}`);
  await expect(page.getByRole('listitem').filter({ hasText: admin.username })).toContainText('Skipped: your own account');
  await page.getByRole('button', { name: 'Delete 2 users' }).click();
  await expect(status(page, '2 users deleted.')).toBeVisible();
  expect(await findUserById(db(), ann.id)).toBeUndefined();
  expect(await findUserById(db(), admin.id)).toBeDefined();
  await page.goto(`/admin/audit?action=user.deleted&actor=${admin.username}`);
  await expect(page.getByRole('row').filter({ hasText: 'User deleted' })).toHaveCount(2);
});

test("clients: bulk disable and delete; the portal's own client is never touched", async ({ page }) => {
  const tag = randomBytes(4).toString('hex');
  const [one, two] = [await makeClient({ name: `Bulk one ${tag}` }), await makeClient({ name: `Bulk two ${tag}` })];
  await adminSignedIn(page);
  await page.goto(`/admin/clients?q=${tag}`);
  await tick(page, one.name, two.name);
  await page.getByRole('button', { name: 'Disable…' }).click();
  await expect(page.getByText('2 clients will be disabled')).toBeVisible();
  await page.getByRole('button', { name: 'Disable 2 clients' }).click();
  await expect(status(page, '2 clients disabled.')).toBeVisible();
  expect((await findClient(db(), one.id))?.enabled).toBe(false);

  await page.goto(`/admin/clients/bulk?action=delete&id=${one.id}&id=gatehouse-portal`);
  await expect(page.getByRole('listitem').filter({ hasText: /managed by Gatehouse|not found/ })).toHaveCount(1);
  await page.getByRole('button', { name: 'Delete 1 client' }).click();
  await expect(status(page, '1 client deleted.')).toBeVisible();
  expect(await findClient(db(), one.id)).toBeUndefined();
  expect(await findClient(db(), two.id)).toBeDefined();

  // Nothing ticked: the page says so instead of an empty confirmation.
  await page.goto('/admin/clients/bulk?action=disable');
  await expect(page.getByText('Nothing was selected.')).toBeVisible();
});

test('the users list says Locked, Disabled, Invited or Active, and whether two-step is on and the email verified', async ({ page }) => {
  const tag = randomBytes(4).toString('hex');
  const locked = await makeUser({ email: `locked-${tag}@example.test` });
  await lockAccount(db(), locked);
  const disabled = await makeUser({ email: `disabled-${tag}@example.test` });
  await db().prisma.user.update({ where: { id: disabled.id }, data: { disabled: true } });
  const twoStep = await makeUser({ email: `twostep-${tag}@example.test`, secondFactor: true });
  await db().prisma.user.update({ where: { id: twoStep.id }, data: { emailVerified: true } });
  const { mailer } = capturingMailer();
  const invitedName = `ivy-${tag}`;
  await inviteUser(
    {
      db: db(),
      mailer,
      log: createLogger({ level: 'silent' }),
      now: Date.now,
      config: { ISSUER: baseUrl, BRAND_NAME: 'Gatehouse', BRAND_ACCENT_COLOR: '#4f46e5' },
    },
    { username: invitedName, email: `ivy-${tag}@example.test`, name: 'Ivy Invited' },
  );

  await adminSignedIn(page, '/admin/users');
  await page.goto(`/admin/users?q=${tag}`);
  const cells = (text: string) => row(page, text).getByRole('cell');
  await expect(cells(locked.username).nth(3)).toContainText('Locked');
  await expect(cells(disabled.username).nth(3)).toContainText('Disabled');
  await expect(cells(invitedName).nth(3)).toContainText('Invited');
  await expect(cells(twoStep.username).nth(3)).toContainText('Active');
  await expect(cells(twoStep.username).nth(4)).toHaveText('On');
  await expect(cells(locked.username).nth(4)).toHaveText('Off');
  await expect(cells(twoStep.username).nth(5)).toHaveText('Yes');
  await expect(cells(locked.username).nth(5)).toHaveText('No');
  await shoot(page, 'users-columns');
});

test('ten identical failed sign-ins are one audit row with their count and reason', async ({ page }) => {
  const victim = await makeUser();
  const start = Date.now();
  for (let i = 0; i < 10; i++) {
    await recordAudit(db(), {
      action: 'sign_in.failed',
      actor: null,
      target: { type: 'user', id: victim.id, label: victim.username },
      context: { ip: '203.0.113.9', userAgent: 'Mozilla/5.0' },
      details: { username: victim.username, reason: 'wrong_password' },
    });
  }
  await recordAudit(db(), {
    action: 'sign_in.failed',
    actor: null,
    target: { type: 'user', id: victim.id, label: victim.username },
    context: { ip: '203.0.113.9', userAgent: 'Mozilla/5.0' },
    details: { username: victim.username, reason: 'disabled' },
  });
  expect(Date.now() - start, 'written within the grouping window').toBeLessThan(5 * 60_000);

  await adminSignedIn(page);
  await page.goto(`/admin/audit?action=sign_in.failed&target=${victim.username}`);
  const rows = page.getByRole('row').filter({ hasText: 'Sign-in failed' });
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: 'Reason: wrong password' })).toContainText('× 10');
  await expect(rows.filter({ hasText: 'Reason: account disabled' })).not.toContainText('×');
  await expect(page.locator('table time[datetime]').first()).toBeVisible();
  await shoot(page, 'audit-grouped');
});

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`${scheme} scheme`, () => {
    test.use({ colorScheme: scheme });

    test('the lists with their bulk actions, a confirmation page and the grouped audit log: no serious or critical axe violation', async ({ page }) => {
      const tag = randomBytes(4).toString('hex');
      const user = await makeUser({ email: `axe-${tag}@example.test` });
      const client = await makeClient({ name: `Axe ${tag}` });
      await adminSignedIn(page, '/admin/users');
      const findings: Finding[] = [];
      await page.goto(`/admin/users?q=${tag}`);
      findings.push(...(await wcagFindings(page, 'users-bulk', scheme)));
      await page.goto(`/admin/users/bulk?action=delete&id=${user.id}`);
      findings.push(...(await wcagFindings(page, 'users-bulk-confirm', scheme)));
      await page.goto(`/admin/clients?q=${tag}`);
      findings.push(...(await wcagFindings(page, 'clients-bulk', scheme)));
      await page.goto(`/admin/clients/bulk?action=disable&id=${client.id}`);
      findings.push(...(await wcagFindings(page, 'clients-bulk-confirm', scheme)));
      await page.goto('/admin/audit');
      findings.push(...(await wcagFindings(page, 'audit-grouped', scheme)));
      await page.goto('/admin/system');
      findings.push(...(await wcagFindings(page, 'system', scheme)));
      expect(findings, describeFindings(findings)).toHaveLength(0);
    });
  });
}
