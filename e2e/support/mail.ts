/**
 * The mails Gatehouse sent during the tests, read back from the test run's
 * SMTP server (e2e/support/mail-sink.ts): the newest to an address, its
 * subject, text and the link in it.
 */
import assert from 'node:assert/strict';
import { simpleParser } from 'mailparser';

export const mailApi = process.env.GATEHOUSE_TEST_MAIL_URL;

export interface Mail {
  subject: string;
  text: string;
  html: string;
  from: string;
}

async function received(to: string): Promise<Array<{ raw: string }>> {
  assert.ok(mailApi, 'GATEHOUSE_TEST_MAIL_URL is not set: run the tests with scripts/test.ts, or start e2e/support/mail-sink.ts');
  const response = await fetch(`${mailApi}/mails?to=${encodeURIComponent(to)}`);
  return (await response.json()) as Array<{ raw: string }>;
}

/** How many mails went to `to` so far. */
export async function mailCount(to: string): Promise<number> {
  return (await received(to)).length;
}

/** The newest mail to `to` once there are more than `after`, waiting up to 10 s for it. */
export async function nextMail(to: string, after = 0): Promise<Mail> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const mails = await received(to);
    if (mails.length > after) {
      const parsed = await simpleParser(mails[mails.length - 1].raw);
      return {
        subject: parsed.subject ?? '',
        text: parsed.text ?? '',
        html: typeof parsed.html === 'string' ? parsed.html : '',
        from: parsed.from?.text ?? '',
      };
    }
    assert.ok(Date.now() < deadline, `no mail to ${to} arrived`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The link in a mail's text that starts with `prefix` (an absolute URL). */
export function linkIn(mail: Mail, prefix: string): string {
  const link = mail.text.split(/\s+/).find((word) => word.startsWith(prefix));
  assert.ok(link, `no link starting with ${prefix} in the mail:\n${mail.text}`);
  return link;
}

/** Makes the SMTP server refuse the mail to `to` for `ms` milliseconds (a mail server that is down, as that mail sees it). */
export async function refuseMail(to: string, ms: number): Promise<void> {
  assert.ok(mailApi);
  const answer = await fetch(`${mailApi}/refuse?${new URLSearchParams({ to, ms: String(ms) })}`, { method: 'POST' });
  assert.equal(answer.status, 200, await answer.text());
}

/** Makes the SMTP server wait `ms` milliseconds before it accepts each mail to `to` (0: at once again). */
export async function delayMail(to: string, ms: number): Promise<void> {
  assert.ok(mailApi);
  const answer = await fetch(`${mailApi}/delay?${new URLSearchParams({ to, ms: String(ms) })}`, { method: 'POST' });
  assert.equal(answer.status, 200, await answer.text());
}
