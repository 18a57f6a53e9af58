/**
 * Editing who may do what in the portal (issue 25): an admin registers an API, gives it a permission, makes a role
 * that grants it, a group that holds the role, puts a person in the group, then takes them out from the person's
 * page, and deletes the API; each change is in the audit log under the admin's name and role. An auditor sees the
 * same lists without a form, and the admin's form posted from the auditor's session changes nothing. German and dark
 * mode pass axe.
 */
import { randomBytes } from 'node:crypto';
import { type Browser, expect, type Locator, type Page, test } from '@playwright/test';
import type { AdminRole } from '../../lib/admin-roles/roles.ts';
import { accessOf, findApiByIdentifier, findGroupByName, findRoleDetail } from '../../lib/authorization/repository.ts';
import { listMappings, valuesOf } from '../../lib/claims/attributes.ts';
import { database } from '../../lib/db/database.ts';
import { profileClaimsOf } from '../../lib/users/profile-claims.ts';
import { describeFindings, wcagFindings } from '../support/axe.ts';
import { databaseUrl, makeClient, makeUser } from '../support/fixtures.ts';
import { gatehouseLogin } from '../support/pages.ts';
import { asAdmin } from '../support/signed-in.ts';

test.describe.configure({ timeout: 300_000 });

const unique = () => randomBytes(4).toString('hex');
const db = () => database(databaseUrl);

/** Opens the disclosure `summary` (within `scope`, a table row or the page) and returns its form's container. */
async function open(scope: Page | Locator, summary: string) {
  // A filter's inner locator is relative to what it filters: built from the page, not from `scope`.
  const page = 'page' in scope && typeof scope.page === 'function' ? (scope as Locator).page() : (scope as Page);
  const details = scope
    .locator('details')
    .filter({ has: page.locator('summary', { hasText: summary }) })
    .first();
  await details.locator('summary').first().click();
  return details;
}

async function signedInAs(browser: Browser, role: AdminRole, path: string) {
  const context = await browser.newContext({ locale: 'en-US' });
  const page = await context.newPage();
  const person = await makeUser({ role });
  await page.goto(path);
  await gatehouseLogin(page, person);
  return { context, page };
}

