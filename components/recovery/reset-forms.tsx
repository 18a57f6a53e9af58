'use client';
/**
 * The two forms of a password reset: asking for the link (username or email),
 * and choosing the new password on the link's page (an invitation's page too). Server actions: they work
 * without JavaScript. Nothing typed comes back. In the page's language (the `recovery`, `passwordPair`
 * and `problems` messages). UI only.
 */
import { useTranslations } from 'next-intl';
import { useActionState, type ReactNode } from 'react';
import { problemTexts } from '@/lib/i18n/problems';
import type { ResetRequestState, ResetState } from '@/lib/mail-links/password-reset';
import { Button, ButtonLink, TextLink } from '../ui/button';
import { TextField } from '../ui/field';
import { FormError, Notice } from '../ui/notice';
import { PasswordPair } from './password-pair';

export function RequestResetForm({
  action,
  validMinutes,
}: {
  action: (state: ResetRequestState, form: FormData) => Promise<ResetRequestState>;
  validMinutes: number;
}) {
  const t = useTranslations('recovery.request');
  const problems = useTranslations('problems');
  const [state, formAction, pending] = useActionState(action, { status: 'idle' });
  if (state.status === 'sent') {
    return <Notice compact>{t('sent', { minutes: validMinutes })}</Notice>;
  }
  const errors = state.status === 'invalid' ? state.errors : {};
  const typed = state.status === 'invalid' ? state.identifier : undefined;
  return (
    <form action={formAction} noValidate className="space-y-4">
      <TextField
        compact
        id="identifier"
        key={`${state.status}-${typed ?? ''}`}
        defaultValue={typed}
        label={t('identifier')}
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        required
        autoFocus
        maxLength={320}
        errors={problemTexts(problems, 'identifier', errors.identifier)}
      />
      <FormError messages={problemTexts(problems, 'form', errors.form)} />
      <Button block type="submit" disabled={pending}>
        {pending ? t('pending') : t('submit')}
      </Button>
    </form>
  );
}

/** What the link's page says around the form: a reset's by default; an invitation's page says its own (app/invitation). */
export interface NewPasswordWording {
  /** After the password is set. */
  done: ReactNode;
  /** After the link turned out not to work: where to get another (a sentence). */
  another: ReactNode;
  submit: string;
}

export function NewPasswordForm({
  action,
  username,
  minLength,
  wording,
}: {
  action: (state: ResetState, form: FormData) => Promise<ResetState>;
  username: string;
  minLength: number;
  wording?: NewPasswordWording;
}) {
  const t = useTranslations('recovery.reset');
  const recovery = useTranslations('recovery');
  const problems = useTranslations('problems');
  const [state, formAction, pending] = useActionState(action, { status: 'idle' });
  const words: NewPasswordWording = wording ?? {
    done: t('done'),
    another: t.rich('another', { link: (chunks) => <TextLink href="/password-reset">{chunks}</TextLink> }),
    submit: t('submit'),
  };
  if (state.status === 'done') {
    // The one thing to do next, as the page's main button: the account signs in from there.
    return (
      <>
        <Notice compact>{words.done}</Notice>
        <p className="mt-4">
          <ButtonLink block href="/account">
            {recovery('openAccount')}
          </ButtonLink>
        </p>
      </>
    );
  }
  if (state.status === 'link') {
    const reason = state.problem === 'expired' ? t('staleExpired') : state.problem === 'used' ? t('staleUsed') : t('staleUnknown');
    return (
      <Notice variant="error" compact>
        {t('stale', { reason })} {words.another}
      </Notice>
    );
  }
  const errors = state.status === 'invalid' ? state.errors : {};
  return (
    <form action={formAction} noValidate className="space-y-4">
      <input type="text" name="username" value={username} autoComplete="username" readOnly hidden />
      <PasswordPair label={t('label')} minLength={minLength} errors={errors} autoFocus />
      <FormError messages={problemTexts(problems, 'form', errors.form)} />
      <Button block type="submit" disabled={pending}>
        {pending ? t('pending') : words.submit}
      </Button>
    </form>
  );
}
