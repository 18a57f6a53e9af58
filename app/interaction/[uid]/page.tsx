// The interaction entrypoint: renders the login or the consent step of one authorization request.
import { cookies } from 'next/headers';
import type { Metadata } from 'next';
import { Button, buttonLook, TextLink } from '@/components/ui/button';
import { AuthCard } from '@/components/ui/card';
import { TextField } from '@/components/ui/field';
import { Notice } from '@/components/ui/notice';
import { ScopeList } from '@/components/scope-list';
import { PasskeySignIn } from '@/components/interaction/passkey-sign-in';
import { SecondFactorStep } from '@/components/interaction/second-factor-step';
import { CheckMailStep } from '@/components/interaction/check-mail-step';
import { ExpiredInteraction } from '@/components/interaction/expired';
import { LAST_USERNAME_COOKIE } from '@/app/interaction/respond';
import { viewInteraction } from '@/lib/services/interactions';
import { tryAgainIn } from '@/lib/services/throttle';
import { brand } from '@/lib/config/brand';

export const dynamic = 'force-dynamic';
// One title for both steps: consent is part of signing in to the client.
export const metadata: Metadata = { title: 'Sign in' };

const messages: Record<string, string> = {
  invalid_credentials: 'The username or password is not right.',
  invalid_form: 'Enter your username and password.',
  wrong_step: 'That step is already done. Continue below.',
  password_first: 'Sign in with your username and password first.',
  code_missing: 'Enter the 6-digit code from your authenticator app.',
  code_letters: 'The code is 6 digits, with no letters.',
  code_length: 'The code is exactly 6 digits.',
  wrong_code: 'That code is not right. Enter the code your app shows now.',
  code_used: 'That code was used already. Wait for the next one your app shows.',
  recovery_code_missing: 'Enter one of your recovery codes.',
  recovery_code_format: 'A recovery code is 16 letters and digits, like abcd-efgh-jkmn-pqrs.',
  wrong_recovery_code: 'That recovery code is not right, or was used already.',
  passkey_expired: 'That passkey request has expired or was used already. Try again.',
  passkey_invalid: 'Your browser did not send a passkey. Try again.',
  passkey_unknown: 'That passkey is not registered with this account service. It may have been removed: sign in with your password.',
  passkey_other_account: 'That passkey belongs to another account. Use one of your own.',
  passkey_failed: 'That passkey could not be checked. Try again, or use another way to sign in.',
  account_disabled: 'This account is disabled. Ask your administrator to turn it back on.',
  email_not_verified: 'Your email address is not confirmed yet. Open the link in the mail we sent, then continue.',
  mail_failed: 'The email could not be sent just now. Try again in a few minutes.',
};

/** Errors about a recovery code bring the recovery-code form back. */
const recoveryErrors = new Set(['recovery_code_missing', 'recovery_code_format', 'wrong_recovery_code']);

/** "Too many attempts; try again in N minutes", from the redirect's retry_after (a bounded number of seconds). */
function throttledMessage(retryAfter: string | string[] | undefined): string {
  const seconds = typeof retryAfter === 'string' && /^\d{1,6}$/.test(retryAfter) ? Math.max(1, Number(retryAfter)) : 60;
  const text = tryAgainIn({ retryAfterSeconds: seconds });
  return `${text[0].toUpperCase()}${text.slice(1)}.`;
}