asAdmin('an admin registers an API, a permission, a role and a group, puts a person in it and takes them out again', async ({ page }) => {
  const id = unique();
  const identifier = `https://orders-${id}.example.test/`;
  const apiName = `Orders ${id}`;
  const person = await makeUser();

  await page.goto('/admin/access');
  const newApi = await open(page, 'Register an API…');
  await newApi.getByLabel('Identifier (audience)').fill(identifier);
  await newApi.getByLabel('Name').fill(apiName);
  await newApi.getByLabel('Access token format').selectOption('opaque');
  await newApi.getByLabel('Lifetime (seconds)').fill('120');
  await newApi.getByRole('button', { name: 'Register the API' }).click();
  await expect(page.getByText('The API is registered.')).toBeVisible();
  const api = await findApiByIdentifier(db(), identifier);
  expect(api).toMatchObject({ name: apiName, tokenFormat: 'opaque', tokenLifetime: 120 });

  // A refusal comes back on the form, in the use case's words: the identifier is taken.
  const again = await open(page, 'Register an API…');
  await again.getByLabel('Identifier (audience)').fill(identifier);
  await again.getByLabel('Name').fill(apiName);
  await again.getByRole('button', { name: 'Register the API' }).click();
  await expect(again.getByRole('alert')).toContainText('exists already');

  await page.goto('/admin/access');
  const apiRow = page.getByRole('row').filter({ hasText: identifier });
  const permission = await open(apiRow, 'Add a permission…');
  await permission.getByLabel('Permission', { exact: true }).fill('orders:read');
  await permission.getByLabel('Description on the consent page').fill(`See your orders ${id}`);
  await permission.getByRole('button', { name: 'Save the permission' }).click();
  await expect(page.getByText('The permission is saved.')).toBeVisible();

  const roleName = `reader-${id}`;
  const newRole = await open(page, 'Create a role…');
  await newRole.getByLabel('Name').fill(roleName);
  await newRole.getByRole('button', { name: 'Create the role' }).click();
  await expect(page.getByText('The role is created.')).toBeVisible();
  const roleRow = () => page.getByRole('row').filter({ has: page.getByText(roleName, { exact: true }) });
  const grant = await open(roleRow(), 'Grant a permission…');
  await grant.getByLabel('Permission').selectOption({ label: `orders:read (${apiName})` });
  await grant.getByRole('button', { name: 'Grant' }).click();
  await expect(page.getByText('The role is saved.')).toBeVisible();

  const groupName = `staff-${id}`;
  const newGroup = await open(page, 'Create a group…');
  await newGroup.getByLabel('Name').fill(groupName);
  await newGroup.getByRole('button', { name: 'Create the group' }).click();
  await expect(page.getByText('The group is created.')).toBeVisible();
  const groupRow = page.getByRole('row').filter({ has: page.getByText(groupName, { exact: true }) });
  const member = await open(groupRow, 'Add a person…');
  await member.getByLabel('Username').fill(person.username);
  await member.getByRole('button', { name: 'Add' }).click();
  await expect(page.getByText('The group is saved.')).toBeVisible();
  const give = await open(roleRow(), 'Give the role…');
  await give.getByLabel('Group').selectOption(groupName);
  await give.getByRole('button', { name: 'Give to the group' }).click();
  // The groups table shows the role once the action's redirect has landed ("The role is saved." was up already).
  await expect(page.getByRole('table', { name: 'Groups' }).getByRole('row').filter({ hasText: groupName })).toContainText(roleName);

  expect(await findRoleDetail(db(), roleName)).toMatchObject({ permissions: [{ api: identifier, permission: 'orders:read' }], groups: [groupName] });
  expect(await accessOf(db(), person.id)).toEqual({ groups: [groupName], roles: [roleName] });
  const audited = await db().prisma.auditEvent.findFirst({ where: { action: 'group.member_added', targetLabel: groupName } });
  expect(audited).toMatchObject({ actorRole: 'admin' });

  // From the person's page: out of the group, and the role with it.
  await page.goto(`/admin/users/${person.id}`);
  const card = page.locator('section').filter({ has: page.getByRole('heading', { name: 'Groups', exact: true }) });
  await card.getByRole('button', { name: `Remove ${groupName}` }).click();
  await expect(page.getByText('The groups and roles are saved; the next token carries them.')).toBeVisible();
  expect(await accessOf(db(), person.id)).toEqual({ groups: [], roles: [] });

  await page.goto('/admin/access');
  const remove = await open(page.getByRole('row').filter({ hasText: identifier }), 'Delete the API');
  await remove.getByRole('checkbox').check();
  await remove.getByRole('button', { name: `Delete the API ${apiName}` }).click();
  await expect(page.getByText('The API is deleted.')).toBeVisible();
  expect(await findApiByIdentifier(db(), identifier)).toBeUndefined();
  expect(await findRoleDetail(db(), roleName)).toMatchObject({ permissions: [] });
});

asAdmin("an auditor reads /admin/access without a form, and the admin's form posted from the auditor's session changes nothing", async ({ page, browser }) => {
  const groupName = `auditors-${unique()}`;
  await page.goto('/admin/access');
  const form = await open(page, 'Create a group…');
  await form.getByLabel('Name').fill(groupName);
  const html = await form.locator('form').evaluate((element) => element.outerHTML);

  const auditor = await signedInAs(browser, 'auditor', '/admin/access');
  try {
    await expect(auditor.page.getByRole('heading', { name: 'Access', level: 1 })).toBeVisible();
    await expect(auditor.page.getByText('Your admin role may read these, not change them.')).toBeVisible();
    for (const summary of ['Register an API…', 'Create a role…', 'Create a group…']) {
      await expect(auditor.page.locator('summary', { hasText: summary }), summary).toHaveCount(0);
    }
    await expect(auditor.page.getByRole('button', { name: /^Remove/ })).toHaveCount(0);
    await auditor.page.goto('/admin/connections');
    await expect(auditor.page.getByRole('link', { name: 'Add a connection' }), 'not offered to an auditor').toHaveCount(0);
    await auditor.page.goto('/admin/system');
    await expect(auditor.page.getByRole('button', { name: /rotate/i }), 'no key rotation for an auditor').toHaveCount(0);

    await auditor.page.goto('/admin/access');
    const answer = auditor.page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/admin/access');
    await auditor.page.evaluate((markup) => {
      const holder = document.createElement('div');
      holder.innerHTML = markup;
      document.body.append(holder);
      (holder.querySelector('form') as HTMLFormElement).submit();
    }, html);
    expect((await answer).status()).toBeGreaterThanOrEqual(400);
    expect(await findGroupByName(db(), groupName), 'no group made by an auditor').toBeUndefined();
  } finally {
    await auditor.context.close();
  }
});

