/**
 * Who may do what, in the browser (issue 25): the consent page shows an API's permissions in the admin's
 * words, only those the person's roles grant; /account shows the person's groups and roles; /admin/access
 * lists APIs, roles and groups. Each page scanned by axe in both schemes.
 */
import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { addRolePermission, addToGroup, assignRole, createApi, createGroup, createRole } from '../../lib/authorization/manage.ts';
import { database } from '../../lib/db/database.ts';
import { describeFindings, wcagFindings } from '../support/axe.ts';
import { authorizationRequest, databaseUrl, makeClient, makeUser } from '../support/fixtures.ts';
import { gatehouseLogin } from '../support/pages.ts';
import { asAdmin } from '../support/signed-in.ts';

const unique = () => randomBytes(4).toString('hex');

async function world() {
  const db = database(databaseUrl);
  const id = unique();
  const api = await createApi(db, {
    identifier: `https://orders-${id}.example.test/`,
    name: `Orders ${id}`,
    permissions: [
      { name: 'orders:read', description: `See your orders ${id}` },
      { name: 'orders:write', description: `Place orders ${id}` },
    ],
  });
  const role = await createRole(db, { name: `reader-${id}` });
  await addRolePermission(db, role.name, api.identifier, 'orders:read');
  const group = await createGroup(db, { name: `staff-${id}` });
  await assignRole(db, role.name, { group: group.name });
  const user = await makeUser();
  await addToGroup(db, group.name, user.username);
  return { id, api, role, group, user };
}

for (const scheme of ['light', 'dark'] as const) {
  test(`consent shows only the permissions the person's roles grant, and /account their groups and roles (${scheme})`, async ({ browser }) => {
    const { id, api, role, group, user } = await world();
    const context = await browser.newContext({ colorScheme: scheme });
    const page = await context.newPage();
    const client = await makeClient();
    const flow = await authorizationRequest(client, { scope: 'openid orders:read orders:write', resource: api.identifier });
    await page.goto(flow.url.href);
    await gatehouseLogin(page, user);
    await expect(page.getByText(`See your orders ${id}`)).toBeVisible();
    await expect(page.getByText(`Place orders ${id}`)).toHaveCount(0);
    const consentFindings = await wcagFindings(page, `consent-permissions-${scheme}`, scheme);
    expect(consentFindings, describeFindings(consentFindings)).toHaveLength(0);

    await page.goto('/account');
    if (/\/interaction\//.test(page.url())) await gatehouseLogin(page, user);
    await expect(page.getByText(group.name, { exact: true })).toBeVisible();
    await expect(page.getByText(role.name, { exact: true })).toBeVisible();
    const accountFindings = await wcagFindings(page, `account-access-${scheme}`, scheme);
    expect(accountFindings, describeFindings(accountFindings)).toHaveLength(0);
    await context.close();
  });
}

asAdmin('/admin/access lists the APIs with their permissions, the roles and the groups', async ({ page }) => {
  const { id, api, role, group } = await world();
  await page.goto('/admin/access');
  await expect(page.getByRole('heading', { level: 1, name: 'Access' })).toBeVisible();
  await expect(page.getByText(api.identifier)).toBeVisible();
  await expect(page.getByText(`See your orders ${id}`, { exact: false })).toBeVisible();
  // In their own tables: the forms' lists of roles and groups hold the names too.
  await expect(page.getByRole('table', { name: 'Roles' }).getByText(role.name, { exact: true }).first()).toBeVisible();
  await expect(page.getByRole('table', { name: 'Groups' }).getByText(group.name, { exact: true }).first()).toBeVisible();
  const findings = await wcagFindings(page, 'admin-access', 'light');
  expect(findings, describeFindings(findings)).toHaveLength(0);
});
