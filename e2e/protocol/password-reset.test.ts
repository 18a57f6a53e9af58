// runs-on: stores
// alone: compares the times of answers to known and unknown names
// An admin's password reset ends the person's sessions: the browser that signed in with the old password gets no more codes without the new one.
// "Forgot your password?" answers every name alike, in words and in time.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import * as oidc from 'openid-client';
import { closeDatabase, database } from '../../lib/db/database.ts';
import { createUser } from '../../lib/users/manage.ts';
import { adminToken, api, makeAdminApiClient } from '../support/admin-api.ts';
import { authorize, TestBrowser } from '../support/browser.ts';
import { baseUrl, discover, makeClient, makeUser, pkce, redirectUri } from '../support/fixtures.ts';
import { delayMail, mailCount } from '../support/mail.ts';
import { isolatedDatabase, startInstance } from '../support/server.ts';

async function authorizationUrl(config: oidc.Configuration, extra: Record<string, string> = {}) {
  const { challenge } = await pkce();
  return oidc.buildAuthorizationUrl(config, { redirect_uri: redirectUri, scope: 'openid', code_challenge: challenge, code_challenge_method: 'S256', ...extra });
}

test('after PUT /api/admin/users/{id}/password, the old browser session gets neither a code with prompt=none nor one without the login form', async () => {
  const token = await adminToken(await makeAdminApiClient());
  const client = await makeClient();
  const config = await discover(client);
  const user = await makeUser();
  const browser = new TestBrowser(baseUrl);
  const first = await authorize(browser, await authorizationUrl(config), user);
  assert.ok(first.searchParams.get('code'), 'signed in and consented');

  // The session alone gets a code: what the reset has to end.
  const silent = await browser.navigate(await authorizationUrl(config, { prompt: 'none' }));
  assert.ok(silent.location?.searchParams.get('code'), 'before the reset, prompt=none yields a code');

  const reset = await api('PUT', `/api/admin/users/${user.id}/password`, { token, json: {} });
  assert.equal(reset.status, 200);
  assert.equal(reset.body.generated, true);
  assert.equal(reset.body.ended_sessions, 1);

  const afterSilent = await browser.navigate(await authorizationUrl(config, { prompt: 'none' }));
  assert.equal(afterSilent.location?.searchParams.get('code'), null);
  assert.equal(afterSilent.location?.searchParams.get('error'), 'login_required');

  const plain = await browser.navigate(await authorizationUrl(config));
  assert.equal(plain.location, undefined, 'no redirect back to the client');
  assert.match(await plain.response.text(), /\/login"/, 'the login form, not a code');

  const sessions = await api('GET', `/api/admin/users/${user.id}/sessions`, { token });
  assert.deepEqual(sessions.body.data, []);
  const log = await api('GET', `/api/admin/audit-events?target=${user.id}&action=session.ended`, { token });
  assert.deepEqual(
    log.body.data.map((e: { details: unknown }) => e.details),
    [{ count: 1, scope: 'all' }],
  );
  assert.equal(JSON.stringify(log.body).includes(reset.body.password), false);
});

test('sign-in takes the username in any case and signs in that account; the same name in other letters cannot be created', async () => {
  const client = await makeClient();
  const config = await discover(client);
  const user = await makeUser();
  const shouted = user.username.toUpperCase();
  const { verifier, challenge } = await pkce();
  const url = oidc.buildAuthorizationUrl(config, { redirect_uri: redirectUri, scope: 'openid', code_challenge: challenge, code_challenge_method: 'S256' });
  const callback = await authorize(new TestBrowser(baseUrl), url, { username: shouted, password: user.password });
  const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier });
  assert.equal(tokens.claims()?.sub, user.id);

  const taken = await api('POST', '/api/admin/users', {
    token: await adminToken(await makeAdminApiClient()),
    json: { username: shouted, password: `pw-${randomBytes(8).toString('hex')}` },
  });
  assert.equal(taken.status, 409);
  assert.equal(taken.body.error, 'conflict');
});

