'use client';
/**
 * The profile form: name and email. Its action is a server action validated
 * with the shared profile schema; expected errors come back as values and show
 * next to their fields, with what was typed. Works without JavaScript (React
 * renders the action's answer into the page).
 */
import { useActionState, useEffect, useRef } from 'react';
import type { ProfileState, ProfileValues } from '@/lib/services/account/pages';
import { Button } from '../ui/button';
import { FormError, Notice } from '../ui/notice';
import { TextField } from './fields';

export function ProfileForm({ action, initial }: { action: (state: ProfileState, form: FormData) => Promise<ProfileState>; initial: ProfileValues }) {
  const [state, formAction, pending] = useActionState(action, { status: 'editing', values: initial, errors: {} });
  const form = useRef<HTMLFormElement>(null);
  const { values, errors } = state;
  useEffect(() => {
    // After each answer: the first field with a problem takes the focus (its message is read with it).
    form.current?.querySelector<HTMLInputElement>('[aria-invalid="true"]')?.focus();
  }, [state]);

  return (
    <form ref={form} action={formAction} noValidate className="space-y-5">
      {state.status === 'saved' ? (
        <Notice>
          Your profile is saved. Apps see the change the next time they ask Gatehouse.
          {state.pendingEmail ? (
            <>
              {' '}
              We sent a link to <strong>{state.pendingEmail}</strong>: your email address changes to it when you open the link (it works for 24 hours).
            </>
          ) : null}
        </Notice>
      ) : null}
      <TextField
        id="name"
        label="Name"
        hint="The name apps greet you by."
        autoComplete="name"
        maxLength={128}
        defaultValue={values.name}
        errors={errors.name}
      />
      <TextField
        id="email"
        label="Email"
        hint="Apps you allowed to see your email address receive this one."
        type="email"
        inputMode="email"
        autoComplete="email"
        maxLength={254}
        defaultValue={values.email}
        errors={errors.email}
      />
      <FormError messages={errors.form} />
      <Button type="submit" disabled={pending}>
        {pending ? 'Saving…' : 'Save profile'}
      </Button>
    </form>
  );
}
