/**
 * The portal's webhook pages: an admin registers an endpoint (a bad URL comes back next to its field; the signing
 * secret shown once, stored sealed), sees a delivery's outcome on its page and sends it again; an endpoint Gatehouse
 * disabled after failures is called out on both pages; an auditor sees the endpoints but no form or button.
 * axe finds no serious or critical violation, light and dark; nor on the pages in German, light and dark, with an
 * endpoint disabled after failures and deliveries of every status (what makes the most of their notices and badges).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Browser, expect, test } from '@playwright/test';
import { BY_CLI } from '../../lib/audit/log.ts';
import { database } from '../../lib/db/database.ts';
import { createUser } from '../../lib/users/manage.ts';
import { createEndpoint } from '../../lib/webhooks/manage.ts';
import { messageId } from '../../lib/webhooks/outbox.ts';
import { COLOUR_RULES, describeFindings, type Finding, wcagFindings } from '../support/axe.ts';
import { databaseUrl, makeUser } from '../support/fixtures.ts';
import { adminSignedIn, gatehouseLogin, gatehouseLoginGerman } from '../support/pages.ts';

test.slow(true, 'an admin sign-in, an endpoint started for the test, deliveries waited for');

test('an admin registers an endpoint, copies its secret once, sees a delivery and sends it again; a failing endpoint is called out', async ({ page }) => {
  const received: string[] = [];
  const receiver = createServer((req, res) => {
    received.push(String(req.headers['webhook-id']));
    req.resume();
    res.writeHead(204).end();
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  const db = database(databaseUrl);
  try {
    await adminSignedIn(page, '/admin/webhooks');
    await page.getByLabel('URL', { exact: true }).fill('http://hooks.example.test/in');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await expect(page.getByLabel('URL', { exact: true })).toHaveAttribute('aria-invalid', 'true');

    await page.getByLabel('URL', { exact: true }).fill(url);
    await page.getByLabel('Description').fill('Browser test');
    await page.getByRole('checkbox', { name: 'user.deleted' }).uncheck();
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      const findings = await wcagFindings(page, 'webhooks', scheme);
      expect(findings.length, describeFindings(findings)).toBe(0);
    }
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await expect(page.getByText(`Endpoint ${url} added`)).toBeVisible();
    const secret = await page.getByRole('textbox', { name: 'Signing secret' }).inputValue();
    expect(secret).toMatch(/^whsec_/);
    const endpoint = await db.prisma.webhookEndpoint.findFirstOrThrow({ where: { url } });
    expect(endpoint.events).toBe('user.created user.updated');
    expect(endpoint.secret).not.toContain(secret.slice(6));

    // Recorded as made with the CLI (the fixtures' makeUser records nothing, so raises no event).
    await createUser(db, { username: `hooked-${Date.now()}`, password: 'a long enough password' }, BY_CLI);
    await expect(page.getByRole('link', { name: 'Done' })).toHaveAttribute('href', `/admin/webhooks/${endpoint.id}`);
    await page.goto(`/admin/webhooks/${endpoint.id}`);
    await expect(page.getByText(secret)).toHaveCount(0);
    await expect.poll(() => received.length, { timeout: 30_000 }).toBeGreaterThan(0);
    const row = page.getByRole('row').filter({ hasText: 'user.created' }).first();
    // The receiver has it before Gatehouse has stored its answer.
    await expect(async () => {
      await page.reload();
      await expect(row).toContainText('Delivered', { timeout: 1_000 });
    }).toPass({ timeout: 30_000 });
    await expect(row).toContainText('HTTP 204');
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      const findings = await wcagFindings(page, 'webhook', scheme);
      expect(findings.length, describeFindings(findings)).toBe(0);
    }
    const before = received.length;
    await row.getByRole('button', { name: /^Send again: user\.created/ }).click();
    await expect(page.getByText('The delivery is queued to be sent again.')).toBeVisible();
    await expect.poll(() => received.length, { timeout: 30_000 }).toBeGreaterThan(before);
    // And until Gatehouse has stored that answer: its success resets the endpoint's failures, and landing after the
    // update below it took the "20 attempts in a row failed" away from the endpoint's page (a CI run's flaky).
    await expect.poll(() => db.prisma.webhookDelivery.count({ where: { endpointId: endpoint.id, status: { not: 'delivered' } } }), { timeout: 30_000 }).toBe(0);

    // As lib/webhooks/delivery.ts leaves an endpoint that kept failing.
    await db.prisma.webhookEndpoint.update({
      where: { id: endpoint.id },
      data: { enabled: false, disabledReason: 'failing', disabledAt: new Date(), consecutiveFailures: 20, failingSince: BigInt(Date.now() - 86_400_000) },
    });
    await page.goto('/admin/webhooks');
    await expect(page.getByText(/disabled after failing again and again/)).toBeVisible();
    await page.getByRole('link', { name: url }).click();
    await expect(page.getByText(/Gatehouse disabled this endpoint: 20 attempts in a row failed/)).toBeVisible();
    await page.getByRole('button', { name: 'Enable' }).click();
    await expect(page.getByText('The endpoint is enabled')).toBeVisible();

    await page.getByText('Delete endpoint', { exact: true }).first().click();
    await page.getByLabel(/Delete this endpoint with its deliveries/).check();
    await page.locator('form').getByRole('button', { name: 'Delete endpoint' }).click();
    await expect(page.getByText('The endpoint and its deliveries are deleted.')).toBeVisible();
    const actions = (await db.prisma.auditEvent.findMany({ where: { targetId: endpoint.id }, orderBy: { at: 'asc' } })).map((e) => e.action);
    expect(actions).toEqual(['webhook.created', 'webhook.delivery_resent', 'webhook.updated', 'webhook.deleted']);
  } finally {
    receiver.close();
  }
});

test('an auditor sees the endpoints but cannot add, change or delete one', async ({ page }) => {
  const auditor = await makeUser({ role: 'auditor' });
  await page.goto('/admin/webhooks');
  await gatehouseLogin(page, auditor);
  await expect(page).toHaveURL(/\/admin\/webhooks$/);
  await expect(page.getByRole('heading', { name: 'Webhooks' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add endpoint' })).toHaveCount(0);
});

/** A German browser, an admin signed in through the German sign-in page (as admin-i18n.spec.ts), on /admin/webhooks. */
async function germanAdmin(browser: Browser, colorScheme: 'light' | 'dark') {
  const context = await browser.newContext({ locale: 'de-DE', timezoneId: 'Europe/Berlin', colorScheme });
  const page = await context.newPage();
  const admin = await makeUser({ role: 'admin' });
  await page.goto('/admin/webhooks');
  await gatehouseLoginGerman(page, admin);
  await expect(page.getByRole('heading', { name: 'Webhooks', level: 1 })).toBeVisible();
  return { context, page };
}