test('/admin/access with its forms open in German and dark mode: German words, no serious or critical axe finding', async ({ browser }) => {
  const signed = await signedInAs(browser, 'admin', '/admin/access');
  await expect(signed.page.getByRole('heading', { name: 'Access', level: 1 })).toBeVisible();
  const state = await signed.context.storageState();
  await signed.context.close();
  const context = await browser.newContext({ storageState: state, locale: 'de-DE', colorScheme: 'dark' });
  try {
    const page = await context.newPage();
    await page.goto('/admin/access');
    await expect(page.getByRole('heading', { name: 'Zugriff', level: 1 })).toBeVisible();
    await open(page, 'API registrieren…');
    await open(page, 'Gruppe anlegen…');
    const findings = await wcagFindings(page, 'admin-access-edit', 'de dark');
    expect(findings, describeFindings(findings)).toEqual([]);
  } finally {
    await context.close();
  }
});

asAdmin(
  'an admin declares an attribute the person may change and maps it for a client; the person fills it and their given name on /account',
  async ({ page, browser }) => {
    const id = unique();
    const key = `team_${id}`;
    const client = await makeClient();
    await page.goto('/admin/access/attributes');
    await expect(page.getByRole('heading', { name: 'User attributes', level: 1 })).toBeVisible();
    const declare = await open(page, 'Declare an attribute…');
    await declare.getByLabel('Key').fill(key);
    await declare.getByLabel('Name').fill(`Team ${id}`);
    await declare.getByLabel('Changed by').selectOption('user');
    await declare.getByRole('button', { name: 'Declare the attribute' }).click();
    await expect(page.getByText('The attribute is declared.')).toBeVisible();
    const map = await open(page, 'Map an attribute to a claim…');
    await map.getByLabel('Client').selectOption(client.id);
    await map.getByLabel('Claim name').fill(`team_${id}`);
    await map.getByLabel('Attribute').selectOption(key);
    await map.getByRole('button', { name: 'Map', exact: true }).click();
    await expect(page.getByText('The claim is mapped.')).toBeVisible();
    expect(await listMappings(db(), client.id)).toEqual([{ clientId: client.id, claim: `team_${id}`, attribute: key }]);

    const context = await browser.newContext({ locale: 'en-US' });
    try {
      const person = await makeUser();
      const own = await context.newPage();
      await own.goto('/account');
      await gatehouseLogin(own, person);
      await own.getByLabel('Given name').fill('Ada');
      await own.getByLabel('Phone number').fill('+49 30 1234567');
      await own.getByLabel(`Team ${id}`).fill('Platform');
      await own.getByRole('button', { name: 'Save', exact: true }).click();
      await expect(own.getByText('Saved. Apps get the new details at your next sign-in.')).toBeVisible();
      expect(await profileClaimsOf(db(), person.id)).toMatchObject({ givenName: 'Ada', phoneNumber: '+49301234567', phoneNumberVerified: false });
      expect(await valuesOf(db(), person.id)).toEqual({ [key]: 'Platform' });
      const findings = await wcagFindings(own, 'account-claims', 'light');
      expect(findings, describeFindings(findings)).toEqual([]);
    } finally {
      await context.close();
    }
  },
);
