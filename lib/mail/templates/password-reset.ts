/** The password reset mail: the link, how long it works, and where the request came from (so a person who did not ask can tell). */
import { type MailBrand, render } from './layout.ts';

export interface PasswordResetMail {
  brand: MailBrand;
  username: string;
  url: string;
  validMinutes: number;
  requestedAt: Date;
  ip: string | null;
  userAgent: string | null;
}

export function passwordResetMail(mail: PasswordResetMail) {
  const when = `${mail.requestedAt.toISOString().replace('T', ' ').slice(0, 16)} UTC`;
  return render(mail.brand, {
    subject: `Reset your ${mail.brand.name} password`,
    paragraphs: [
      `Someone asked to reset the password of your account ${mail.username}.`,
      `The request came on ${when} from ${mail.ip ?? 'an unknown address'}, using ${mail.userAgent ? `“${mail.userAgent.slice(0, 120)}”` : 'an unknown browser'}.`,
      `Choose a new password with the link below. It works once, for ${mail.validMinutes} minutes. Afterwards you are signed out everywhere.`,
    ],
    action: { label: 'Choose a new password', url: mail.url },
    footnotes: ['If you did not ask for this, ignore this mail: your password stays as it is, and nobody can use the link without this mailbox.'],
  });
}
