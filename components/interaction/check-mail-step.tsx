/**
 * The step of an authorization request that waits for a signed-up account's
 * address to be confirmed (lib/sign-in/sign-up-interaction.ts): where the link
 * went, then "I've confirmed — continue", "Send the link again" and "Sign in with
 * another account", and a field for the code from the mail. Plain forms: works without JavaScript
 * (with it, the step also moves on by itself once the link is opened elsewhere). In the page's
 * language (the `checkMail` messages). UI only.
 */
import { getTranslations } from 'next-intl/server';
import type { ReactNode } from 'react';
import { Button } from '../ui/button';
import { AuthCard } from '../ui/card';
import { Notice } from '../ui/notice';
import { MailCodeForm } from './mail-code-form';
import { VerificationWatch } from './verification-watch';

const strong = (chunks: ReactNode) => <strong className="text-slate-900">{chunks}</strong>;

/** The whole card: its title says where the person stands; `notice` (a refusal) above, `children` (Cancel) below. */
export async function CheckMailCard({
  clientName,
  via,
  verified,
  notice,
  children,
  ...step
}: Parameters<typeof CheckMailStep>[0] & { notice: ReactNode; children: ReactNode }) {
  const t = await getTranslations('checkMail');
  return (
    <AuthCard
      title={verified ? t('titleConfirmed') : via === 'sign_in' ? t('titleSignIn') : t('title')}
      subtitle={t.rich('subtitle', { client: clientName, strong })}
    >
      {notice ? <div className="mb-4">{notice}</div> : null}
      <CheckMailStep clientName={clientName} via={via} verified={verified} {...step} />
      {children}
    </AuthCard>
  );
}

export async function CheckMailStep({
  base,
  email,
  via,
  verified,
  clientName,
  resent,
  watch = true,
  codeForm = true,
}: {
  /** /interaction/{uid} */
  base: string;
  email: string;
  via: 'sign_up' | 'sign_in';
  verified: boolean;
  clientName: string;
  /** The link was just sent again. */
  resent: boolean;
  /** Poll for the link opened elsewhere and move on by itself (components/interaction/verification-watch.tsx). */
  watch?: boolean;
  /** Offer the field for the code from the mail. */
  codeForm?: boolean;
}) {
  const t = await getTranslations('checkMail');
  if (verified) {
    return (
      <>
        <Notice compact>{t.rich('confirmed', { email, strong: (chunks) => <strong>{chunks}</strong> })}</Notice>
        <form method="post" action={`${base}/continue`} className="mt-4">
          <Button block type="submit" autoFocus>
            {t('continue', { client: clientName })}
          </Button>
        </form>
      </>
    );
  }
  return (
    <>
      {resent ? (
        <div className="mb-4">
          <Notice compact>{t('resent')}</Notice>
        </div>
      ) : null}
      <p className="text-sm text-slate-700">
        {via === 'sign_in' ? `${t('signInFirst')} ` : ''}
        {t.rich('sent', { email, strong })}
      </p>
      <p className="mt-2 text-sm text-slate-600">{t('nothing')}</p>
      {watch ? <VerificationWatch base={base} label={t('watching')} /> : null}
      {codeForm ? <MailCodeForm action={`${base}/code`} label={t('codeLabel')} submit={t('codeSubmit')} /> : null}
      <form method="post" action={`${base}/continue`} className="mt-6">
        <Button block type="submit">
          {t('confirmedContinue')}
        </Button>
      </form>
      <form method="post" action={`${base}/resend`} className="mt-3">
        <Button block type="submit" variant="secondary">
          {t('resend')}
        </Button>
      </form>
      <form method="post" action={`${base}/restart`} className="mt-3">
        <Button block type="submit" variant="secondary">
          {t('another')}
        </Button>
      </form>
    </>
  );
}
