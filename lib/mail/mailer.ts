/**
 * Outgoing mail. With SMTP_URL, through SMTP (nodemailer: smtp:// with
 * STARTTLS when offered, smtps:// for TLS from the start, credentials in the
 * URL). Without it, outside production, every mail is written to the server
 * log with its links, marked as not sent, so a developer can follow them; in
 * production without it there is no mail at all (`mode: 'off'`), and the pages
 * offer nothing that needs one: recovery is then an admin's job.
 *
 * `send` throws when the mail could not be handed over; the caller undoes
 * what the mail was for (lib/mail-links/) and says so.
 */
import nodemailer, { type Transporter } from 'nodemailer';
import type { Env } from '../config/env.ts';
import type { Log } from '../ops/log.ts';

/** A rendered mail: always both a plain-text and an HTML body (lib/mail/templates). */
export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The one link the mail carries (an invitation's, a verification's): the CLI prints it when no mail is sent (cli/gatehouse.ts). */
  link?: string;
}

export type MailMode = 'smtp' | 'log' | 'off';

export interface Mailer {
  readonly mode: MailMode;
  /** Where mail goes, for the start-up line; never a credential. */
  readonly destination: string;
  /** The SMTP server (`smtp://host:port`, no credential) when mode is `smtp`: the admin's System page words the rest. */
  readonly server?: string;
  send(mail: Mail): Promise<void>;
  close(): void;
}

export type MailConfig = Pick<Env, 'SMTP_URL' | 'MAIL_FROM' | 'ISSUER'> & Partial<Pick<Env, 'BRAND_NAME'>>;

/** How long one send may take before it counts as failed (connect, greeting, each command). */
const SMTP_TIMEOUT_MS = 10_000;

export interface MailerOptions {
  /** Where the development mode writes its mails (the server's log; the CLI's stderr, keeping its stdout for its answer). */
  log: Pick<Log, 'info'>;
  production?: boolean;
}

export function createMailer(config: MailConfig, { log, production = process.env.NODE_ENV === 'production' }: MailerOptions): Mailer {
  // The brand's name as an RFC 5322 quoted display name (its quotes and backslashes dropped).
  const from = config.MAIL_FROM ?? `"${(config.BRAND_NAME ?? 'Gatehouse').replace(/["\\]/g, '')}" <no-reply@${new URL(config.ISSUER).hostname}>`;
  if (config.SMTP_URL) {
    const url = new URL(config.SMTP_URL);
    const transport: Transporter = nodemailer.createTransport({
      url: config.SMTP_URL,
      connectionTimeout: SMTP_TIMEOUT_MS,
      greetingTimeout: SMTP_TIMEOUT_MS,
      socketTimeout: SMTP_TIMEOUT_MS,
    });
    const server = `${url.protocol}//${url.hostname}:${url.port || (url.protocol === 'smtps:' ? 465 : 587)}`;
    return {
      mode: 'smtp',
      destination: `SMTP server ${server}`,
      server,
      async send(mail) {
        await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
      },
      close: () => transport.close(),
    };
  }
  if (production) {
    return {
      mode: 'off',
      destination: 'nowhere: SMTP_URL is not set, so Gatehouse sends no mail (password reset by email is off)',
      async send() {
        throw new Error('mail is off: SMTP_URL is not set');
      },
      close() {},
    };
  }
  return {
    mode: 'log',
    destination: 'the server log (development: SMTP_URL is not set; the mails are not sent)',
    async send(mail) {
      // Development only, never under `npm start` (production): the text body carries
      // the links a developer follows, tokens included, so it is the one log line that
      // holds a credential, which is why it never runs in production.
      log.info(`---- MAIL NOT SENT (SMTP_URL is not set) ----\nFrom: ${from}\nTo: ${mail.to}\nSubject: ${mail.subject}\n\n${mail.text}\n---- end of mail ----`);
    },
    close() {},
  };
}
