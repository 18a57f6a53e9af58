/**
 * The CLI's invitations and verification links, black-box: `user create --invite`
 * and `user invite` against a temporary SQLite database. Without SMTP_URL (not
 * production) the CLI sends nothing, says so, and prints the link, built from
 * ISSUER, for the admin to pass on: the test reads it from stdout, as an admin would.
 * With a real SMTP server (e2e/support/mail-sink.ts) the mail leaves and the link is not printed.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { closeDatabase, database } from '../lib/db/database.ts';
import { findUserByUsername } from '../lib/users/repository.ts';
import { acceptInvitation, INVITATION_LINK_DAYS } from '../lib/users/invitations.ts';
import { capturingMailer, testContext } from '../lib/testing.ts';
import { startMailSink } from '../e2e/support/mail-sink.ts';
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

const linkIn = (stdout: string, route: string) => {
  const match = stdout.match(new RegExp(`${ISSUER}/${route}/([A-Za-z0-9_-]+)`, 'g'));
  assert.ok(match, `a ${route} link on stdout:\n${stdout}`);
  return match[match.length - 1].slice(`${ISSUER}/${route}/`.length);
};

test('user create --invite: no password, the invitation mailed; user invite resends; accepted, it is refused', async () => {
  const created = ok(await gatehouse(['user', 'create', 'ivy', '--email', 'ivy@example.com', '--invite', '--json'], { env: mailEnv }));
  const json = JSON.parse(created.stdout);
  assert.equal(json.invited, true);
  assert.equal(json.mail_sent, false, 'no SMTP_URL: no mail left');
  assert.equal(json.password, undefined);
  assert.doesNotMatch(created.stderr, /MAIL NOT SENT|Subject:/, 'no mail written out as if it were one');
  const first = linkIn(json.link, 'invitation');

  const list = ok(await gatehouse(['user', 'list'], { env: mailEnv }));
  assert.match(list.stdout, /ivy\s.*\sinvited\s/);

  const resent = ok(await gatehouse(['user', 'invite', 'IVY'], { env: mailEnv }));
  assert.match(
    resent.stdout,
    /^Invited ivy\. No mail was sent \(SMTP_URL is not set\)\. Give ivy@example\.com the invitation's link \(the link works once, for 7 days\) yourself:\nhttp:\/\/localhost:3999\/invitation\/[\w-]+\n$/,
  );
  assert.doesNotMatch(resent.stdout, /on its way/);
  const second = linkIn(resent.stdout, 'invitation');
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
  assert.ok(linkIn(retry.stdout, 'invitation'));
});

test('user create with a password and --email, without SMTP_URL: no mail, said plainly, and the verification link from ISSUER', async () => {
  const run = ok(await gatehouse(['user', 'create', 'vera', '--email', 'vera@example.com', '--generate-password', '--json'], { env: mailEnv }));
  const json = JSON.parse(run.stdout);
  assert.equal(json.mail_sent, false);
  assert.ok(linkIn(json.link, 'verify-email'));
  const text = ok(await gatehouse(['user', 'create', 'vito', '--email', 'vito@example.com', '--generate-password'], { env: mailEnv }));
  assert.match(
    text.stdout,
    /No mail was sent \(SMTP_URL is not set\)\. Give vito@example\.com the link that verifies the address \(for 24 hours\) yourself:\nhttp:\/\/localhost:3999\/verify-email\/[\w-]+\n$/,
  );
  assert.doesNotMatch(text.stdout + text.stderr, /on its way|MAIL NOT SENT|localhost:3000/);
  assert.doesNotMatch(text.stderr, /ISSUER is not set/);
  const none = ok(await gatehouse(['user', 'create', 'nobody', '--generate-password', '--json'], { env: mailEnv }));
  assert.equal(JSON.parse(none.stdout).mail_sent, undefined, 'no address, no mail');
});

test("the help texts say the invitation link's lifetime the use case gives it", async () => {
  for (const command of ['create', 'invite']) {
    assert.match(ok(await gatehouse(['user', command, '--help'])).stdout, new RegExp(`for ${INVITATION_LINK_DAYS} days`));
  }
});

test('with SMTP_URL the mail leaves and is said to be on its way, no link printed; ISSUER unset is named', async () => {
  const sink = await startMailSink();
  try {
    const smtp = { ...mailEnv, SMTP_URL: sink.smtpUrl };
    const created = ok(await gatehouse(['user', 'create', 'sam', '--email', 'sam@example.com', '--generate-password'], { env: smtp }));
    assert.match(created.stdout, /A link to verify sam@example\.com is on its way\./);
    assert.doesNotMatch(created.stdout, /verify-email|No mail was sent/);
    const invited = JSON.parse(ok(await gatehouse(['user', 'create', 'ida', '--email', 'ida@example.com', '--invite', '--json'], { env: smtp })).stdout);
    assert.equal(invited.mail_sent, true);
    assert.equal(invited.link, undefined, 'the link went by mail only');

    // Run without ISSUER: the link points at the default, and the CLI says so.
    const noIssuer = ok(
      await gatehouse(['user', 'create', 'nia', '--email', 'nia@example.com', '--generate-password'], { env: { ...smtp, ISSUER: undefined } }),
    );
    assert.match(noIssuer.stderr, /ISSUER is not set: the link points at http:\/\/localhost:3000, the default\. Run the CLI with the server's ISSUER/);
  } finally {
    await sink.close();
  }
});
