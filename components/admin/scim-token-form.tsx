'use client';
/**
 * Issuing a token for a SCIM provisioning client: its name, which the audit log names its changes by. Its action is
 * a server action validated by the token's schema (lib/scim/tokens.ts); a problem comes back next to the field in
 * the page's language. Once issued, the token is shown once, to copy: Gatehouse keeps only its hash.
 */
import { useTranslations } from 'next-intl';
import { useActionState } from 'react';
import { fieldProblemTexts } from '@/lib/i18n/problems';
import type { ScimTokenFormState } from '@/lib/surfaces/portal/provisioning';
import { Button } from '../ui/button';
import { TextField } from '../ui/field';
import { ShownOnce } from './shown-once';
import { ProblemSummary } from '../ui/problem-summary';

export function ScimTokenForm({ action }: { action: (state: ScimTokenFormState, form: FormData) => Promise<ScimTokenFormState> }) {
  const t = useTranslations('admin.scimTokenForm');
  const problems = useTranslations('problems');
  const [state, formAction, pending] = useActionState(action, { status: 'editing', name: '', problems: {} });
  if (state.status === 'issued') {
    return (
      <ShownOnce
        heading={t('issued', { name: state.name })}
        hint={t('copyToken')}
        field={{ id: 'scim-token', label: t('token'), value: state.token }}
        done={{ href: '/admin/provisioning', label: t('done') }}
      />
    );
  }
  const errors = fieldProblemTexts(problems, state.problems);
  return (
    <form action={formAction} noValidate className="space-y-5">
      <ProblemSummary errors={errors} names={{ form: t('form'), name: t('name') }} />
      <TextField id="name" label={t('name')} hint={t('nameHint')} errors={errors.name} required defaultValue={state.name} />
      <Button type="submit" disabled={pending}>
        {pending ? t('issuing') : t('issue')}
      </Button>
    </form>
  );
}
