/**
 * The CLI's mail. With SMTP_URL it sends as the server does. Without it (outside production) the
 * server writes each mail to its log, marked as not sent; the CLI instead sends nothing and says
 * so plainly, with the mail's link for the admin to pass on (the command prints it). Either way
 * the link points at ISSUER: run without it, the CLI says that its links point at the default.
 */
import type { Mailer } from '../lib/mail/mailer.ts';

/** A mail a command caused: its link, and whether it left. */
export interface MailedLink {
  link?: string;
  sent: boolean;
}

/** `inner`, recording each mail's link in `mailed`; in `log` mode a mail with a link is not written out but kept for the command to print. */
export function cliMailer(inner: Mailer, mailed: MailedLink[]): Mailer {
  return {
    mode: inner.mode,
    destination: inner.destination,
    server: inner.server,
    async send(mail) {
      if (inner.mode === 'log' && mail.link) {
        mailed.push({ link: mail.link, sent: false });
        return;
      }
      await inner.send(mail);
      mailed.push({ link: mail.link, sent: true });
    },
    close: () => inner.close(),
  };
}

/** The link of the last mail that was not sent (no SMTP_URL), if it was the last mail. */
export function unsentLink(mailed: readonly MailedLink[]): string | undefined {
  const last = mailed.at(-1);
  return last && !last.sent ? last.link : undefined;
}

/** Said once a link was made with ISSUER unset in the CLI's environment: it points at the default, which may not be the server. */
export function issuerNotice(mailed: readonly MailedLink[], issuerSetting: string | undefined, issuer: string): string | undefined {
  if (issuerSetting?.trim() || !mailed.some((m) => m.link)) return undefined;
  return `ISSUER is not set: the link points at ${issuer}, the default. Run the CLI with the server's ISSUER for links that reach it.`;
}
