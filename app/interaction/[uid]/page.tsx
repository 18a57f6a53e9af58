// The interaction entrypoint: renders the login or the consent step of one authorization request.
import { cookies, headers } from 'next/headers';
import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import type { ReactNode } from 'react';
import { Button, buttonLook, TextLink } from '@/components/ui/button';
import { AuthCard } from '@/components/ui/card';
import { border, inputLook, TextField } from '@/components/ui/field';
import { Notice } from '@/components/ui/notice';
import { ClientMessages } from '@/components/ui/client-messages';
import { PasswordField } from '@/components/ui/password-field';
import { ScopeList } from '@/components/scope-list';
import { PasskeySignIn } from '@/components/interaction/passkey-sign-in';
import { SecondFactorStep, TRUST_BOX_ID } from '@/components/interaction/second-factor-step';
import { CheckMailCard } from '@/components/interaction/check-mail-step';
import { EmailCodeCard } from '@/components/interaction/email-code-step';
import { ExpiredInteraction } from '@/components/interaction/expired';
import { RequestFields } from '@/components/interaction/request-fields';
import { AppIdentity } from '@/components/interaction/app-identity';
import { AnotherAccountForm } from '@/components/interaction/another-account';
import { SelectAccount } from '@/components/interaction/select-account';
import { AccountChooser } from '@/components/interaction/account-chooser';
import { ConnectionButtons } from '@/components/interaction/connection-buttons';
import { LAST_USERNAME_COOKIE } from '@/app/interaction/respond';
import { interactionPage } from '@/lib/surfaces/interaction/page';
import { requestIdOf } from '@/lib/platform/request-context';
import { brand } from '@/lib/config/brand';

export const dynamic = 'force-dynamic';

// One title for both steps: consent is part of signing in to the client.
export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('interaction'))('title') };
}

/** The refusals the page explains (interaction.errors in the catalogs), by the code in the redirect's `error`. */
const explained = new Set([
  'invalid_credentials',
  'invalid_form',
  'wrong_step',
  'password_first',
  'code_missing',
  'code_letters',
  'code_length',
  'wrong_code',
  'code_used',
  'recovery_code_missing',
  'recovery_code_format',
  'wrong_recovery_code',
  'passkey_expired',
  'passkey_invalid',
  'passkey_unknown',
  'passkey_other_account',
  'passkey_failed',
  'account_disabled',
  'email_not_verified',
  'mail_failed',
  'mail_code_missing',
  'mail_code_letters',
  'mail_code_length',
  'mail_code_wrong',
  'mail_code_exhausted',
  'mail_code_expired',
  'email_code_username',
  'federation_access_denied',
  'federation_upstream_error',
  'federation_unreachable',
  'federation_state_invalid',
  'federation_expired',
  'federation_token_invalid',
  'federation_email_unverified',
  'federation_no_account',
  'federation_account_disabled',
  'federation_connection_unavailable',
  'password_not_offered',
] as const);
type Explained = typeof explained extends Set<infer T> ? T : never;
const isExplained = (error: string): error is Explained => (explained as Set<string>).has(error);

/** Refusals of what was typed into the sign-in form: both fields are marked invalid and described by the message. */
const credentialErrors = new Set(['invalid_credentials', 'invalid_form']);
const SIGN_IN_ERROR_ID = 'sign-in-error';
const fieldErrorProps = { 'aria-invalid': true, 'aria-describedby': SIGN_IN_ERROR_ID, className: `${inputLook} ${border(true)}` } as const;

/** Errors about a recovery code bring the recovery-code form back. */
const recoveryErrors = new Set(['recovery_code_missing', 'recovery_code_format', 'wrong_recovery_code']);

type ErrorsT = Awaited<ReturnType<typeof getTranslations<'interaction.errors'>>>;

/** "Too many attempts; try again in N minutes", from the redirect's retry_after (a bounded number of seconds), in the units of tryAgainIn. */
function throttledMessage(t: ErrorsT, retryAfter: string | string[] | undefined): string {
  const seconds = typeof retryAfter === 'string' && /^\d{1,6}$/.test(retryAfter) ? Math.max(1, Number(retryAfter)) : 60;
  if (seconds < 60) return t('throttled_seconds', { count: seconds });
  const minutes = Math.ceil(seconds / 60);
  return minutes < 120 ? t('throttled_minutes', { count: minutes }) : t('throttled_hours', { count: Math.ceil(minutes / 60) });
}

