'use client';
/**
 * "Create an account" (lib/services/sign-up.ts): username, email, optional name,
 * the password twice. A server action: works without JavaScript. After a
 * refusal the fields come back as typed, never the passwords. UI only.
 */
import { useActionState } from 'react';
import type { SignUpFormState } from '@/lib/services/sign-up-interaction';
import { Button, TextLink } from '../ui/button';
import { TextField } from '../ui/field';
import { FormError, Notice } from '../ui/notice';
import { PasswordPair } from '../recovery/password-pair';

const sentence = (messages?: string[]) => messages?.map((m) => m.charAt(0).toUpperCase() + m.slice(1));

export function SignUpForm({
  action,
  back,
  domains,
  minLength,
}: {
  action: (state: SignUpFormState, form: FormData) => Promise<SignUpFormState>;
  /** The sign-in page of the same request. */
  back: string;
  domains: string[];
  minLength: number;
}) {
  const [state, formAction, pending] = useActionState(action, { status: 'idle' });
  if (state.status === 'expired') {
    return (
      <Notice variant="error" compact>
        This sign-in request has expired. Go back to the application and start again.
      </Notice>
    );
  }
  const errors = state.status === 'invalid' ? state.errors : {};
  const values = state.status === 'invalid' || state.status === 'failed' ? state.values : undefined;
  // A new key after each answer, so the fields take the values typed back.
  const key = `${state.status}-${values?.username ?? ''}-${values?.email ?? ''}`;
  return (
    <>
      <form action={formAction} noValidate className="space-y-4" key={key}>
        {state.status === 'failed' ? (
          <Notice variant="error" compact>
            The email could not be sent just now, so no account was created. Try again in a few minutes.
          </Notice>
        ) : null}
        <TextField
          compact
          id="username"
          label="Username"
          hint="What you will sign in with: letters, digits and . _ @ - only."
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          required
          autoFocus
          maxLength={64}
          defaultValue={values?.username}
          errors={sentence(errors.username)}
        />
        <TextField
          compact
          id="email"
          label="Email address"
          hint={domains.length ? `An address at ${domains.join(', ')}. We will send a link to confirm it.` : 'We will send a link to confirm it.'}
          type="email"
          autoComplete="email"
          required
          maxLength={254}
          defaultValue={values?.email}
          errors={sentence(errors.email)}
        />
        <TextField compact id="name" label="Name (optional)" autoComplete="name" maxLength={128} defaultValue={values?.name} errors={sentence(errors.name)} />
        <PasswordPair label="Password" minLength={minLength} errors={errors} />
        <FormError messages={sentence(errors.form)} />
        <Button block type="submit" disabled={pending}>
          {pending ? 'Creating…' : 'Create account'}
        </Button>
      </form>
      <p className="mt-4 text-center text-sm text-slate-600">
        Already have an account? <TextLink href={back}>Sign in</TextLink>
      </p>
    </>
  );
}
