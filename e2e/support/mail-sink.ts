/**
 * A real SMTP server for the tests (the `smtp-server` package, the one
 * nodemailer's authors keep), on loopback: Gatehouse's servers under test send
 * to it through SMTP_URL, and it keeps what arrives in memory. Test processes
 * read the mails back over a small HTTP API (e2e/support/mail.ts), and can
 * make the SMTP server refuse the mail to one address for a while, to test a
 * mail server that is down, or take its time over it (a slow, far-away mail
 * server): one address, so that tests running beside it in other workers keep
 * their mail. scripts/test.ts runs one per test run; start one by hand with
 * `npx tsx e2e/support/mail-sink.ts`.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  from: string;
  /** The raw message as sent (RFC 5322 headers and MIME body). */
  raw: string;
  receivedAt: number;
}

export interface MailSink {
  /** For Gatehouse's SMTP_URL. */
  smtpUrl: string;
  /** For the tests' GATEHOUSE_TEST_MAIL_URL. */
  apiUrl: string;
  close(): Promise<void>;
}

export async function startMailSink(): Promise<MailSink> {
  const mails: ReceivedMail[] = [];
  /** Address (lower case) -> until when its mail is refused (epoch ms). */
  const refusals = new Map<string, number>();
  /** Address (lower case) -> how long the server waits before it accepts a mail to it (ms). */
  const delays = new Map<string, number>();
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      if (session.envelope.rcptTo.some((r) => (refusals.get(r.address.toLowerCase()) ?? 0) > Date.now())) {
        stream.resume();
        stream.on('end', () => callback(Object.assign(new Error('mail refused for this test'), { responseCode: 451 })));
        return;
      }
      const chunks: Buffer[] = [];
      const delay = Math.max(0, ...session.envelope.rcptTo.map((r) => delays.get(r.address.toLowerCase()) ?? 0));
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        // The answer to DATA is what the sender waits for: a slow server is slow here.
        setTimeout(() => {
          mails.push({
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            raw: Buffer.concat(chunks).toString('utf8'),
            receivedAt: Date.now(),
          });
          callback();
        }, delay);
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const smtpPort = (smtp.server.address() as AddressInfo).port;

  const api: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://sink');
    if (req.method === 'GET' && url.pathname === '/mails') {
      const to = url.searchParams.get('to')?.toLowerCase();
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(mails.filter((m) => !to || m.to.includes(to))));
    } else if (req.method === 'POST' && (url.pathname === '/refuse' || url.pathname === '/delay')) {
      const to = url.searchParams.get('to')?.toLowerCase();
      const ms = Number(url.searchParams.get('ms') ?? 0);
      if (!to || !Number.isFinite(ms) || ms < 0) {
        res.statusCode = 400;
        res.end('to and a number of ms are required');
        return;
      }
      if (url.pathname === '/refuse') refusals.set(to, Date.now() + ms);
      else delays.set(to, ms);
      res.end('ok');
    } else {
      res.statusCode = 404;
      res.end();
    }
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  const apiPort = (api.address() as AddressInfo).port;

  return {
    smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
    apiUrl: `http://127.0.0.1:${apiPort}`,
    close: async () => {
      await Promise.all([new Promise<void>((r) => smtp.close(() => r())), new Promise<void>((r) => api.close(() => r()))]);
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const sink = await startMailSink();
  console.log(`SMTP_URL=${sink.smtpUrl}\nGATEHOUSE_TEST_MAIL_URL=${sink.apiUrl}`);
}
