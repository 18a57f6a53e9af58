'use client';
/**
 * The destructive client actions: rotate the secret, delete. Each asks for a
 * tick first (the portal's one confirmation, components/portal/confirm.tsx)
 * and shows its answer in place, in the page's language (admin.clientActions).
 */
import { useTranslations } from 'next-intl';
import { useActionState, useId } from 'react';
import type { ClientChange, SecretRotation } from '@/lib/surfaces/portal/clients';
import { SecretReveal } from './secret-reveal';
import { ConfirmCheck as Confirm } from '../portal/confirm';
import { Button } from '../ui/button';
import { FormError } from '../ui/notice';

export function RotateSecretForm({ action }: { action: (state: SecretRotation, form: FormData) => Promise<SecretRotation> }) {
  const t = useTranslations('admin.clientActions');
  const [state, formAction, pending] = useActionState(action, { status: 'idle' });
  const id = useId();
  if (state.status === 'rotated') {
    return <SecretReveal heading={t('rotated')} clientSecret={state.clientSecret} />;
  }
  return (
    <form action={formAction} className="space-y-3">
      <Confirm id={id} invalid={state.status === 'refused'}>
        {t('rotateStatement')}
      </Confirm>
      <FormError messages={state.status === 'refused' ? [t(`refused.${state.reason}`)] : undefined} />
      <Button type="submit" variant="secondary" disabled={pending}>
        {pending ? t('rotatePending') : t('rotateSubmit')}
      </Button>
    </form>
  );
}

export function DeleteClientForm({
  action,
  name,
}: {
  action: (state: ClientChange | undefined, form: FormData) => Promise<ClientChange | undefined>;
  name: string;
}) {
  const t = useTranslations('admin.clientActions');
  const [state, formAction, pending] = useActionState(action, undefined);
  const id = useId();
  return (
    <form action={formAction} className="space-y-3">
      <Confirm id={id} invalid={state?.status === 'refused'}>
        {t.rich('deleteStatement', { name, strong: (chunks) => <strong>{chunks}</strong> })}
      </Confirm>
      <FormError messages={state?.status === 'refused' ? [t(`refused.${state.reason}`)] : undefined} />
      <Button type="submit" variant="danger" disabled={pending}>
        {pending ? t('deletePending') : t('deleteSubmit')}
      </Button>
    </form>
  );
}