export default async function InteractionPage({
  params,
  searchParams,
}: {
  params: Promise<{ uid: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { uid } = await params;
  const { error, retry_after: retryAfter, method, sent } = await searchParams;
  const jar = await cookies();
  const view = await viewInteraction(uid, jar.toString() || null);
  const message = typeof error === 'string' ? (error === 'throttled' ? throttledMessage(retryAfter) : messages[error]) : undefined;
  const base = `/interaction/${encodeURIComponent(uid)}`;
  const lastUsername = error === 'invalid_credentials' || error === 'throttled' ? jar.get(LAST_USERNAME_COOKIE)?.value : undefined;

  if (view.kind === 'expired') return <ExpiredInteraction />;

  const notice =
    error === 'second_factor_required' ? (
      <Notice variant="error" compact>
        Your account must use two-step verification before you can sign in here. <TextLink href="/account/security">Set it up in your account</TextLink>, then
        come back and sign in again.
      </Notice>
    ) : message ? (
      <Notice variant="error" compact>
        {message}
      </Notice>
    ) : null;

  const deny = (
    <form method="post" action={`${base}/abort`} className="mt-3">
      <Button block type="submit" variant="secondary">
        Cancel
      </Button>
    </form>
  );

  if (view.kind === 'second_factor') {
    const useRecovery =
      view.recoveryCodes && (method === 'recovery_code' || (typeof error === 'string' && recoveryErrors.has(error)) || (!view.totp && !view.passkey));
    return (
      <AuthCard
        title="Two-step verification"
        subtitle={
          <>
            Signing in as <strong className="text-slate-900">{view.username}</strong> to continue to{' '}
            <strong className="text-slate-900">{view.client.name}</strong>
          </>
        }
      >
        {notice}
        {view.passkey && !useRecovery ? (
          <div className={view.totp ? 'mb-6 border-b border-slate-200 pb-6' : 'mb-4'}>
            <PasskeySignIn action={`${base}/passkey`} options={view.passkey} label="Use your passkey" variant={view.totp ? 'secondary' : 'primary'} />
          </div>
        ) : null}
        <SecondFactorStep base={base} method={useRecovery ? 'recovery_code' : view.totp ? 'totp' : 'none'} recoveryCodes={view.recoveryCodes} />
        {deny}
      </AuthCard>
    );
  }

  if (view.kind === 'check_mail') {
    return (
      <AuthCard
        title={view.verified ? 'Email address confirmed' : view.via === 'sign_in' ? 'Confirm your email address first' : 'Check your mail'}
        subtitle={
          <>
            to continue to <strong className="text-slate-900">{view.client.name}</strong>
          </>
        }
      >
        {notice ? <div className="mb-4">{notice}</div> : null}
        <CheckMailStep base={base} email={view.email} via={view.via} verified={view.verified} clientName={view.client.name} resent={sent === '1' && !error} />
        {deny}
      </AuthCard>
    );
  }

  if (view.kind === 'recovery_code_used') {
    return (
      <AuthCard title="Recovery code accepted">
        <Notice variant={view.remaining > 2 ? 'success' : 'warning'} compact>
          {view.remaining === 0 ? 'That was your last recovery code.' : `You have ${view.remaining} recovery code${view.remaining === 1 ? '' : 's'} left.`} Each
          code works once: get new ones under Two-step verification in your account.
        </Notice>
        <a href={view.continueTo} className={`mt-4 block ${buttonLook('primary', true)}`}>
          Continue to {view.client.name}
        </a>
      </AuthCard>
    );
  }

  if (view.kind === 'login') {
    return (
      <AuthCard
        title="Sign in"
        subtitle={
          <>
            to continue to <strong className="text-slate-900">{view.client.name}</strong>
          </>
        }
      >
        {notice}
        <form method="post" action={`${base}/login`} className="space-y-4">
          <TextField
            compact
            id="username"
            name="username"
            label="Username"
            autoComplete={view.passkey ? 'username webauthn' : 'username'}
            required
            autoFocus={!lastUsername}
            defaultValue={lastUsername ?? view.loginHint}
            maxLength={64}
          />
          <TextField
            compact
            id="password"
            name="password"
            label="Password"
            type="password"
            autoComplete="current-password"
            required
            autoFocus={Boolean(lastUsername)}
            maxLength={256}
          />
          <label className="flex items-center gap-2 text-sm text-slate-700">
            <input type="checkbox" name="remember" className="size-4 accent-accent" />
            Keep me signed in
          </label>

          <Button block type="submit">
            Sign in
          </Button>
          {view.passwordReset ? (
            <p className="text-center text-sm">
              <TextLink href={`/password-reset?from=${encodeURIComponent(base)}`}>Forgot your password?</TextLink>
            </p>
          ) : null}
        </form>
        {view.signUp ? (
          <p className="mt-4 text-center text-sm text-slate-600">
            New here? <TextLink href={`${base}/sign-up`}>Create an account</TextLink>
          </p>
        ) : null}
        {view.passkey ? (
          <div className="mt-6 border-t border-slate-200 pt-6">
            <PasskeySignIn action={`${base}/passkey`} options={view.passkey} label="Sign in with a passkey" autofill />
          </div>
        ) : null}
        {deny}
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title={`Allow ${view.client.name}?`}
      subtitle={
        <>
          <strong className="text-slate-900">{view.client.name}</strong> is asking to:
          {view.username ? <span className="mt-1 block text-xs text-slate-500">Signed in as {view.username}</span> : null}
        </>
      }
    >
      {notice}
      <ScopeList scopes={view.scopes} claims={view.claims} product={brand().name} />
      <form method="post" action={`${base}/confirm`} className="mt-6">
        <Button block type="submit" autoFocus>
          Allow
        </Button>
      </form>
      <form method="post" action={`${base}/abort`} className="mt-3">
        <Button block type="submit" variant="secondary">
          Deny
        </Button>
      </form>
    </AuthCard>
  );
}
