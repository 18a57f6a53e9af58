/**
 * The page of an "Email me a sign-in code" (lib/sign-in/email-codes.ts): where the code went (the same
 * words for every name), the field for it, "Send a new code" and "Sign in another way". Plain forms:
 * works without JavaScript. In the page's language (`interaction.emailCode`). UI only.
 */
import { getTranslations } from 'next-intl/server';
import type { ReactNode } from 'react';
import { Button } from '../ui/button';
import { AuthCard } from '../ui/card';
import { MailCodeForm } from './mail-code-form';
import { RequestFields } from './request-fields';

const strong = (chunks: ReactNode) => <strong className="text-slate-900">{chunks}</strong>;

export async function EmailCodeCard({
  base,
  client,
  username,
  minutes,
  notice,
  children,
}: {
  /** /interaction/{uid} */
  base: string;
  client: Parameters<typeof RequestFields>[0]['client'] & { name: string };
  username: string;
  minutes: number;
  /** A refusal, above the form. */
  notice: ReactNode;
  /** Cancel, below. */
  children: ReactNode;
}) {
  const t = await getTranslations('interaction.emailCode');
  const interaction = await getTranslations('interaction');
  return (
    <AuthCard title={t('title')} subtitle={interaction.rich('login.subtitle', { client: client.name, strong })}>
      {notice ? <div className="mb-4">{notice}</div> : null}
      <p className="text-sm text-slate-700">{t.rich('sent', { username, minutes, strong })}</p>
      <MailCodeForm action={`${base}/email-code/verify`} label={t('label')} submit={t('submit')} primary autoFocus>
        <RequestFields client={client} />
      </MailCodeForm>
      <form method="post" action={`${base}/email-code`} className="mt-3">
        <RequestFields client={client} />
        <Button block type="submit" variant="secondary">
          {t('resend')}
        </Button>
      </form>
      <form method="post" action={`${base}/email-code/cancel`} className="mt-3">
        <RequestFields client={client} />
        <Button block type="submit" variant="secondary">
          {t('back')}
        </Button>
      </form>
      {children}
    </AuthCard>
  );
}
