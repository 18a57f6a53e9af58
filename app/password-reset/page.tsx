// /password-reset: "Forgot your password?" — the username or email address the link goes to.
import type { Metadata } from 'next';
import { RequestResetForm } from '@/components/recovery/reset-forms';
import { TextLink } from '@/components/ui/button';
import { AuthCard } from '@/components/ui/card';
import { serverContext } from '@/lib/context';
import { canMailLinks, RESET_LINK_MINUTES } from '@/lib/services/password-reset';
import { requestResetAction } from './actions';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Reset your password' };

/** Back to the sign-in page the person came from: only an interaction page of this server. */
const backTo = (from: unknown) => (typeof from === 'string' && /^\/interaction\/[A-Za-z0-9_-]{1,64}$/.test(from) ? from : undefined);

export default async function PasswordResetPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const back = backTo((await searchParams).from);
  const backLink = back ? (
    <p className="mt-4 text-sm text-slate-600">
      <TextLink href={back}>Back to sign in</TextLink>
    </p>
  ) : null;
  if (!canMailLinks(serverContext())) {
    return (
      <AuthCard title="Reset your password">
        <p className="text-sm text-slate-700">This server sends no email, so a password cannot be reset by email. Ask your administrator to set a new one.</p>
        {backLink}
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Reset your password" subtitle="Enter your username or email address. We will email you a link to choose a new password.">
      <RequestResetForm action={requestResetAction} validMinutes={RESET_LINK_MINUTES} />
      {backLink}
    </AuthCard>
  );
}
