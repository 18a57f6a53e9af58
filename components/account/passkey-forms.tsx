'use client';
/**
 * The passkey forms of /account/security. Adding one: its name and the current
 * password go to the server first (startAction), which answers with the options
 * for the browser's WebAuthn ceremony (@simplewebauthn/browser); the
 * authenticator's answer goes to finishAction. That needs JavaScript: without
 * it the button stays disabled and says so. Removing one is a plain server
 * action with the current password, with or without JavaScript. A failed
 * ceremony is worded by its cause (lib/factors/webauthn-errors.ts). In the page's
 * language (`account.security`, `problems`). UI only.
 */
import { browserSupportsWebAuthn, startRegistration } from '@simplewebauthn/browser';
import { useTranslations } from 'next-intl';
import { useRouter } from 'next/navigation';
import { type FormEvent, useActionState, useEffect, useState } from 'react';
import type { PasskeyAdded, PasskeyStart, PasswordProtectedState } from '@/lib/surfaces/account/pages';
import type { FieldProblems, ProblemCode } from '@/lib/platform/forms';
import { type WebAuthnFailure, webauthnFailure } from '@/lib/factors/webauthn-errors';
import { Button } from '../ui/button';
import { FormError, Notice } from '../ui/notice';
import { CurrentPasswordField, TextField } from './fields';
import { PasswordProtectedFields, RecoveryCodes, Removed, useProblemTexts } from './two-step-forms';

type Support = 'checking' | 'yes' | 'no';

/** A failed ceremony's cause as the problem the form words (lib/factors/webauthn-errors.ts). */
const registrationProblems = {
  cancelled: 'passkey_cancelled',
  exists: 'passkey_exists',
  security: 'passkey_security',
  unsupported: 'passkey_unsupported',
  failed: 'passkey_failed',
} as const satisfies Record<WebAuthnFailure, ProblemCode>;

export function AddPasskeyForm({
  username,
  product,
  startAction,
  finishAction,
}: {
  username: string;
  /** The brand's name, for the recovery codes' file. */
  product: string;
  startAction: (form: FormData) => Promise<PasskeyStart>;
  finishAction: (response: string) => Promise<PasskeyAdded>;
}) {
  const router = useRouter();
  const t = useTranslations('account.security');
  const texts = useProblemTexts();
  const [support, setSupport] = useState<Support>('checking');
  const [errors, setErrors] = useState<FieldProblems<'name' | 'currentPassword'>>({});
  const [pending, setPending] = useState(false);
  const [added, setAdded] = useState<Extract<PasskeyAdded, { status: 'added' }>>();
  useEffect(() => setSupport(browserSupportsWebAuthn() ? 'yes' : 'no'), []);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    setPending(true);
    setErrors({});
    try {
      const started = await startAction(form);
      if (started.status === 'invalid') return setErrors(started.errors);
      let response: unknown;
      try {
        response = await startRegistration({ optionsJSON: started.options });
      } catch (error) {
        return setErrors({ form: [{ code: registrationProblems[webauthnFailure(error)] }] });
      }
      const finished = await finishAction(JSON.stringify(response));
      if (finished.status === 'invalid') return setErrors(finished.errors);
      // Added: the form is ready for another passkey, its name and the password not left behind.
      formElement.reset();
      setAdded(finished);
      if (!finished.recoveryCodes) router.refresh();
    } finally {
      setPending(false);
    }
  };

  if (added?.recoveryCodes) return <RecoveryCodes codes={added.recoveryCodes} enrolled product={product} username={username} />;
  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      {added ? (
        <Notice variant="success" compact>
          {t('passkeyAdded', { name: added.name })}
        </Notice>
      ) : null}
      <input type="text" name="username" value={username} autoComplete="username" readOnly hidden />
      <TextField
        id="passkey-name"
        name="name"
        label={t('passkeyName')}
        hint={t('passkeyNameHint')}
        maxLength={64}
        required
        errors={texts(errors, 'name', 'passkeyName')}
      />
      <CurrentPasswordField id="passkey-password" errors={texts(errors, 'currentPassword')} />
      <FormError messages={texts(errors, 'form')} />
      <Button type="submit" disabled={support !== 'yes' || pending} aria-describedby="passkey-support">
        {pending ? t('waiting') : t('addPasskey')}
      </Button>
      <p id="passkey-support" className="text-xs text-slate-600">
        {support === 'no' ? t('unsupported') : support === 'checking' ? t('needsScript') : ''}
      </p>
    </form>
  );
}

export function RemovePasskeyForm({
  id,
  name,
  username,
  action,
}: {
  id: string;
  name: string;
  username: string;
  action: (state: PasswordProtectedState, form: FormData) => Promise<PasswordProtectedState>;
}) {
  const held = useActionState(action, { status: 'idle' });
  const t = useTranslations('account.security');
  if (held[0].status === 'removed') return <Removed message={t('passkeyRemoved', { name })} compact />;
  return (
    <PasswordProtectedFields
      held={held}
      username={username}
      submit={t('removePasskey', { name })}
      variant="danger"
      fieldId={`remove-${id}-currentPassword`}
      hidden={{ passkey: id }}
    />
  );
}