/** The words a page shows: its text without scripts, styles, tags or Next's per-answer data. */
const visibleText = (html: string) =>
  html
    .replace(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>|<template[\s\S]*?<\/template>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&[a-z#0-9]+;/gi, (entity) => ({ '&amp;': '&', '&quot;': '"', '&#x27;': "'", '&lt;': '<', '&gt;': '>' })[entity] ?? entity)
    .replace(/\s+/g, ' ')
    .trim();

/** The reset form as a browser without JavaScript posts it: its hidden fields (Next's action reference) and the name. */
async function askForReset(server: string, page: string, identifier: string) {
  const form = /<form[^>]*>([\s\S]*?name="identifier"[\s\S]*?)<\/form>/.exec(page);
  assert.ok(form, 'the reset form');
  const body = new FormData();
  for (const [, name, value] of form[1].matchAll(/<input type="hidden" name="([^"]+)"(?: value="([^"]*)")?/g))
    body.append(
      name,
      (value ?? '')
        .replace(/&quot;/g, '"')
        .replace(/&#x27;/g, "'")
        .replace(/&amp;/g, '&'),
    );
  body.append('identifier', identifier);
  const started = performance.now();
  const response = await fetch(`${server}/password-reset`, { method: 'POST', body, headers: { origin: server }, redirect: 'manual' });
  const html = await response.text();
  return { status: response.status, text: visibleText(html).replaceAll(identifier, 'NAME'), ms: performance.now() - started };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return (sorted[Math.floor((sorted.length - 1) / 2)] + sorted[Math.ceil((sorted.length - 1) / 2)]) / 2;
};
const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.round(q * (values.length - 1))];
const spread = (values: number[]) => quantile(values, 0.75) - quantile(values, 0.25);

test('the reset form answers a known and an unknown name alike, 20 times each: the same pages, statuses and times, with a mail server that takes 400 ms', {
  skip: process.env.GATEHOUSE_TEST_SMTP_URL ? false : 'needs the test run’s SMTP server (scripts/test.ts)',
}, async () => {
  const own = isolatedDatabase('reset-answers');
  // 13 requests a name go through (12 free, the 13th locking the name's mails for an hour), the
  // other 7 are refused: every answer is fixed in advance, and most of the 20 take the mail path,
  // which is what the times compare.
  const { url: server, stop } = await startInstance({
    DATABASE_URL: own.url,
    SMTP_URL: process.env.GATEHOUSE_TEST_SMTP_URL!,
    THROTTLE_ACCOUNT_FREE_FAILURES: '12',
    THROTTLE_ACCOUNT_LOCK_AFTER: '13',
    THROTTLE_ACCOUNT_LOCK_SECONDS: '3600',
  });
  try {
    const db = database(own.url);
    const known = await createUser(db, {
      username: `known-${randomBytes(4).toString('hex')}`,
      password: `pw-${randomBytes(12).toString('hex')}`,
      email: `known-${randomBytes(4).toString('hex')}@example.test`,
      role: 'user',
    });
    const unknown = `nobody-${randomBytes(4).toString('hex')}`;
    await delayMail(known.email!, 400);
    const page = await (await fetch(`${server}/password-reset`)).text();
    await askForReset(server, page, `warm-up-${randomBytes(4).toString('hex')}`); // the first request of a server pays for its start-up

    const answers = { known: [] as Awaited<ReturnType<typeof askForReset>>[], unknown: [] as Awaited<ReturnType<typeof askForReset>>[] };
    for (let i = 0; i < 20; i++) {
      // Taking turns, and each going first half the time: a change in the machine's load falls on both.
      const order = i % 2 === 0 ? (['known', 'unknown'] as const) : (['unknown', 'known'] as const);
      for (const which of order) answers[which].push(await askForReset(server, page, which === 'known' ? known.username : unknown));
    }
    for (let i = 0; i < 20; i++) {
      assert.equal(answers.known[i].status, answers.unknown[i].status, `request ${i + 1}: the same status`);
      assert.equal(answers.known[i].text, answers.unknown[i].text, `request ${i + 1}: the same page`);
    }
    const texts = answers.known.map((a) => a.text);
    assert.ok(
      texts.some((t) => t.includes('If an account has that username or email address')),
      'some were answered "on its way"',
    );
    assert.ok(
      texts.some((t) => /too many attempts/i.test(t)),
      `and the later ones refused, for both names: ${texts.at(-1)}`,
    );

    const [k, u] = [answers.known.map((a) => a.ms), answers.unknown.map((a) => a.ms)];
    const difference = Math.abs(median(k) - median(u));
    const allowed = Math.max(spread(k), spread(u), 5);
    assert.ok(
      difference < allowed,
      `median ${median(k).toFixed(1)} ms (known) against ${median(u).toFixed(1)} ms (unknown): ${difference.toFixed(1)} ms apart, more than the spread ${allowed.toFixed(1)} ms`,
    );

    // The mails still go, after the answers: the 13 the known name was promised.
    const deadline = Date.now() + 30_000;
    while ((await mailCount(known.email!)) < 13 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    assert.equal(await mailCount(known.email!), 13);
    assert.equal(await mailCount(unknown), 0);
  } finally {
    await stop();
    await closeDatabase(own.url);
    await own.drop();
  }
});
