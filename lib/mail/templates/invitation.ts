/** The mail that invites a person an admin created without a password: the link lets them choose it. */
import { type MailBrand, render } from './layout.ts';

export interface InvitationMail {
  brand: MailBrand;
  username: string;
  url: string;
  validDays: number;
}

export function invitationMail(mail: InvitationMail) {
  return render(mail.brand, {
    subject: `You are invited to ${mail.brand.name}`,
    paragraphs: [
      `An administrator created the account ${mail.username} for you on ${mail.brand.name}. Choose your password to start using it.`,
      `The link works once, for ${mail.validDays} days. Using it also confirms that this email address is yours.`,
    ],
    action: { label: 'Choose my password', url: mail.url },
    footnotes: [
      'If you did not expect this, ignore this mail: nobody can sign in to the account without a password.',
      'If the link no longer works, ask your administrator to send the invitation again.',
    ],
  });
}
