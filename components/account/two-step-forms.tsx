'use client';
/**
 * The forms of /account/security: confirm TOTP with a first code, get new
 * recovery codes, turn two-step verification off (both with the current
 * password). Nothing typed is sent back. Server actions: they work without
 * JavaScript too. UI only.
 *
 * Recovery codes appear once, in the answer that made them. Confirming and
 * getting new codes are held by RecoveryCodesOnce, which the page renders at
 * the same place whatever the state of two-step verification. Without
 * JavaScript, Next.js answers a form's post by rendering the page again with
 * the action's result, and React gives that result only to the useActionState
 * at the place in the page the form came from: the confirm form's own place is
 * gone once two-step verification is on, so a hook there lost the codes. Held
 * at a place both page states share, the codes are in that one answer, and in
 * nothing stored, a URL or a cookie. Leaving with a full page load (a plain
 * link, not the client router, which would keep this component's state)
 * leaves them behind. In the page's language (`account.security`, `problems`).
 */
import { useTranslations } from 'next-intl';
import { useSearchParams } from 'next/navigation';
import { createContext, type ReactNode, useActionState, useContext } from 'react';
import { problemTexts } from '@/lib/i18n/problems';
import type { ConfirmState, PasswordProtectedState } from '@/lib/surfaces/account/pages';
import type { FieldProblems } from '@/lib/platform/forms';
import { Button, buttonLook, focusRing, TextLink } from '../ui/button';
import { FormError, Notice } from '../ui/notice';
import { CurrentPasswordField, TextField } from './fields';
import { RecoveryCodeActions } from './recovery-code-actions';

/** The messages of a two-step form's problems, by field, in the page's language. */
export function useProblemTexts() {
  const problems = useTranslations('problems');
  return <F extends string>(errors: FieldProblems<F>, field: F | 'form', wording: string = field) => problemTexts(problems, wording, errors[field]);
}

type Action<S> = (state: S, form: FormData) => Promise<S>;
type Held<S> = [state: S, formAction: (form: FormData) => void, pending: boolean];

const CodeActions = createContext<{ confirm: Held<ConfirmState>; regenerate: Held<PasswordProtectedState> } | null>(null);

function useCodeActions() {
  const actions = useContext(CodeActions);
  if (!actions) throw new Error('the two-step forms that make recovery codes are rendered inside RecoveryCodesOnce');
  return actions;
}

/**
 * The page's forms below it, or instead of them the recovery codes that
 * confirming or getting new ones just made: on their own, so the person reads
 * and stores them before anything else.
 */
export function RecoveryCodesOnce({
  confirm,
  regenerate,
  holder,
  children,
}: {
  confirm: Action<ConfirmState>;
  regenerate: Action<PasswordProtectedState>;
  /** Whose codes, for the downloaded file's heading. */
  holder: { product: string; username: string };
  children: ReactNode;
}) {
  const confirmed = useActionState(confirm, { status: 'idle' });
  const regenerated = useActionState(regenerate, { status: 'idle' });
  const made = [confirmed[0], regenerated[0]].find((state) => state.status === 'codes');
  if (made?.status === 'codes') return <RecoveryCodes codes={made.recoveryCodes} enrolled={made.enrolled} {...holder} />;
  return <CodeActions value={{ confirm: confirmed, regenerate: regenerated }}>{children}</CodeActions>;
}

/** Where a person the second-factor policy sent here was going (lib/surfaces/portal/access.ts). */
const continueTo = { admin: '/admin', everyone: '/account' } as const;