for (const scheme of ['light', 'dark'] as const) {
  test(`the webhook pages in German, ${scheme}: no serious or critical axe violation`, async ({ browser }) => {
    const db = database(databaseUrl);
    // Disabled after failures, so the suite's server sends none of these (port 9: nothing listens); a delivery of each status.
    const { endpoint } = await createEndpoint(db, {
      url: `http://127.0.0.1:9/hooks-de-${scheme}-${Date.now()}`,
      events: ['user.created', 'user.updated'],
      description: 'Buchhaltung',
    });
    const now = Date.now();
    await db.prisma.webhookEndpoint.update({
      where: { id: endpoint.id },
      data: { enabled: false, disabledReason: 'failing', disabledAt: new Date(now), consecutiveFailures: 20, failingSince: BigInt(now - 86_400_000) },
    });
    const payload = JSON.stringify({
      type: 'user.created',
      timestamp: new Date(now).toISOString(),
      data: { action: 'user.created', actor: null, details: {} },
    });
    const rows = [
      { status: 'delivered', attempts: 1, lastStatus: 204, lastError: null, responseExcerpt: null },
      { status: 'failed', attempts: 12, lastStatus: 500, lastError: 'HTTP 500', responseExcerpt: 'Interner Fehler' },
      { status: 'pending', attempts: 3, lastStatus: null, lastError: 'ECONNREFUSED', responseExcerpt: null },
    ];
    for (const [i, row] of rows.entries()) {
      await db.prisma.webhookDelivery.create({
        data: {
          id: messageId(now + i),
          endpointId: endpoint.id,
          type: 'user.created',
          subject: `user:de-${scheme}-${i}`,
          payload,
          nextAttemptAt: BigInt(now + 60_000),
          createdAt: BigInt(now + i),
          lastAttemptAt: BigInt(now + i),
          ...row,
        },
      });
    }

    const { context, page } = await germanAdmin(browser, scheme);
    const findings: Finding[] = [];
    // The scheme changes colours alone (app/globals.css): in the dark one, the rules that colours decide (as admin-i18n.spec.ts).
    const scan = async (name: string) => findings.push(...(await wcagFindings(page, `de-${name}`, scheme, scheme === 'dark' ? COLOUR_RULES : undefined)));
    await expect(page.getByText(/nach wiederholten Fehlschlägen deaktiviert/)).toBeVisible();
    await scan('webhooks');
    // The form with a refused URL: the error next to its field.
    await page.getByLabel('URL', { exact: true }).fill('http://hooks.example.test/in');
    await page.getByRole('button', { name: 'Endpunkt hinzufügen' }).click();
    await expect(page.getByLabel('URL', { exact: true })).toHaveAttribute('aria-invalid', 'true');
    await scan('webhooks-invalid');
    await page.goto(`/admin/webhooks/${endpoint.id}`);
    await expect(page.getByText(/Gatehouse hat diesen Endpunkt deaktiviert: 20 Versuche in Folge/)).toBeVisible();
    for (const state of ['Zugestellt', 'Fehlgeschlagen', 'Ausstehend']) await expect(page.getByRole('row').filter({ hasText: state }).first()).toBeVisible();
    await scan('webhook');
    expect(findings, describeFindings(findings)).toHaveLength(0);
    await context.close();
    await db.prisma.webhookEndpoint.delete({ where: { id: endpoint.id } });
  });
}
