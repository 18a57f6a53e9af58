'use client';
/**
 * Deleting one's own account (/account/data): the current password and a ticked box, then the
 * button. Refusals come back worded in the page's language; nothing typed is sent back. UI only.
 */
import { useTranslations } from 'next-intl';
import { useActionState, useId } from 'react';
import { problemTexts } from '@/lib/i18n/problems';
import type { DeleteOwnState } from '@/lib/surfaces/account/own-data';
import { ConfirmCheck } from '../portal/confirm';
import { Button } from '../ui/button';
import { FormError, Notice } from '../ui/notice';
import { CurrentPasswordField } from './fields';

export function DeleteAccountForm({
  action,
  username,
  product,
}: {
  action: (state: DeleteOwnState, form: FormData) => Promise<DeleteOwnState>;
  username: string;
  /** The brand's name, for the refusal when self-deletion was turned off meanwhile. */
  product: string;
}) {
  const t = useTranslations('account.data');
  const problems = useTranslations('problems');
  const [state, formAction, pending] = useActionState(action, { status: 'idle' });
  const id = useId();
  const errors = state.status === 'invalid' ? state.errors : {};
  return (
    <form action={formAction} noValidate className="space-y-4">
      {state.status === 'refused' ? (
        <Notice variant="warning" compact>
          {state.reason === 'only_owner' ? t('onlyOwner') : state.reason === 'turned_off' ? t('deleteTurnedOff', { product }) : t('noPassword')}
        </Notice>
      ) : null}
      <input type="text" name="username" value={username} autoComplete="username" readOnly hidden />
      <CurrentPasswordField id={`${id}-password`} errors={problemTexts(problems, 'currentPassword', errors.currentPassword)} />
      <ConfirmCheck id={`${id}-confirm`} invalid={Boolean(errors.confirm)}>
        {t('statement')}
      </ConfirmCheck>
      <FormError messages={problemTexts(problems, 'confirm', errors.confirm)} />
      <Button type="submit" variant="danger" disabled={pending}>
        {pending ? t('deleting') : t('deleteButton')}
      </Button>
    </form>
  );
}