export function RecoveryCodes({ codes, enrolled, product, username }: { codes: string[]; enrolled: boolean; product: string; username: string }) {
  // Sent here by the second-factor policy: once the codes are stored, straight on to where the person was going.
  const requiredParam = useSearchParams().get('required');
  const required = requiredParam === 'admin' || requiredParam === 'everyone' ? requiredParam : undefined;
  const t = useTranslations('account.security');
  return (
    <div className="max-w-3xl">
      <Notice>
        <p className="font-semibold">{enrolled ? t('isOn') : t('newCodes')}</p>
        <p className="mt-1">{enrolled ? t('store') : t('storeNew')}</p>
        {/* The one thing a printout shows (app/globals.css). */}
        <div className="print-only-codes">
          <p className="hidden print:block">{t('codesFileHeading', { product, username })}</p>
          <ul id="recovery-codes" aria-label={t('codesLabel')} className="mt-3 grid grid-cols-2 gap-x-6 gap-y-1 font-mono text-sm">
            {codes.map((code) => (
              <li key={code}>{code}</li>
            ))}
          </ul>
        </div>
        <RecoveryCodeActions codes={codes} product={product} username={username} listId="recovery-codes" />
        <p className="mt-4">
          {/* A full page load: the client router would keep RecoveryCodesOnce's state, and with it the codes. */}
          {required && enrolled ? (
            <a href={continueTo[required]} className={buttonLook('primary', false)}>
              {t('storedContinue', { to: required })}
            </a>
          ) : (
            <a
              href={`/account/security${required ? `?required=${required}` : ''}`}
              className={`rounded-sm font-medium text-indigo-700 underline-offset-2 hover:underline ${focusRing}`}
            >
              {t('stored')}
            </a>
          )}
        </p>
      </Notice>
    </div>
  );
}

export function ConfirmTotpForm() {
  const [state, formAction, pending] = useCodeActions().confirm;
  const t = useTranslations('account.security');
  const texts = useProblemTexts();
  const errors = state.status === 'invalid' ? state.errors : {};
  return (
    <form action={formAction} noValidate className="space-y-4">
      <TextField id="code" label={t('code')} inputMode="numeric" autoComplete="one-time-code" maxLength={64} required errors={texts(errors, 'code')} />
      <FormError messages={texts(errors, 'form')} />
      <Button type="submit" disabled={pending}>
        {pending ? t('checking') : t('turnOn')}
      </Button>
    </form>
  );
}

export function NewRecoveryCodesForm({ username }: { username: string }) {
  const held = useCodeActions().regenerate;
  const t = useTranslations('account.security');
  return <PasswordProtectedFields held={held} username={username} submit={t('getNewCodes')} fieldId="codes-currentPassword" />;
}

export function TurnOffForm({ action, username }: { action: Action<PasswordProtectedState>; username: string }) {
  const held = useActionState(action, { status: 'idle' });
  const t = useTranslations('account.security');
  if (held[0].status === 'removed') return <Removed message={t('isOff')} />;
  return <PasswordProtectedFields held={held} username={username} submit={t('turnOffButton')} variant="danger" />;
}

/** What a removal says once done, with the way back to the page as it is now. */
export function Removed({ message, compact }: { message: string; compact?: boolean }) {
  const t = useTranslations('account.security');
  return (
    <Notice compact={compact}>
      {message} <TextLink href="/account/security">{t('back')}</TextLink>
    </Notice>
  );
}

export function PasswordProtectedFields({
  held: [state, formAction, pending],
  username,
  submit,
  variant = 'primary',
  fieldId = 'currentPassword',
  hidden = {},
}: {
  /** The form's action state (useActionState's three). */
  held: Held<PasswordProtectedState>;
  username: string;
  submit: string;
  variant?: 'primary' | 'danger';
  /** The password field's id, unique on the page (its name is always currentPassword). */
  fieldId?: string;
  /** Hidden fields the form posts too (which passkey to remove). */
  hidden?: Record<string, string>;
}) {
  const texts = useProblemTexts();
  const errors = state.status === 'invalid' ? state.errors : {};
  return (
    <form action={formAction} noValidate className="space-y-4">
      <input type="text" name="username" value={username} autoComplete="username" readOnly hidden />
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <CurrentPasswordField id={fieldId} errors={texts(errors, 'currentPassword')} />
      <FormError messages={texts(errors, 'form')} />
      <Button type="submit" variant={variant} disabled={pending}>
        {submit}
      </Button>
    </form>
  );
}