const strong = (chunks: ReactNode) => <strong className="text-slate-900">{chunks}</strong>;

export default async function InteractionPage({
  params,
  searchParams,
}: {
  params: Promise<{ uid: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { uid } = await params;
  const { error, retry_after: retryAfter, method, sent, client_id: clientId, redirect_uri: redirectUri, account: chosen } = await searchParams;
  const jar = await cookies();
  // Where an expired form came from (app/interaction/respond.ts): checked against the registration before any link.
  const hint = { clientId: typeof clientId === 'string' ? clientId : undefined, redirectUri: typeof redirectUri === 'string' ? redirectUri : undefined };
  const view = await interactionPage(uid, jar.toString() || null, hint);
  const t = await getTranslations('interaction');
  const errors = await getTranslations('interaction.errors');
  const message =
    typeof error === 'string' ? (error === 'throttled' ? throttledMessage(errors, retryAfter) : isExplained(error) ? errors(error) : undefined) : undefined;
  const base = `/interaction/${encodeURIComponent(uid)}`;
  const lastUsername = error === 'invalid_credentials' || error === 'throttled' ? jar.get(LAST_USERNAME_COOKIE)?.value : undefined;

  if (view.kind === 'expired') return <ExpiredInteraction app={view.app} requestId={requestIdOf(await headers())} />;

  const notice =
    error === 'second_factor_required' ? (
      <Notice variant="error" compact>
        {errors.rich('second_factor_required', { link: (chunks) => <TextLink href="/account/security">{chunks}</TextLink> })}
      </Notice>
    ) : message ? (
      <Notice variant="error" compact>
        {message}
      </Notice>
    ) : null;

  const deny = (
    <form method="post" action={`${base}/abort`} className="mt-3">
      <RequestFields client={view.client} />
      <Button block type="submit" variant="secondary">
        {t('cancel')}
      </Button>
    </form>
  );

  const passkey = await getTranslations('passkey');
  const passkeyTexts = {
    waiting: passkey('waiting'),
    cancelled: passkey('cancelled'),
    failed: passkey('failed'),
    unsupported: passkey('unsupported'),
    needsScript: passkey('needsScript'),
    security: passkey('security'),
    notSupported: passkey('notSupported'),
  };

  if (view.kind === 'second_factor') {
    const trustDevice = view.trustDays ? t('secondFactor.trustDevice', { count: view.trustDays }) : undefined;
    const useRecovery =
      view.recoveryCodes && (method === 'recovery_code' || (typeof error === 'string' && recoveryErrors.has(error)) || (!view.totp && !view.passkey));
    return (
      <AuthCard title={t('secondFactor.title')} subtitle={t.rich('secondFactor.subtitle', { username: view.username, client: view.client.name, strong })}>
        {notice}
        {view.passkey && !useRecovery ? (
          <div className={view.totp ? 'mb-6 border-b border-slate-200 pb-6' : 'mb-4'}>
            <PasskeySignIn
              action={`${base}/passkey`}
              client={view.client}
              options={view.passkey}
              label={t('secondFactor.passkey')}
              texts={passkeyTexts}
              variant={view.totp ? 'secondary' : 'primary'}
              // One trust box per page: the code form's when there is one (it works without JavaScript), else the passkey form's own.
              trustDevice={view.totp ? undefined : trustDevice}
              trustBox={view.totp && trustDevice ? TRUST_BOX_ID : undefined}
            />
          </div>
        ) : null}
        <SecondFactorStep
          base={base}
          client={view.client}
          method={useRecovery ? 'recovery_code' : view.totp ? 'totp' : 'none'}
          recoveryCodes={view.recoveryCodes}
          texts={{
            totpLabel: t('secondFactor.totpLabel'),
            verify: t('secondFactor.verify'),
            recoveryLabel: t('secondFactor.recoveryLabel'),
            recoveryHint: t('secondFactor.recoveryHint'),
            continue: t('secondFactor.continue'),
            useRecoveryCode: t('secondFactor.useRecoveryCode'),
            useAnotherWay: t('secondFactor.useAnotherWay'),
            trustDevice,
          }}
        />
        {deny}
      </AuthCard>
    );
  }

  if (view.kind === 'check_mail') {
    return (
      <CheckMailCard
        notice={notice}
        base={base}
        email={view.email}
        via={view.via}
        verified={view.verified}
        clientName={view.client.name}
        resent={sent === '1' && !error}
      >
        {deny}
      </CheckMailCard>
    );
  }

  if (view.kind === 'email_code') {
    return (
      <EmailCodeCard base={base} client={view.client} username={view.username} minutes={view.minutes} notice={notice}>
        {deny}
      </EmailCodeCard>
    );
  }

  if (view.kind === 'recovery_code_used') {
    return (
      <AuthCard title={t('recoveryCodeUsed.title')}>
        <Notice variant={view.remaining > 2 ? 'success' : 'warning'} compact>
          {t('recoveryCodeUsed.left', { count: view.remaining })}
        </Notice>
        <a href={view.continueTo} className={`mt-4 block ${buttonLook('primary', true)}`}>
          {t('recoveryCodeUsed.continue', { client: view.client.name })}
        </a>
      </AuthCard>
    );
  }

  if (view.kind === 'select_account') {
    const account = view.username ? { username: view.username, name: view.name } : undefined;
    return <SelectAccount base={base} client={view.client} account={account} others={view.others} notice={notice} />;
  }

  if (view.kind === 'login') {
    // One of the chooser's accounts (?account=<id>): its username in the form, the password or passkey still asked.
    const picked = typeof chosen === 'string' ? view.accounts?.find((account) => account.id === chosen) : undefined;
    const chooser = await getTranslations('interaction.chooser');
    const federation = await getTranslations('interaction.federation');
    // The browser's remembered accounts above the form, until one is picked or a sign-in was refused.
    const choosing = view.accounts && !picked && error === undefined;
    // A username already there (the one just refused, the app's login_hint, the session's): the password is what is left to type.
    const username = lastUsername ?? picked?.username ?? view.loginHint ?? view.sessionUsername;
    // Someone else than the hint or the session names may be at the keyboard: offer them the empty form.
    const offerAnother = Boolean(view.loginHint ?? view.sessionUsername);
    // A refusal about what was typed is tied to both fields (WCAG 3.3.1): announced with them, and their borders red.
    const fieldError = typeof error === 'string' && credentialErrors.has(error) && notice ? fieldErrorProps : {};
    return (
      <AuthCard title={t('title')} subtitle={<AppIdentity client={view.client}>{t.rich('login.subtitle', { client: view.client.name, strong })}</AppIdentity>}>
        {notice ? <div id={SIGN_IN_ERROR_ID}>{notice}</div> : null}
        {view.linking ? (
          <Notice variant="warning" compact>
            {federation('linking', { connection: view.linking })}
          </Notice>
        ) : null}
        {view.connections ? (
          <ConnectionButtons
            action={`${base}/federation`}
            client={view.client}
            connections={view.connections}
            label={(connection) => federation('continueWith', { connection })}
            or={view.passwordForm === false && !view.realms && !view.passkey && !view.accounts ? undefined : federation('or')}
          />
        ) : null}
        {choosing && view.accounts ? (
          <section aria-labelledby="account-chooser" className="mb-6 border-b border-slate-200 pb-6">
            <h2 id="account-chooser" className="mb-3 text-sm font-medium text-slate-700">
              {chooser('title')}
            </h2>
            <AccountChooser
              base={base}
              client={view.client}
              accounts={view.accounts}
              texts={{ remove: chooser('remove'), removeWhich: (account) => chooser('removeWhich', { account }) }}
            />
            <p className="mt-4 text-sm text-slate-600">{chooser('another')}</p>
          </section>
        ) : null}
        {/* A client may turn the password form off (lib/federation/client-sign-in.ts): then only its identifier-first field, if any. */}
        {view.passwordForm === false && !view.realms ? null : (
          <form method="post" action={`${base}/login`} className="space-y-4">
            <RequestFields client={view.client} />
            <TextField
              compact
              id="username"
              name="username"
              label={t('login.username')}
              autoComplete={view.passkey ? 'username webauthn' : 'username'}
              required
              autoFocus={!username}
              defaultValue={username}
              maxLength={64}
              {...fieldError}
            />
            {view.passwordForm === false ? null : (
              <>
                <ClientMessages namespaces={['ui']}>
                  <PasswordField
                    compact
                    id="password"
                    label={t('login.password')}
                    autoComplete="current-password"
                    required
                    autoFocus={Boolean(username)}
                    maxLength={256}
                    {...fieldError}
                  />
                </ClientMessages>
                <label className="flex items-center gap-2 text-sm text-slate-700">
                  <input type="checkbox" name="remember" className="size-4 accent-accent" />
                  {t('login.remember')}
                </label>

                <Button block type="submit">
                  {t('login.submit')}
                </Button>
              </>
            )}
            {view.realms ? (
              // Identifier first: the address typed as the username goes to the provider serving its domain, no password asked.
              <Button block type="submit" variant="secondary" formAction={`${base}/federation`} formNoValidate>
                {federation('realm')}
              </Button>
            ) : null}
            {view.emailCode ? (
              // The same form's username, posted elsewhere; no password needed for it (formNoValidate).
              <Button block type="submit" variant="secondary" formAction={`${base}/email-code`} formNoValidate>
                {t('emailCode.offer')}
              </Button>
            ) : null}
            {view.passwordReset ? (
              <p className="text-center text-sm">
                <TextLink href={`/password-reset?from=${encodeURIComponent(base)}`}>{t('login.forgotPassword')}</TextLink>
              </p>
            ) : null}
          </form>
        )}
        {picked ? (
          <p className="mt-4 text-center text-sm">
            <TextLink href={base}>{chooser('chooseAnother')}</TextLink>
          </p>
        ) : null}
        {offerAnother ? (
          <AnotherAccountForm
            action={`${base}/another-account`}
            client={view.client}
            label={t('account.useAnother')}
            lead={t('account.notYou')}
            className="mt-4 text-center text-sm text-slate-600"
          />
        ) : null}
        {view.signUp ? (
          <p className="mt-4 text-center text-sm text-slate-600">
            {t.rich('login.newHere', { link: (chunks) => <TextLink href={`${base}/sign-up`}>{chunks}</TextLink> })}
          </p>
        ) : null}
        {view.passkey ? (
          <div className="mt-6 border-t border-slate-200 pt-6">
            <PasskeySignIn action={`${base}/passkey`} client={view.client} options={view.passkey} label={t('login.passkey')} texts={passkeyTexts} autofill />
          </div>
        ) : null}
        {deny}
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title={t('consent.title', { client: view.client.name })}
      subtitle={
        <>
          <AppIdentity client={view.client}>
            {t.rich(view.consentedBefore ? 'consent.subtitleMore' : 'consent.subtitle', { client: view.client.name, strong })}
          </AppIdentity>
          {view.username ? (
            <AnotherAccountForm
              action={`${base}/another-account`}
              client={view.client}
              label={t('account.useAnother')}
              lead={`${t('consent.signedInAs', { username: view.username })}. ${t('account.notYou')}`}
              className="mt-3 text-xs text-slate-600"
            />
          ) : null}
        </>
      }
    >
      {notice}
      <ScopeList scopes={view.scopes} claims={view.claims} permissions={view.permissions} product={brand().name} />
      <form method="post" action={`${base}/confirm`} className="mt-6">
        <RequestFields client={view.client} />
        <Button block type="submit" autoFocus>
          {t('consent.allow')}
        </Button>
      </form>
      <form method="post" action={`${base}/abort`} className="mt-3">
        <RequestFields client={view.client} />
        <Button block type="submit" variant="secondary">
          {t('consent.deny')}
        </Button>
      </form>
    </AuthCard>
  );
}
