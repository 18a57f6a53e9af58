/** The mail that confirms an address: sent when an account gets one (an admin, or the person changing theirs). */
import { type MailBrand, render } from './layout.ts';

export interface EmailVerificationMail {
  brand: MailBrand;
  username: string;
  email: string;
  url: string;
  validHours: number;
}

export function emailVerificationMail(mail: EmailVerificationMail) {
  return render(mail.brand, {
    subject: `Confirm your email address for ${mail.brand.name}`,
    paragraphs: [
      `Please confirm that ${mail.email} is the email address of your account ${mail.username}.`,
      `The link works once, for ${mail.validHours} hours. Until it is used, apps are told the address is not verified, and a new address does not replace the old one.`,
    ],
    action: { label: 'Confirm my email address', url: mail.url },
    footnotes: ['If you do not have this account, ignore this mail: nothing changes without the link.'],
  });
}
