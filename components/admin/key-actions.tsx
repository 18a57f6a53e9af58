'use client';
/**
 * The System page's Rotate: a tick first (it works without JavaScript, unlike
 * a confirm() dialog), a second one for "at once" (a compromised key), and the
 * answer in place, in the page's language (admin.keyRotation).
 */
import { useTranslations } from 'next-intl';
import { useActionState, useId } from 'react';
import type { KeyRotation } from '@/lib/surfaces/portal/system';
import { Button } from '../ui/button';
import { FormError, Notice } from '../ui/notice';
import { ConfirmCheck as Confirm } from '../portal/confirm';

export function RotateKeysForm({
  action,
  publishAheadHours,
}: {
  action: (state: KeyRotation, form: FormData) => Promise<KeyRotation>;
  publishAheadHours: number;
}) {
  const t = useTranslations('admin.keyRotation');
  const [state, formAction, pending] = useActionState(action, { status: 'idle' });
  const id = useId();
  return (
    <form action={formAction} className="space-y-3">
      {state.status === 'done' ? (
        <Notice compact>
          {state.outcomes.map(({ alg, kid, outcome, activatesAt }) => (
            <span key={kid} className="block">
              {outcome === 'rotated' ? t('rotated', { alg, kid }) : t('published', { alg, kid, at: new Date(activatesAt).toISOString() })}
            </span>
          ))}
        </Notice>
      ) : null}
      <Confirm id={`${id}-confirm`} invalid={state.status === 'refused'}>
        {t('statement', { hours: publishAheadHours })}
      </Confirm>
      <Confirm id={`${id}-now`} name="now" invalid={false}>
        {t('now')}
      </Confirm>
      <FormError messages={state.status === 'refused' ? [t(state.reason)] : undefined} />
      <Button type="submit" variant="secondary" disabled={pending}>
        {pending ? t('pending') : t('submit')}
      </Button>
    </form>
  );
}
