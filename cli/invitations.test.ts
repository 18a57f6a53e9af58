/**
 * The CLI's invitations and verification links, black-box: `user create --invite`
 * and `user invite` against a temporary SQLite database, with the development
 * mailer (no SMTP_URL, not production) writing each mail to stderr, where the
 * test reads the link from, as a developer would.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { closeDatabase, database } from '../lib/db/database.ts';
import { findUserByUsername } from '../lib/db/users.ts';
import { acceptInvitation, INVITATION_LINK_DAYS } from '../lib/services/invitations.ts';
import { capturingMailer, testContext } from '../lib/services/testing.ts';
import { cliRunner, failure, ok } from './testing.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'gatehouse-cli-invitations-'));
const databaseUrl = `file:${path.join(dir, 'gatehouse.db')}`;
const gatehouse = cliRunner(databaseUrl);
const ISSUER = 'http://localhost:3999';
const mailEnv = { ISSUER, SMTP_URL: undefined, NODE_ENV: 'development' };

before(async () => ok(await gatehouse(['user', 'list'])));
after(async () => {
  await closeDatabase(databaseUrl);
  rmSync(dir, { recursive: true, force: true });
});

const linkIn = (stderr: string, route: string) => {
  const match = stderr.match(new RegExp(`${ISSUER}/${route}/([A-Za-z0-9_-]+)`, 'g'));
  assert.ok(match, `a ${route} link on stderr:\n${stderr}`);
  return match[match.length - 1].slice(`${ISSUER}/${route}/`.length);
};

test('user create --invite: no password, the invitation mailed; user invite resends; accepted, it is refused', async () => {
  const created = ok(await gatehouse(['user', 'create', 'ivy', '--email', 'ivy@example.com', '--invite', '--json'], { env: mailEnv }));
  const json = JSON.parse(created.stdout);
  assert.equal(json.invited, true);
  assert.equal(json.mail_sent, true);
  assert.equal(json.password, undefined);
  assert.match(created.stderr, /MAIL NOT SENT[\s\S]*To: ivy@example\.com\nSubject: You are invited to Gatehouse/);
  const first = linkIn(created.stderr, 'invitation');

  const list = ok(await gatehouse(['user', 'list'], { env: mailEnv }));
  assert.match(list.stdout, /ivy\s.*\sinvited\s/);

  const resent = ok(await gatehouse(['user', 'invite', 'IVY'], { env: mailEnv }));
  assert.match(resent.stdout, /Invited ivy: the invitation is on its way to ivy@example\.com \(the link works once, for 7 days\)/);
  const second = linkIn(resent.stderr, 'invitation');
  assert.notEqual(second, first);

  const db = database(databaseUrl);
  const ctx = { ...testContext(db), mailer: capturingMailer().mailer, now: Date.now };
  const form = new FormData();
  form.append('password', 'ivy chose this');
  form.append('confirmPassword', 'ivy chose this');
  const context = { ip: '198.51.100.1', userAgent: 'test' };
  assert.deepEqual(await acceptInvitation(ctx, first, form, context), { status: 'link', problem: 'unknown' }, 'the resent link replaced the first');
  assert.equal((await acceptInvitation(ctx, second, form, context)).status, 'done');
  const user = await findUserByUsername(db, 'ivy');
  assert.equal(user?.invited, false);
  assert.equal(user?.emailVerified, true);

  const again = await gatehouse(['user', 'invite', 'ivy'], { env: mailEnv });
  assert.equal(again.code, 1);
  assert.match(failure(again), /ivy has chosen a password already/);
});

test('user create --invite needs --email and takes no password; a server without mail refuses it', async () => {
  const noEmail = await gatehouse(['user', 'create', 'nomail', '--invite'], { env: mailEnv });
  assert.equal(noEmail.code, 2);
  assert.match(failure(noEmail), /--invite needs --email/);
  const both = await gatehouse(['user', 'create', 'both', '--email', 'both@example.com', '--invite', '--generate-password'], { env: mailEnv });
  assert.equal(both.code, 2);
  assert.match(failure(both), /--invite takes no password/);
  const off = await gatehouse(['user', 'create', 'offline', '--email', 'offline@example.com', '--invite'], { env: { ...mailEnv, NODE_ENV: 'production' } });
  assert.equal(off.code, 2);
  assert.match(failure(off), /sends no mail \(SMTP_URL is not set\)[^:]*: set a password instead/);
  assert.equal(await findUserByUsername(database(databaseUrl), 'offline'), undefined, 'nothing created');
});

test('an unreachable mail server: the invited user is kept, exit 1 with what to do, and user invite works later', async () => {
  const down = { ...mailEnv, SMTP_URL: 'smtp://127.0.0.1:9' };
  const run = await gatehouse(['user', 'create', 'later', '--email', 'later@example.com', '--invite', '--json'], { env: down });
  assert.equal(run.code, 1);
  assert.equal(JSON.parse(run.stdout).mail_sent, false);
  assert.match(run.stderr, /The invitation could not be sent .*; try again: gatehouse user invite later/);
  assert.equal((await findUserByUsername(database(databaseUrl), 'later'))?.invited, true);
  const retry = ok(await gatehouse(['user', 'invite', 'later'], { env: mailEnv }));
  assert.ok(linkIn(retry.stderr, 'invitation'));
});

test('user create with a password and --email mails the verification link', async () => {
  const run = ok(await gatehouse(['user', 'create', 'vera', '--email', 'vera@example.com', '--generate-password', '--json'], { env: mailEnv }));
  assert.equal(JSON.parse(run.stdout).mail_sent, true);
  assert.match(run.stderr, /Subject: Confirm your email address for Gatehouse/);
  assert.ok(linkIn(run.stderr, 'verify-email'));
  const none = ok(await gatehouse(['user', 'create', 'nobody', '--generate-password', '--json'], { env: mailEnv }));
  assert.equal(JSON.parse(none.stdout).mail_sent, undefined, 'no address, no mail');
});

test("the help texts say the invitation link's lifetime the use case gives it", async () => {
  for (const command of ['create', 'invite']) {
    assert.match(ok(await gatehouse(['user', command, '--help'])).stdout, new RegExp(`for ${INVITATION_LINK_DAYS} days`));
  }
});
