// The mailer against a real SMTP server (e2e/support/mail-sink.ts): both bodies arrive; a refusing server makes send
// throw; without SMTP_URL, the log in development and no mail at all in production.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { simpleParser } from 'mailparser';
import { startMailSink, type MailSink } from '../../e2e/support/mail-sink.ts';
import { memoryLog } from '../ops/log.ts';
import { createMailer } from './mailer.ts';

const quiet = memoryLog().log;
import { passwordResetMail } from './templates/password-reset.ts';

let sink: MailSink;
before(async () => {
  sink = await startMailSink();
});
after(() => sink.close());

const ISSUER = 'https://id.example.test';
const mail = {
  to: 'grace@example.test',
  ...passwordResetMail({
    brand: { name: 'Gatehouse', accent: '#4f46e5' },
    username: 'grace',
    locale: 'en',
    url: `${ISSUER}/password-reset/abc`,
    validMinutes: 30,
    requestedAt: new Date(0),
    ip: '192.0.2.1',
    userAgent: '<script>alert(1)</script>',
  }),
};

test('over SMTP: one mail with a plain-text and an HTML body, from MAIL_FROM; HTML escaped', async () => {
  const mailer = createMailer({ ISSUER, SMTP_URL: sink.smtpUrl, MAIL_FROM: 'Acme ID <id@acme.example>' }, { log: quiet });
  assert.equal(mailer.mode, 'smtp');
  assert.doesNotMatch(mailer.destination, /@/, 'no credentials in what is printed');
  await mailer.send(mail);
  mailer.close();
  const received = (await (await fetch(`${sink.apiUrl}/mails?to=grace@example.test`)).json()) as Array<{ raw: string }>;
  assert.equal(received.length, 1);
  const parsed = await simpleParser(received[0].raw);
  assert.equal(parsed.from?.text, '"Acme ID" <id@acme.example>');
  assert.equal(parsed.subject, 'Reset your Gatehouse password');
  assert.match(parsed.text ?? '', /https:\/\/id\.example\.test\/password-reset\/abc/);
  assert.match(String(parsed.html), /&#60;script&#62;/, 'what a browser sent is escaped in the HTML');
  assert.doesNotMatch(String(parsed.html), /<script>/);
});

test('a server that refuses the mail makes send throw', async () => {
  const refuse = async (ms: number) =>
    assert.equal((await fetch(`${sink.apiUrl}/refuse?${new URLSearchParams({ to: mail.to, ms: String(ms) })}`, { method: 'POST' })).status, 200);
  await refuse(2000);
  const mailer = createMailer({ ISSUER, SMTP_URL: sink.smtpUrl, MAIL_FROM: undefined }, { log: quiet });
  await assert.rejects(mailer.send(mail));
  mailer.close();
  await refuse(0);
  const unreachable = createMailer({ ISSUER, SMTP_URL: 'smtp://127.0.0.1:1', MAIL_FROM: undefined }, { log: quiet });
  await assert.rejects(unreachable.send(mail), 'nothing listening');
});

test('without SMTP_URL: the marked log outside production, nothing in production', async () => {
  const { log, lines } = memoryLog();
  const development = createMailer({ ISSUER, SMTP_URL: undefined, MAIL_FROM: undefined }, { log, production: false });
  assert.equal(development.mode, 'log');
  await development.send(mail);
  assert.equal(lines.length, 1, 'one log line per mail');
  assert.match(String(lines[0].msg), /MAIL NOT SENT \(SMTP_URL is not set\)[\s\S]*To: grace@example\.test[\s\S]*password-reset\/abc/);
  const production = createMailer({ ISSUER, SMTP_URL: undefined, MAIL_FROM: undefined }, { log, production: true });
  assert.equal(production.mode, 'off');
  await assert.rejects(production.send(mail));
});
